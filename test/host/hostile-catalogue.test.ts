/**
 * A small hostile catalogue file through the browser host (issue 62, §2): 50 million "[" then 50 million
 * "]", gzipped to about 100 KB, took the host to 7.8 GB, and it held 5.9 GB after. Read on its catalogue
 * reader thread, it is refused at the reader's depth, the host answering and staying under the 200 MB
 * bar of a refused input (its peak resident memory, printed as it exits).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { buildScreens } from '../helpers/browser.ts';
import { hostArgs } from '../helpers/built.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { gzipped, nested } from '../helpers/hostile-files.ts';
import { MB200, PEAK_RSS, peakKbOf } from '../helpers/peak-rss.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines } from '../helpers/workers.ts';

it('a 97 KB .json.gz of 50 million nested arrays: the load fails at the depth, the host under 200 MB', async () => {
  const db = path.join(tempDir(), 'shop.sqlite');
  const bomb = await gzipped(nested(50_000_000));
  const child = spawn(
    process.execPath,
    ['--import', PEAK_RSS, ...hostArgs(), '--db', db, '--renderer', buildScreens()],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  onTestFinished(() => void child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = (await lines(child).waitFor(/^open http/)).replace(/^open /, '');
  const origin = new URL(url).origin;
  const token = /token=([\w-]+)/.exec(url)?.[1] ?? '';
  const call = async (name: string, args: unknown) => {
    const r = await fetch(`${origin}/api/call/${name}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: encodeWire(args),
    });
    return decodeWire(await r.text()) as { ok: boolean; value: any; error?: any };
  };

  const load = await call('catalogue.load', { files: [{ name: 'colours.json.gz', content: new Uint8Array(bomb) }] });
  expect(load).toMatchObject({ ok: true, value: { started: true } });
  let job: any = null;
  const deadline = Date.now() + 60_000;
  while (job?.state !== 'failed' && job?.state !== 'done' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    job = (await call('catalogue.status', {})).value.job;
  }
  expect(job).toMatchObject({
    state: 'failed',
    error:
      'colours.json.gz, line 1, column 33: the JSON nests more than 32 levels deep here; brick-work reads no deeper (no file it reads nests more than a few)',
  });
  // Still answering, and nothing was loaded.
  expect((await call('catalogue.status', {})).value).toMatchObject({ items: 0, colours: 0 });

  child.kill('SIGTERM');
  expect(await exited(child)).toEqual({ code: 0, signal: null });
  expect(peakKbOf(stderr)).toBeLessThan(MB200);
});
