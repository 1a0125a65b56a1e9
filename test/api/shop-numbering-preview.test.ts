import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * Issue 64 §3: the import preview and the remembered placements show an item's number in the shop
 * numbering first, as the line table, Compare and the exports do: a shop selling on BrickLink with
 * Rebrickable's parts as its catalogue reads Rebrickable's 6141 as BrickLink's 4073.
 */
describeEachStore('the shop numbering in the preview and the memories (issue 64 §3)', () => {
  it('a preview line and a remembered placement read 4073 first, Rebrickable 6141 beside it', async () => {
    const path = newStoreLocation();
    const store = await openStore(path);
    onTestFinished(() => store.close());
    const load = (name: string, text: string) =>
      loadCatalogue(store.db, path, [{ name, content: bytes(text) }], {
        type: null,
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
    await load('parts.csv', files.rebrickableParts([{ no: '6141', name: 'Plate Round 1 x 1 with Solid Stud' }]));
    await load('part-crossrefs.ron', files.partCrossrefs([{ rebrickable: '6141', bricklink: ['4073'] }]));
    const service = serviceFor(store.db, path);
    const call = async <T>(name: string, args: object): Promise<T> => {
      const r = await service.call(name as never, args as never);
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      return r.value as T;
    };
    // A BrickLink-numbered list: its 4073 is placed on the catalogue's 6141; its x999 is fixed by hand onto it.
    const list = csv(
      ['BLItemNo', 'PartName', 'Qty'],
      [
        ['4073', 'Round plate', 2],
        ['x999', 'Odd round plate', 1],
      ],
    );
    type Preview = { documents: { lines: { placed: { no: string; shown?: string } | null }[] }[] };
    const preview = await call<Preview>('import.preview', { file: file('round.csv', list) });
    const placed = preview.documents[0]?.lines[0]?.placed;
    expect(placed?.no).toBe('6141');
    expect(placed?.shown).toBe('4073 (Rebrickable 6141)');

    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', { file: file('round.csv', list) });
    const lines = await call<{ id: number; placed: unknown }[]>('lines.list', { orderId: imported?.order.id });
    const odd = lines.find((l) => l.placed === null);
    await call('lines.place', { lineId: odd?.id, type: 'P', no: '6141', colourId: null, seen: null });
    const memories = await call<{ items: { item: { no: string; shown?: string } }[] }>('placements.list', {});
    expect(memories.items.map((m) => [m.item.no, m.item.shown])).toEqual([['6141', '4073 (Rebrickable 6141)']]);
  });
});
