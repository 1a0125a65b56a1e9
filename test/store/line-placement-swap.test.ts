/**
 * A hand placement's write under the writer lock (issue 46, point 5): on a server the line's placement is
 * written and its old values read in one statement, only while the catalogue is as the placement's facts
 * were read; on a file (no round trips to save) never — the caller reads, then writes.
 */
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { openStore } from '../../src/store/open.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { linePlacementNow, replaceLinePlacement } from '../../src/store/lines.ts';
import { bumpCatalogueGeneration, catalogueGeneration } from '../../src/store/settings.ts';
import { csv, file } from '../helpers/documents.ts';
import { describeEachStore, newStoreLocation, storeKind } from '../helpers/stores.ts';

describeEachStore('a line placement swapped in one statement', () => {
  it('writes and gives the old values while the generation holds; a moved one writes nothing', async () => {
    const location = newStoreLocation();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    const db = store.db;
    await loadCatalogue(
      db,
      location,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) }],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    confirmImport(db, { file: file('one.csv', csv(['number', 'quantity'], [['x1', 1]])) }, SYSTEM_CLOCK);
    const lineId = db.prepare('SELECT id FROM order_line').pluck().get() as number;
    const before = linePlacementNow(db, lineId).columns;
    const placed = { item_type: 'P', item_no: '3001', colour_id: null, placed_by: 'hand', unplaced_reason: null };
    const generation = catalogueGeneration(db);
    const write = (at: number) => db.transaction(() => replaceLinePlacement(db, lineId, placed, at)).immediate();
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
});
