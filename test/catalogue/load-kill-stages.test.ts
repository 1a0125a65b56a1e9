/**
 * Issue 61 §2: a catalogue load killed (SIGKILL, a real child process) while its file is merged — its
 * rows staged apart, not yet swapped in — or between the batches of lines it places again after the
 * swap. Either way nothing is lost or doubled: the catalogue is the old one or the new one, never a part
 * of the file; lines it had not placed yet are said to wait; `jobs recover` or the next load finishes
 * the work, each item and each line once. On a SQLite file and on a PostgreSQL server.
 */
import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { LINE_BATCH } from '../../src/placement/place-lines.ts';
import { waitingLines } from '../../src/store/line-placements.ts';
import { openStore } from '../../src/store/open.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { csv, file } from '../helpers/documents.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';

const SOURCE = 'rebrickable:parts.csv';

/** A parts file, and a store whose order of `n` lines names its first 200 parts, none in the catalogue yet. */
async function storeWaiting(location: string, parts: number, n: number): Promise<string> {
  const numbers = Array.from({ length: parts }, (_, i) => `${20_000 + i}`);
  const partsFile = path.join(tempDir(), 'parts.csv');
  fs.writeFileSync(
    partsFile,
    files.rebrickableParts(numbers.map((no, i) => ({ no, name: `Killed Part ${i} with Stud` }))),
  );
  const store = await openStore(location);
  try {
    const rows = Array.from({ length: n }, (_, i) => [numbers[i % 200] ?? '', 'x', 1]);
    confirmImport(
      writeSession(store.db),
      { file: file('order.csv', csv(['number', 'name', 'quantity'], rows)) },
      SYSTEM_CLOCK,
    );
  } finally {
    store.close();
  }
  return partsFile;
}

async function state(location: string) {
  const store = await openStore(location, { readOnly: true });
  try {
    const count = (sql: string, ...args: unknown[]) =>
      Number(
        store.db
          .prepare(sql)
          .pluck()
          .get(...args),
      );
    return {
      items: count('SELECT count(*) FROM catalogue_item WHERE source = ?', SOURCE),
      lines: count('SELECT count(*) FROM order_line'),
      placed: count('SELECT count(*) FROM order_line WHERE item_no IS NOT NULL'),
      waiting: waitingLines(store.db),
    };
  } finally {
    store.close();
  }
}

describeEachStore('a catalogue load killed mid-way (issue 61 §2)', (stores) => {
  it('killed while its file is merged: the catalogue is as it was; recovered; the next load loads it whole, once', async () => {
    const location = stores.location();
    const parts = 60_000;
    const partsFile = await storeWaiting(location, parts, 400);
    const loader = spawnWorker('catalogue-load-worker', [location, partsFile]);
    const said = lines(loader);
    await said.waitFor(/^staged 10000 /, 120_000);
    loader.kill('SIGKILL');
    await exited(loader);
    // Struck before the file's swap: nothing of it is in the store, and no line was touched.
    expect(said.all.some((l) => l.startsWith('merged '))).toBe(false);
    expect(await state(location)).toEqual({ items: 0, lines: 400, placed: 0, waiting: null });

    const recovered = await cliJson(['--db', location, 'jobs', 'recover']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.json.catalogueJob).toMatchObject({ kind: 'catalogue-load' });
    const listed = await cliJson(['--db', location, 'jobs']);
    expect(listed.json.catalogueJob).toMatchObject({ state: 'failed' });

    const again = await cliJson(['--db', location, 'catalogue', 'import', partsFile]);
    expect(again.code, again.stderr).toBe(0);
    expect(await state(location)).toEqual({ items: parts, lines: 400, placed: 400, waiting: null });
  }, 240_000);

  it('killed between the batches of lines placed again: the rest said to wait; recovered, every line placed once', async () => {
    const location = stores.location();
    const total = 4 * LINE_BATCH;
    const partsFile = await storeWaiting(location, 200, total);
    const loader = spawnWorker('catalogue-load-worker', [location, partsFile, 'lines']);
    const said = lines(loader);
    await said.waitFor(new RegExp(`^lines ${LINE_BATCH} ${total} `), 120_000);
    loader.kill('SIGKILL');
    await exited(loader);
    const killed = await state(location);
    expect(killed.items).toBe(200);
    expect(killed.placed).toBeGreaterThanOrEqual(LINE_BATCH);
    expect(killed.placed).toBeLessThan(total);
    expect(killed.waiting).toMatchObject({ scope: ['unplaced'] });

    const recovered = await cliJson(['--db', location, 'jobs', 'recover']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.json.catalogueJob).toMatchObject({ kind: 'catalogue-load', placed: total - killed.placed });
    expect(await state(location)).toEqual({ items: 200, lines: total, placed: total, waiting: null });
  }, 240_000);
});
