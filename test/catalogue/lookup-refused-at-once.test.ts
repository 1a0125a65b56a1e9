/**
 * A call that will be refused for what it is is refused at once (issue 45, point 5): the look-up without
 * credentials answers no-credentials while another process holds the store's write lock (the CLI), and
 * while the writer thread is taken (the app and the browser host) — not store-busy after waiting.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CallDispatcher } from '../../src/api/ports.ts';
import { openStore } from '../../src/store/open.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { serviceFor } from '../helpers/service.ts';
import { tempDir } from '../helpers/temp.ts';
import { lines } from '../helpers/workers.ts';

describe('the look-up without credentials is refused at once', () => {
  it('from the CLI while another process holds the write lock: no-credentials, the store not waited for', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    (await openStore(file)).close();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(process.argv[1]); db.exec('BEGIN IMMEDIATE'); console.log('held'); setTimeout(() => {}, 60000);`,
        file,
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    onTestFinished(() => {
      holder.kill('SIGKILL');
    });
    await lines(holder).waitFor(/^held$/);
    const r = await cliJson(['--db', file, 'catalogue', 'lookup']);
    expect(r.json.error.code).toBe('no-credentials'); // not store-busy after the busy timeout
    expect(r.json.error.message).toContain('BRICKLINK_CONSUMER_KEY');
  });

  it('in the app while the writer thread is taken: answered on the screens’ thread, never queued behind it', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const store = await openStore(file);
    onTestFinished(() => store.close());
    const queued: string[] = [];
    const busyWriter = {
      dispatch: (name: string) => {
        queued.push(name);
        return new Promise(() => {}); // the writer never gets to it
      },
    } as unknown as CallDispatcher;
    const service = serviceFor(store.db, file, { threads: busyWriter });
    const answer = await service.call('lookup.start', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'no-credentials' } });
    expect(queued).toEqual([]);
    // With credentials it goes to the writer as before.
    const withCredentials = serviceFor(store.db, file, {
      threads: busyWriter,
      credentials: {
        encrypted: false,
        get: () => ({ consumerKey: 'k', consumerSecret: 's', token: 't', tokenSecret: 'x' }),
        set: () => {},
      },
    });
    void withCredentials.call('lookup.start', {});
    expect(queued).toEqual(['lookup.start']);
  });
});
