/**
 * Issue 45, point 4: after a catalogue's merge commits, the lines it answers are placed again in
 * transactions of a few batches (at most 250 ms; here one batch each) — another process's small write
 * passes between them instead of waiting for the whole re-placement — and each batch records how far it
 * got, so a loader killed between batches
 * leaves the rest said to wait (never a reason the catalogue answers, unsaid), placed by the job's
 * recovery or by the next load.
 */
import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { waitingLines } from '../../src/store/line-placements.ts';
import { openStore } from '../../src/store/open.ts';
import { LINE_BATCH } from '../../src/placement/place-lines.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { csv, file } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';

const PARTS = Array.from({ length: 200 }, (_, i) => ({ no: `${9000 + i}`, name: `Test Part ${i}` }));

/** A store whose order of `n` lines names the parts above, none of them in the catalogue yet. */
async function storeWaiting(dir: string, n: number): Promise<string> {
  const storePath = path.join(dir, 'brick-work.sqlite');
  const store = await openStore(storePath);
  try {
    const rows = Array.from({ length: n }, (_, i) => [PARTS[i % PARTS.length]?.no ?? '', 'x', 1]);
    confirmImport(
      writeSession(store.db),
      { file: file('big.csv', csv(['number', 'name', 'quantity'], rows)) },
      SYSTEM_CLOCK,
    );
  } finally {
    store.close();
  }
  return storePath;
}

function counts(storePath: string): { placed: number; unplaced: number; waiting: ReturnType<typeof waitingLines> } {
  const db = new Database(storePath, { readonly: true });
  try {
    return {
      placed: db.prepare('SELECT count(*) FROM order_line WHERE item_no IS NOT NULL').pluck().get() as number,
      unplaced: db.prepare('SELECT count(*) FROM order_line WHERE item_no IS NULL').pluck().get() as number,
      waiting: waitingLines(db),
    };
  } finally {
    db.close();
  }
}

it('another process writes between the batches of lines placed again, without waiting for them all', async () => {
  const storePath = await storeWaiting(tempDir(), 3 * LINE_BATCH - 1000);
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  // Another process's small write, as a desk's setting or hand fix: it does not wait at all (timeout 0).
  const other = new Database(storePath, { timeout: 0 });
  onTestFinished(() => void other.close());
  const write = other.prepare(
    "INSERT INTO setting (key, value) VALUES ('test.between', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const passed: number[] = [];
  const refused: string[] = [];
  const result = await loadCatalogue(
    store.db,
    storePath,
    [{ name: 'parts.csv', content: bytes(files.rebrickableParts(PARTS)) }],
    {
      type: 'P',
      me: identityOf(),
      clock: SYSTEM_CLOCK,
      // A batch to a transaction, to see a write pass between each (a load's own slices hold up to 250 ms).
      placeAgainSliceMs: 0,
      onProgress: (p) => {
        // Past the file's rows: the lines are being placed again.
        if (p.done <= PARTS.length || p.done === p.total) return;
        try {
          write.run(String(p.done));
          passed.push(p.done - PARTS.length);
        } catch (e) {
          refused.push(String(e));
        }
      },
    },
  );
  expect(refused).toEqual([]);
  expect(passed).toEqual([LINE_BATCH, 2 * LINE_BATCH]);
  expect(result.placed).toBe(3 * LINE_BATCH - 1000);
  expect(counts(storePath)).toEqual({ placed: 3 * LINE_BATCH - 1000, unplaced: 0, waiting: null });
});

for (const then of ['jobs recover', 'the next load'] as const) {
  it(`a loader killed between its batches leaves the rest said to wait; ${then} places them`, async () => {
    const dir = tempDir();
    const total = 8 * LINE_BATCH;
    const storePath = await storeWaiting(dir, total);
    const partsFile = path.join(dir, 'parts.csv');
    fs.writeFileSync(partsFile, files.rebrickableParts(PARTS));
    const loader = spawnWorker('catalogue-load-worker', [storePath, partsFile, 'lines']);
    const said = lines(loader);
    await said.waitFor(new RegExp(`^lines ${LINE_BATCH} ${total} `), 60_000);
    loader.kill('SIGKILL');
    await exited(loader);

    // The first batch (or more) committed, the rest waits, said so in the store.
    const killed = counts(storePath);
    expect(killed.placed).toBeGreaterThanOrEqual(LINE_BATCH);
    expect(killed.placed).toBeLessThan(total);
    expect(killed.waiting).toMatchObject({ scope: ['unplaced'] });
    expect(killed.waiting?.after).toBeGreaterThanOrEqual(killed.placed);

    if (then === 'jobs recover') {
      const recovered = await cliJson(['--db', storePath, 'jobs', 'recover']);
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(recovered.json.catalogueJob).toMatchObject({ kind: 'catalogue-load', placed: total - killed.placed });
    } else {
      const next = path.join(dir, 'more.csv');
      fs.writeFileSync(next, files.rebrickableParts([{ no: '7777', name: 'Another Part' }]));
      const loaded = await cliJson(['--db', storePath, 'catalogue', 'import', next]);
      expect(loaded.code, loaded.stderr).toBe(0);
    }
    expect(counts(storePath)).toEqual({ placed: total, unplaced: 0, waiting: null });
  });
}
