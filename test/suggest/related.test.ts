import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { LineRowView, SuggestionsView } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { openStore } from '../../src/store/open.ts';
import { SuggestIndex } from '../../src/suggest/index.ts';
import { bytes, files, TABLES } from '../helpers/catalogue-files.ts';
import { csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** Issue 24, point 5: related parts lead the suggestions by number; letter variants come before mere prefixes. */

const PARTS = [
  { no: '3794a', name: 'Plate, Modified 1 x 2 with 1 Stud without Groove' },
  { no: '3794b', name: 'Plate, Modified 1 x 2 with 1 Stud with Groove' },
  { no: '37940', name: 'Something Else' },
  { no: '3024', name: 'Plate 1 x 1' },
  { no: '30240', name: 'Some Part' },
  { no: '60475b', name: 'Brick, Modified 1 x 1 with Clip Horizontal' },
  { no: '2453a', name: 'Brick 1 x 1 x 5 with Solid Stud' },
  { no: '2453b', name: 'Brick 1 x 1 x 5 with Hollow Stud' },
  { no: '2453stk01', name: 'Sticker Sheet for Set 2453-1' },
  { no: '2453stk02', name: 'Sticker Sheet for Set 2453-2' },
  { no: '3069', name: 'Tile 1 x 2' },
];

describeEachStore('suggestions by number (issue 24, point 5)', () => {
  it("offer the same number's letter variants before numbers that merely start the same", () => {
    const index = new SuggestIndex(PARTS.map((p) => ({ type: 'P' as const, ...p })));
    expect(index.byNumberPrefix('3794', 3).map((s) => s.no)).toEqual(['3794a', '3794b', '37940']);
    expect(index.byNumberPrefix('2453', 3).map((s) => s.no)).toEqual(['2453a', '2453b', '2453stk01']);
  });

  it('lead with the parts the relationship and translation tables tie to a number the catalogue lacks', async () => {
    const storePath = newStoreLocation();
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    const db = store.db;
    await loadCatalogue(
      db,
      storePath,
      [
        { name: 'parts.csv', content: bytes(files.rebrickableParts(PARTS)) },
        { name: 'part_relationships.csv', content: bytes(TABLES.relationships) },
        { name: 'part-crossrefs.ron', content: bytes(TABLES.crossrefs) },
      ],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    const service = serviceFor(db, storePath);
    const search = async (query: string) => {
      const r = await service.call('catalogue.search', { query, by: 'number', limit: 3 });
      if (!r.ok) throw new Error(r.error.message);
      const value = r.value as SuggestionsView;
      return value.suggestions.map((s) => `${s.rule}:${s.no}${s.related ? `(${s.related})` : ''}`);
    };
    // 30241 is an alternate of 60475b (Rebrickable's relationships): before 3024, which merely starts the same.
    expect(await search('30241')).toEqual(['related:60475b(alternate)', 'number:3024', 'number:30240']);
    // A print's plain part, reached through the cross-references (Rebrickable 3069b = BrickLink 3069).
    expect(await search('3069bpr0001')).toEqual(['related:3069(plain)']);
    // Moulds of one another: each leads the other's suggestions, then the letter variants.
    expect(await search('3794')).toEqual(['number:3794a', 'number:3794b', 'number:37940']);

    // The same for an unplaced line's own suggestions.
    const [r] = confirmImport(
      writeSession(db),
      { file: file('list.csv', csv(['Part', 'Quantity'], [['30241', 1]])) },
      SYSTEM_CLOCK,
    );
    const lines = await service.call('lines.list', { orderId: r?.order.id ?? 0 });
    if (!lines.ok) throw new Error(lines.error.message);
    const lineId = (lines.value as readonly LineRowView[])[0]?.id ?? 0;
    const suggested = await service.call('lines.suggest', { lineId, limit: 2 });
    expect(suggested).toMatchObject({
      ok: true,
      value: {
        suggestions: [
          { rule: 'related', no: '60475b', related: 'alternate' },
          { rule: 'number', no: '3024' },
        ],
      },
    });
  });
});
