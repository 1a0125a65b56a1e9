/**
 * A hand placement's write under the writer lock (issue 46, point 5): on a server the line's placement is
 * written and its old values read in one statement, only while the catalogue is as the placement's facts
 * were read; on a file (no round trips to save) never — the caller reads, then writes.
 */
import { spawn } from 'node:child_process';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import { expect, it, onTestFinished } from 'vitest';
import { placeByHand } from '../../src/hand/placement.ts';
import { nextUndo, undo } from '../../src/undo/history.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { openStore } from '../../src/store/open.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { linePlacementNow, replaceLinePlacement } from '../../src/store/lines.ts';
import { bumpCatalogueGeneration, catalogueGeneration } from '../../src/store/settings.ts';
import { csv, file } from '../helpers/documents.ts';
import { postgresProgram } from '../helpers/postgres-programs.ts';
import { describeEachStore, newStoreLocation, storeKind } from '../helpers/stores.ts';

/** A new store of the suite's kind, holding part 3001 and one document of `rows` (number, quantity). */
async function storeWithLines(rows: [string, number][]) {
  const location = newStoreLocation();
  const store = await openStore(location);
  onTestFinished(() => store.close());
  await loadCatalogue(
    store.db,
    location,
    [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) }],
    { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
  );
  confirmImport(writeSession(store.db), { file: file('one.csv', csv(['number', 'quantity'], rows)) }, SYSTEM_CLOCK);
  return { db: store.db, location };
}

describeEachStore('a line placement swapped in one statement', (stores) => {
  it('writes and gives the old values while the generation holds; a moved one writes nothing', async () => {
    const { db } = await storeWithLines([['x1', 1]]);
    const lineId = db.prepare('SELECT id FROM order_line').pluck().get() as number;
    const before = linePlacementNow(db, lineId).columns;
    const placed = { item_type: 'P', item_no: '3001', colour_id: null, placed_by: 'hand', unplaced_reason: null };
    const generation = catalogueGeneration(db);
    const write = (at: number) =>
      db
        .transaction(() => {
          const swap = replaceLinePlacement(db, lineId, placed, at);
          return swap === null ? null : swap();
        })
        .immediate();
    if (storeKind() === 'sqlite') {
      expect(write(generation)).toBeNull();
      expect(linePlacementNow(db, lineId).columns).toEqual(before);
      return;
    }
    // A catalogue that moved since: nothing written, null (the caller reads the line and the facts again).
    expect(write(generation + 1)).toBeNull();
    expect(linePlacementNow(db, lineId).columns).toEqual(before);
    // As read: written, and the old values given.
    expect(write(generation)).toEqual(before);
    expect(linePlacementNow(db, lineId).columns).toEqual(placed);
    db.transaction(() => bumpCatalogueGeneration(db)).immediate();
    expect(write(generation)).toBeNull();
  });

  // The swap goes with the memory's write and the read of the lines it places too (one round trip under
  // the lock); a load that commits between the placement's facts and its lock rolls that back, and the
  // placement is made again from the line and the facts as they are then: one step, undone whole.
  // Only on a server: a SQLite store reads the line under the lock, with no swap to roll back.
  if (stores.kind === 'postgres')
    it('a hand placement whose catalogue moved while it waited for the lock is made again, one step', async () => {
      const { db, location } = await storeWithLines([
        ['x1', 1],
        ['x1', 2],
      ]);
      const [lineId, twin] = db.prepare('SELECT id FROM order_line ORDER BY position').pluck().all() as number[];
      const generation = catalogueGeneration(db);
      // Another desk's load: holds the writer lock, moves the catalogue's generation, commits 1.5 s later.
      const load = spawn(postgresProgram('psql'), [
        location,
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `BEGIN; SELECT pg_advisory_xact_lock(${0x6272_6b77});
       INSERT INTO setting (key, value) VALUES ('catalogue.generation', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(setting.value AS INTEGER) + 1;
       SELECT pg_sleep(1.5); COMMIT;`,
      ]);
      const ended = new Promise<number | null>((resolve) => load.on('exit', resolve));
      onTestFinished(() => void load.kill('SIGKILL'));
      // The writer lock of this database (pg_locks is the whole server's: other tests' databases hold theirs).
      const held = () =>
        Number(
          db
            .prepare(
              `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ${0x6272_6b77}
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            )
            .pluck()
            .get(),
        );
      for (let i = 0; i < 100 && held() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(held()).toBe(1);
      const placed = placeByHand(
        writeSession(db),
        lineId ?? 0,
        { type: 'P', no: '3001', colourId: null },
        SYSTEM_CLOCK,
        [],
        null,
      );
      expect(await ended).toBe(0);
      expect(catalogueGeneration(db)).toBe(generation + 1);
      // Placed, remembered, and the twin line placed by the memory: all of it one step.
      expect(placed.line.placed).toMatchObject({ type: 'P', no: '3001' });
      expect(placed.remembered.item).toBe('added');
      expect(placed.others.placed).toBe(1);
      expect(linePlacementNow(db, twin ?? 0).columns).toMatchObject({ item_no: '3001', placed_by: 'remembered' });
      expect(nextUndo(db, thisComputer())?.id).toBe(placed.step.id);
      undo(writeSession(db), SYSTEM_CLOCK, placed.step.id);
      for (const id of [lineId ?? 0, twin ?? 0]) expect(linePlacementNow(db, id).columns.item_no).toBeNull();
      expect(db.prepare('SELECT count(*) FROM hand_placement').pluck().get()).toBe(0);
    });
});
