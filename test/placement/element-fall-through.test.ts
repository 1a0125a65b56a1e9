import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { planImport } from '../../src/documents/import.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, csv, file } from '../helpers/documents.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';
import { serviceFor } from '../helpers/service.ts';
import type { CallName, LineRowView, PlaceResultView, SuggestionsView } from '../../src/api/contract.ts';

/**
 * Issue 43, point 5: an element id whose first table (BrickLink's codes) names a number the catalogue
 * lacks, or several, is placed by the next table (Rebrickable's elements) where that names one part.
 */
/** Each planned line: its number and where it is placed (item/colour, and how), or why not. */
function placements(plan: ReturnType<typeof planImport>): unknown[] {
  return (plan.documents[0]?.lines ?? []).map((l) => {
    const p = l.placement;
    return p.item === null
      ? [l.given.no, p.reason]
      : [l.given.no, `${p.item.no}/${p.colourId}`, 'via' in p ? p.via : null];
  });
}

/** A new store, and how a test loads a catalogue file made of text into it. */
async function newStore() {
  const path = newStoreLocation();
  const store = await openStore(path);
  onTestFinished(() => store.close());
  const load = (name: string, text: string) =>
    loadCatalogue(store.db, path, [{ name, content: bytes(text) }], {
      type: null,
      me: identityOf(),
      clock: SYSTEM_CLOCK,
    });
  return { store, path, load };
}

describeEachStore('element ids: the next table decides (issue 43, point 5)', () => {
  it("places 9327 on Rebrickable's 970c27 and 379401 on 15573, and says so of an element no table places", async () => {
    const { store, load } = await newStore();
    await load(
      'parts.csv',
      files.rebrickableParts([
        { no: '970c27', name: 'Hips and Legs with Black Boots' },
        { no: '3794a', name: 'Plate Special 1 x 2 with 1 Stud without Groove' },
        { no: '3794b', name: 'Plate Special 1 x 2 with 1 Stud with Groove' },
        { no: '15573', name: 'Plate Special 1 x 2 with 1 Stud with Groove and Inside Stud Holder' },
      ]),
    );
    await load('colors.txt', files.bricklinkColoursTab([{ id: 1, name: 'White' }]));
    await load(
      'colors.json',
      files.rebrickableColourTable([{ id: 15, name: 'White', bricklink: { id: 1, name: 'White' } }]),
    );
    // BrickLink files 9327 under 970c00 (not in this catalogue) and 379401 under both 3794a and 3794b.
    await load(
      'codes.txt',
      files.bricklinkCodes([
        { no: '970c00', colour: 'White', element: '9327' },
        { no: '3794a', colour: 'White', element: '379401' },
        { no: '3794b', colour: 'White', element: '379401' },
      ]),
    );
    await load(
      'elements.csv',
      files.rebrickableElements([
        { element: '9327', part: '970c27', colour: 15 },
        { element: '379401', part: '15573', colour: 15 },
      ]),
    );
    const list = csv(
      ['elementId', 'quantity'],
      [
        ['9327', 1],
        ['379401', 2],
        ['4580964', 1],
      ],
    );
    const plan = planImport(store.db, { file: file('pab.csv', list) });
    expect(placements(plan)).toEqual([
      ['9327', '970c27/1', 'element 9327'],
      ['379401', '15573/1', 'element 379401'],
      ['4580964', 'The element id is not known'],
    ]);
  });

  it("an element-id line's suggestions start from the element; search finds it; a hand fix keeps its colour, and so does its memory", async () => {
    const { store, path, load } = await newStore();
    await load(
      'Parts.txt',
      files.bricklinkItemsTab([
        { no: '4162', name: 'Tile 1 x 8' },
        { no: '970c00', name: 'Hips and Legs' },
        { no: '970c00pb01', name: 'Hips and Legs with Belt Print' },
      ]),
    );
    await load(
      'colors.txt',
      files.bricklinkColoursTab([
        { id: 1, name: 'White' },
        { id: 11, name: 'Black' },
      ]),
    );
    // BrickLink files element 4162916 under both legs: not placed, but the legs lead its suggestions.
    await load(
      'codes.txt',
      files.bricklinkCodes([
        { no: '970c00', colour: 'Black', element: '4162916' },
        { no: '970c00pb01', colour: 'Black', element: '4162916' },
      ]),
    );
    const service = serviceFor(store.db, path);
    const call = async <T>(name: CallName, args: object): Promise<T> => {
      const r = (await service.call(name, args)) as { ok: true; value: T } | { ok: false; error: unknown };
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
      return r.value;
    };
    const list = (rows: (string | number)[][]) => file('pab.csv', csv(['elementId', 'quantity'], rows));
    const [first] = await call<{ order: { id: number } }[]>('import.confirm', { file: list([['4162916', 2]]) });
    const [line] = await call<LineRowView[]>('lines.list', { orderId: first?.order.id });
    expect(line?.reason?.code).toBe('element-not-known');
    const suggested = await call<SuggestionsView>('lines.suggest', { lineId: line?.id, limit: 3 });
    // Never 4162 Tile 1 x 8 first, as the digits' prefix would have it.
    expect(suggested.suggestions.slice(0, 2).map((x) => `${x.no}:${x.related ?? x.rule}`)).toEqual([
      '970c00:element',
      '970c00pb01:element',
    ]);
    expect(suggested.suggestions.map((x) => x.no)).not.toContain('4162');
    // The search box finds the element too.
    const searched = await call<SuggestionsView>('catalogue.search', { query: '4162916', limit: 3 });
    expect(searched.suggestions[0]).toMatchObject({ no: '970c00', related: 'element' });

    // Fixed by hand with no colour chosen: the element's colour on that item (Black), not none.
    const placed = await call<PlaceResultView>('lines.place', {
      lineId: line?.id,
      type: 'P',
      no: '970c00',
      colourId: null,
    });
    expect(placed.line.placed).toMatchObject({ no: '970c00', colour: 11 });
    // A later list with the same element: the memory places it, in the element's colour.
    const [second] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: { ...list([['4162916', 5]]), name: 'pab-2.csv' },
    });
    const [again] = await call<LineRowView[]>('lines.list', { orderId: second?.order.id });
    expect(again?.placed).toMatchObject({ no: '970c00', colour: 11, by: 'remembered' });
  });

  it("a BrickStore Pick a Brick file's remark names the element id that places a lot its number can't (ADR 0030)", async () => {
    const { store, load } = await newStore();
    await load('parts.csv', files.rebrickableParts([{ no: '32002', name: 'Technic Pin 3/4' }]));
    await load('colors.txt', files.bricklinkColoursTab([{ id: 86, name: 'Light Bluish Gray' }]));
    await load('codes.txt', files.bricklinkCodes([{ no: '32002', colour: 'Light Bluish Gray', element: '4211050' }]));
    const doc = bsx([
      {
        no: '32002x',
        colour: 86,
        qty: 5,
        remarks:
          'PAB Element ID, Design ID, Color - Itemname: 4211050, 32002, DARK STONE GREY - 1 1/2 M Connecting Bush',
      },
      // Any other remark is not read for numbers.
      { no: '32002y', colour: 86, qty: 1, remarks: 'bin 4211050, 32002' },
    ]);
    const plan = planImport(store.db, { file: file('PAB.bsx', doc) });
    expect(placements(plan)).toEqual([
      // BrickLink's codes name BrickLink's 32002; the catalogue has Rebrickable's, and no table ties the two.
      ['32002x', '32002/86', "element 4211050 (same number in Rebrickable's numbering)"],
      ['32002y', 'The BrickLink number is not in the catalogue'],
    ]);
  });
});
