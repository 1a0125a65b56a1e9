import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { CompareView } from '../../src/api/contract.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

const HEADER = ['number', 'name', 'quantity'];
const me = identityOf();

// Issue 61 §6: the service keeps the names a compare showed while the catalogue's generation holds; a load
// that renames an item shows the new name at the next compare.
describeEachStore('the names a compare shows', () => {
  it('are the catalogue’s as it is now: a compare after a load that renames an item shows its new name', async () => {
    const path = newStoreLocation();
    const store = await openStore(path);
    onTestFinished(() => store.close());
    const db = store.db;
    const parts = (name: string) => ({
      name: 'parts.csv',
      content: bytes(
        files.rebrickableParts([
          { no: '3001', name },
          { no: '3003', name: 'Brick 2 x 2' },
        ]),
      ),
    });
    await loadCatalogue(db, path, [parts('Brick 2 x 4')], { type: 'P', me, clock: SYSTEM_CLOCK });
    const [ordered] = confirmImport(
      writeSession(db),
      {
        file: file(
          'ordered.csv',
          csv(HEADER, [
            ['3001', 'Brick 2 x 4', 3],
            ['3003', 'Brick 2 x 2', 1],
          ]),
        ),
      },
      SYSTEM_CLOCK,
    );
    if (ordered === undefined) throw new Error('not imported');
    const service = serviceFor(db, path);
    const compare = async () => {
      const r = await service.call('compare.run', {
        left: { kind: 'order', orderId: ordered.order.id },
        right: { kind: 'file', file: file('arrived.csv', csv(HEADER, [['3001', 'Brick 2 x 4', 2]])) },
      });
      if (!r.ok) throw new Error(r.error.message);
      return r.value as CompareView;
    };
    const before = await compare();
    expect(before.quantityDiffers.map((r) => r.item?.name)).toEqual(['Brick 2 x 4']);
    expect(before.onlyLeft.map((r) => r.item?.name)).toEqual(['Brick 2 x 2']);
    // Asked again with nothing changed: the same names (now from what the service kept).
    expect((await compare()).quantityDiffers).toEqual(before.quantityDiffers);

    await loadCatalogue(db, path, [parts('Brick 2 x 4 with Bottom Tubes')], { type: 'P', me, clock: SYSTEM_CLOCK });
    const after = await compare();
    expect(after.quantityDiffers.map((r) => r.item?.name)).toEqual(['Brick 2 x 4 with Bottom Tubes']);
  });
});
