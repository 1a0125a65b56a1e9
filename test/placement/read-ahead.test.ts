import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { catalogueLookup } from '../../src/placement/catalogue-lookup.ts';
import { elementRemark, placeItem, type GivenItem } from '../../src/placement/rule.ts';
import { reasonOf } from '../../src/vocabulary/reasons.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files, TABLES } from '../helpers/catalogue-files.ts';
import { insertHandPlacement, insertItem } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * A plan's look-ups, given the lines it will place (ADR 0027): on a server they are read ahead in a few
 * statements; on either store every line must be placed exactly as the lookup's own statements, asked
 * line by line, place it — by number in any case, by a memory of a number or a name, through the element
 * and part tables, by a unique name, and not by a name two items share.
 */
describeEachStore("a plan's look-ups read ahead", () => {
  it('place every line as the line-by-line look-ups do', async () => {
    const location = newStoreLocation();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    const db = store.db;
    await loadCatalogue(
      db,
      location,
      [
        {
          // BrickLink's numbers, from BrickLink's own download: the catalogue speaks BrickLink's numbering.
          name: 'Parts.txt',
          content: bytes(
            files.bricklinkItemsTab([
              { no: '3001', name: 'Brick 2 x 4' },
              { no: '4073', name: 'Plate, Round 1 x 1 Straight Side' },
              { no: '3069', name: 'Tile 1 x 2' },
              { no: '100662pb01', name: 'Tile Print A' },
              { no: '100662pb04', name: 'Tile Print B' },
            ]),
          ),
        },
        {
          name: 'colors.txt',
          content: bytes(
            files.bricklinkColoursTab([
              { id: 5, name: 'Red' },
              { id: 11, name: 'Black' },
            ]),
          ),
        },
        { name: 'codes.txt', content: bytes(TABLES.codes) },
        { name: 'elements.csv', content: bytes(TABLES.elements) },
        { name: 'colors.json', content: bytes(TABLES.colourTable) },
        { name: 'part-crossrefs.ron', content: bytes(TABLES.crossrefs) },
      ],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    insertItem(db, { no: '3005', name: 'Twin' });
    insertItem(db, { no: '3006', name: 'Twin' });
    insertHandPlacement(db, { givenNo: 'memo-1', item: { type: 'P', no: '3069' } });
    insertHandPlacement(db, { givenNo: null, name: 'Mystery Brick', item: { type: 'P', no: '3001' } });
    // Taught in Red (issue 60): in Black the element tables say nothing of 3001, in Red they make it.
    insertHandPlacement(db, {
      givenNo: 'memo-2',
      item: { type: 'P', no: '3001' },
      taught: { colourId: 5, desk: 'front' },
    });

    const line = (given: Partial<GivenItem>, remarks: string | null = null) => ({
      given: { type: null, no: null, name: null, colourId: null, colourName: null, ...given },
      remarks,
    });
    const lines = [
      line({ no: '3001', colourId: 5 }),
      line({ no: '100662PB01 ', colourId: 11 }),
      line({ type: 'p', no: 'MEMO-1' }),
      line({ name: 'mystery  brick' }),
      line({ no: '300121' }),
      line({ no: '6141', colourId: 11 }),
      line({ no: '100662pat0001pr0001' }),
      line({ no: '3001-ldraw' }, elementRemark('614126')),
      line({ name: 'Tile 1 x 2' }),
      line({ name: 'Twin' }),
      line({ no: 'nope-1', name: 'Twin' }),
      line({ no: 'nope-2', colourName: 'Rebrickable colour 70' }),
      line({ type: 'S', no: '3001' }),
      line({ type: 'Q', no: '3001' }),
      line({}),
      // Each line read in its document's numbering (issue 60): with its colour, a memory's teaching.
      line({ no: '3001', colourId: 5, numbering: 'rebrickable' }),
      line({ no: '6141', colourId: 11, numbering: 'rebrickable' }),
      line({ no: '3069', colourId: 11, numbering: 'rebrickable' }),
      line({ no: 'memo-2', colourId: 5, numbering: 'bricklink' }),
      line({ no: 'memo-2', colourId: 11, numbering: 'bricklink' }),
      line({ no: 'ghost', numbering: 'ldraw' }),
    ];
    const shown = (lookup: ReturnType<typeof catalogueLookup>) =>
      lines.map((l) => {
        const p = placeItem({ ...l.given, remarks: l.remarks }, lookup);
        return p.item === null
          ? [l.given.no ?? l.given.name, reasonOf(p.reason)?.code ?? p.reason]
          : [l.given.no ?? l.given.name, `${p.item.no}/${p.colourId}`, p.by, 'via' in p ? (p.via ?? null) : null];
      });

    const placed = shown(catalogueLookup(db, lines));
    expect(placed).toEqual(shown(catalogueLookup(db)));
    expect(placed).toEqual([
      ['3001', '3001/5', 'number', null],
      ['100662PB01 ', '100662pb01/11', 'number', null],
      ['MEMO-1', '3069/null', 'remembered', 'remembered — MEMO-1 → 3069, 1 Jan 2026'],
      ['mystery  brick', '3001/null', 'remembered', 'remembered — "mystery  brick" → 3001, 1 Jan 2026'],
      ['300121', '3001/5', 'number', 'element 300121'],
      ['6141', '4073/11', 'number', 'Rebrickable 6141 = BrickLink 4073'],
      ['100662pat0001pr0001', 'number-not-in-catalogue'],
      ['3001-ldraw', '4073/11', 'number', 'element 614126'],
      ['Tile 1 x 2', '3069/null', 'name', null],
      ['Twin', 'name-matches-several'],
      ['nope-1', 'name-matches-several'],
      ['nope-2', 'number-not-in-catalogue'],
      ['3001', 'number-not-in-catalogue'],
      ['3001', 'unknown-item-type'],
      [null, 'no-number-or-name'],
      ['3001', '3001/5', 'number', null],
      ['6141', '4073/11', 'number', 'Rebrickable 6141 = BrickLink 4073'],
      ['3069', '3069/11', 'number', "same number in BrickLink's numbering"],
      ['memo-2', '3001/5', 'remembered', 'remembered — memo-2 in Red → 3001, desk "front", 1 Jan 2026'],
      ['memo-2', 'remembered-not-in-colour'],
      ['ghost', 'number-not-in-catalogue'],
    ]);
  });
});
