/**
 * A catalogue load while another connection holds the store's write lock (found by `npm run soak`: a
 * loader died with SQLITE_BUSY "database is locked"). The merge transaction used to start deferred and
 * read first; a transaction that has read can't wait for the write lock — SQLite answers SQLITE_BUSY at
 * once, whatever the busy timeout — so the load failed whenever anything else was writing (an import,
 * the CLI, another process's catalogue-job check) at that moment. It now waits its turn (BEGIN IMMEDIATE).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CatalogueJob } from '../../src/catalogue/catalogue-job.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { tempDir } from '../helpers/temp.ts';
import { cliJson } from '../helpers/cli.ts';

/** Another thread with a connection of its own: takes the write lock when told, holds it `ms`, commits. */
const HOLDER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { timeout: 10000 });
const flag = new Int32Array(workerData.flag);
Atomics.wait(flag, 0, 0);
db.exec('BEGIN IMMEDIATE');
Atomics.store(flag, 0, 2);
Atomics.notify(flag, 0);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
db.exec('COMMIT');
db.close();
`;

describe('a catalogue load while another connection writes', () => {
  it('waits for the write lock and merges, instead of failing with SQLITE_BUSY at once', async () => {
    const storePath = path.join(tempDir(), 'brick-work.sqlite');
    const store = await openStore(storePath);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const holder = new Worker(HOLDER, {
      eval: true,
      workerData: {
        sqlite: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: storePath,
        flag: flag.buffer,
        ms: 300,
      },
    });
    const ended = new Promise((resolve, reject) => {
      holder.once('exit', resolve);
      holder.once('error', reject);
    });
    const parts = files.rebrickableParts(
      Array.from({ length: 500 }, (_, i) => ({ no: `${3000 + i}`, name: `Part ${i}` })),
    );
    let told = false;
    const result = await loadCatalogue(store.db, storePath, [{ name: 'parts.csv', content: bytes(parts) }], {
      type: 'P',
      me: identityOf(),
      clock: SYSTEM_CLOCK,
      onProgress: () => {
        if (told) return;
        told = true;
        // The job is claimed and about to merge: the other thread takes the write lock now.
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        Atomics.wait(flag, 0, 1, 5000);
        expect(Atomics.load(flag, 0)).toBe(2);
      },
    });
    await ended;
    expect(result.items).toBe(500);
    expect(store.db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(500);
    store.close();
  });

  it('a second load while a live load holds the write lock for its merge is told Busy, naming the load, at once', async () => {
    // Found by CI on a loaded machine: the second process waited for the lock the first held for its merge,
    // and was told "the store is busy" instead of who is loading.
    const storePath = path.join(tempDir(), 'brick-work.sqlite');
    const loading = await openStore(storePath);
    onTestFinished(() => loading.close());
    const other = await openStore(storePath);
    onTestFinished(() => other.close());
    CatalogueJob.start(loading.db, storePath, 'catalogue-load', {}, { me: identityOf(), clock: SYSTEM_CLOCK });
    loading.db.exec('BEGIN IMMEDIATE'); // its merge
    onTestFinished(() => void loading.db.exec('ROLLBACK'));
    let refused: unknown = null;
    try {
      CatalogueJob.start(other.db, storePath, 'catalogue-load', {}, { me: identityOf(), clock: SYSTEM_CLOCK });
    } catch (e) {
      refused = e;
    }
    expect(refused).toMatchObject({ code: 'busy', message: expect.stringContaining(`pid ${process.pid}`) });
  });

  it('another process is told Busy, naming the load, at once — its opening of the store does not wait for the merge’s lock either', async () => {
    // Found by CI on a loaded machine: every read-write open took the write lock to see whether the store
    // needed upgrading, so a second `catalogue import` waited out the busy timeout behind the first's merge.
    const storePath = path.join(tempDir(), 'brick-work.sqlite');
    const loading = await openStore(storePath);
    onTestFinished(() => loading.close());
    CatalogueJob.start(loading.db, storePath, 'catalogue-load', {}, { me: identityOf(), clock: SYSTEM_CLOCK });
    loading.db.exec('BEGIN IMMEDIATE'); // its merge
    onTestFinished(() => void loading.db.exec('ROLLBACK'));
    // Opening a settled store for writing takes no lock.
    const other = await openStore(storePath);
    expect(other.db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(0);
    other.close();
    const more = path.join(path.dirname(storePath), 'more.csv');
    fs.writeFileSync(more, files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }]));
    const second = await cliJson(['--db', storePath, 'catalogue', 'import', more]);
    expect(second.json.error).toMatchObject({ code: 'busy', message: expect.stringContaining(`pid ${process.pid}`) });
  });
});
