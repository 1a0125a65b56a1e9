/**
 * The test run starts the CLI and the core's threads from one bundle of the sources (test/setup/global.ts,
 * for speed). These tests keep the way a checkout runs them honest: `bin/brick-work.js` through tsx, and
 * each thread found by name, from its source or its bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startWorker, THREAD_SCRIPTS, threadUrl, type ThreadName } from '../../src/platform/worker-start.ts';
import { finished, REPO_ROOT, SOURCE_BIN } from '../helpers/cli.ts';
import { spawn } from 'node:child_process';
import { files } from '../helpers/catalogue-files.ts';
import { bsx } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

/** `bin/brick-work.js --json …` as a checkout runs it, with no bundle of threads to borrow. */
async function sourceCli(args: string[]) {
  const r = await finished(
    spawn(process.execPath, [SOURCE_BIN, '--json', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, BRICK_WORK_DB: '', BRICK_WORK_BUILT_THREADS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

describe('the CLI and threads as a checkout runs them', () => {
  it('bin/brick-work.js runs the TypeScript sources: loads a catalogue and imports a document, placing what it can', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'brick-work.sqlite');
    fs.writeFileSync(path.join(dir, 'parts.csv'), files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }]));
    fs.writeFileSync(
      path.join(dir, 'order.bsx'),
      bsx([
        { no: '3001', qty: 2 },
        { no: 'x9', name: 'Mystery' },
      ]),
    );
    const loaded = await sourceCli(['--db', db, 'catalogue', 'import', path.join(dir, 'parts.csv')]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.json).toMatchObject({ items: 1 });
    const imported = await sourceCli(['--db', db, 'import', path.join(dir, 'order.bsx')]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json).toMatchObject({ imports: [{ lines: { total: 2, placed: 1, unplaced: 1 } }] });
  });

  it('every thread is named once, from a source that exists; threadUrl gives the source in a checkout', () => {
    for (const [name, source] of Object.entries(THREAD_SCRIPTS)) {
      const file = path.join(REPO_ROOT, 'src', ...source.split('/'));
      expect(fs.existsSync(file), file).toBe(true);
      expect(threadUrl(name as ThreadName).href).toBe(pathToFileURL(file).href);
    }
  });

  it('a thread started from its source runs its bundle where BRICK_WORK_BUILT_THREADS names one, else the source', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
    fs.writeFileSync(
      path.join(dir, 'decode-thread.js'),
      "import { parentPort } from 'node:worker_threads'; parentPort.postMessage('from the bundle');",
    );
    const said = (env: string | undefined) => {
      const before = process.env['BRICK_WORK_BUILT_THREADS'];
      if (env === undefined) delete process.env['BRICK_WORK_BUILT_THREADS'];
      else process.env['BRICK_WORK_BUILT_THREADS'] = env;
      try {
        const worker = startWorker(threadUrl('decode-thread'), null);
        onTestFinished(() => void worker.terminate());
        return new Promise<string>((resolve) => {
          worker.once('message', (m) => resolve(String(m)));
          // The real decode thread answers nothing unasked: it started from the source when it is up and quiet.
          worker.once('online', () => setTimeout(() => resolve('from the source'), 3_000));
          worker.once('error', (e) => resolve(`error: ${e.message}`));
        });
      } finally {
        if (before === undefined) delete process.env['BRICK_WORK_BUILT_THREADS'];
        else process.env['BRICK_WORK_BUILT_THREADS'] = before;
      }
    };
    expect(await said(dir)).toBe('from the bundle');
    expect(await said(undefined)).toBe('from the source');
  });
});
