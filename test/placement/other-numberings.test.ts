import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { openStore } from '../../src/store/open.ts';
import { reasonOf } from '../../src/vocabulary/reasons.ts';
import { bytes, files, TABLES } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { insertHandPlacement } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** Issue 24, point 2: placing a line through another numbering (SPEC §6 step 3). */

const options = { type: 'P' as const, me: identityOf(), clock: SYSTEM_CLOCK };

const COLOURS = files.bricklinkColoursTab([
  { id: 5, name: 'Red' },
  { id: 11, name: 'Black' },
  { id: 88, name: 'Reddish Brown' },
  { id: 7, name: 'Blue' },
]);

const ALL_TABLES = [
  { name: 'codes.txt', content: bytes(TABLES.codes) },
  { name: 'elements.csv', content: bytes(TABLES.elements) },
  { name: 'colors.json', content: bytes(TABLES.colourTable) },
  { name: 'part-crossrefs.ron', content: bytes(TABLES.crossrefs) },
  { name: 'part_relationships.csv', content: bytes(TABLES.relationships) },
];

/** A store whose catalogue speaks BrickLink's numbers (`bricklink`) or Rebrickable's (`rebrickable`). */
async function storeWith(numbering: 'bricklink' | 'rebrickable', tables = true) {
  const storePath = newStoreLocation();
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  const parts =
    numbering === 'bricklink'
      ? [
          { no: '3001', name: 'Brick 2 x 4' },
          { no: '4073', name: 'Plate, Round 1 x 1 Straight Side' },
          { no: '3069', name: 'Tile 1 x 2' },
          { no: '100662pb01', name: 'Tile Print A' },
          { no: '100662pb04', name: 'Tile Print B' },
        ]
      : [
          { no: '3001', name: 'Brick 2 x 4' },
          { no: '6141', name: 'Plate Round 1 x 1' },
          { no: '3069b', name: 'Tile 1 x 2 with Groove' },
        ];
  await loadCatalogue(
    store.db,
    storePath,
    [
      // Each numbering's own download: a catalogue speaks the numbering of the files it was loaded from.
      numbering === 'bricklink'
        ? { name: 'Parts.txt', content: bytes(files.bricklinkItemsTab(parts)) }
        : { name: 'parts.csv', content: bytes(files.rebrickableParts(parts)) },
      { name: 'colors.txt', content: bytes(COLOURS) },
      ...(tables ? ALL_TABLES : []),
    ],
    options,
  );
  return { db: store.db, storePath };
}

const placedOf = (p: ReturnType<typeof planImport>) =>
  (p.documents[0]?.lines ?? []).map((l) => {
    const placement = l.placement;
    return placement.item === null
      ? [l.given.no, null, reasonOf(placement.reason)?.code ?? null]
      : [l.given.no, `${placement.item.no}/${placement.colourId}`, 'via' in placement ? (placement.via ?? null) : null];
  });

describeEachStore('placing a line through another numbering (issue 24, point 2)', () => {
  it('a Pick a Brick list of element ids: each line on its item and colour, saying how', async () => {
    const { db } = await storeWith('bricklink');
    const pab = csv(
      ['elementId', 'quantity'],
      [
        ['300121', 4],
        ['614126', 2],
        // Only Rebrickable knows it: Rebrickable's 6141 in its colour 70 = BrickLink's 4073 in Reddish Brown.
        ['6141265', 1],
        ['999999', 1],
      ],
    );
    const p = planImport(db, { file: file('pab.csv', pab) });
    expect(p.refusal).toBeNull();
    expect(p.documents[0]?.parsed.reading.read).toEqual([
      { title: 'elementId', as: 'LEGO element id' },
      { title: 'quantity', as: 'quantity' },
    ]);
    expect(placedOf(p)).toEqual([
      ['300121', '3001/5', 'element 300121'],
      ['614126', '4073/11', 'element 614126'],
      ['6141265', '4073/88', 'element 6141265'],
      // An element id no table places says so (SPEC §6), not that a BrickLink number is missing.
      ['999999', null, 'element-not-known'],
    ]);
  });

  it('a number another numbering gives for one catalogue item places it, whichever numbering the catalogue speaks', async () => {
    const list = csv(
      ['Part', 'Name', 'Color ID', 'Qty'],
      [
        ['6141', 'Plate Round 1 x 1', 11, 2],
        ['4073', 'Plate Round 1 x 1', 11, 1],
        ['100662pat0001pr0001', 'Tile Print', 11, 1],
      ],
    );
    const bl = await storeWith('bricklink');
    expect(placedOf(planImport(bl.db, { file: file('list.csv', list) }))).toEqual([
      ['6141', '4073/11', 'Rebrickable 6141 = BrickLink 4073'],
      ['4073', '4073/11', null],
      // Two BrickLink prints for one Rebrickable number: not placed (they lead the suggestions).
      ['100662pat0001pr0001', null, 'number-not-in-catalogue'],
    ]);
    const rb = await storeWith('rebrickable');
    expect(placedOf(planImport(rb.db, { file: file('list.csv', list) })).slice(0, 2)).toEqual([
      ['6141', '6141/11', null],
      ['4073', '6141/11', 'BrickLink 4073 = Rebrickable 6141'],
    ]);
  });

  it("an element whose given colour disagrees is unplaced for its colour, named as the element's; a remembered hand placement in a colour its item is made in wins over the tables", async () => {
    const { db } = await storeWith('bricklink');
    insertHandPlacement(db, { givenNo: '614126', item: { type: 'P', no: '3001' } });
    const list = csv(
      ['Element ID', 'Color ID', 'Qty'],
      [
        ['300121', 11, 1],
        ['614126', 5, 1],
      ],
    );
    expect(placedOf(planImport(db, { file: file('list.csv', list) }))).toEqual([
      // Black is in the catalogue: the element is red, which is what the line is unplaced for.
      ['300121', null, 'colour-not-the-elements'],
      // The element tables make 3001 in Red: the memory places it, and says so.
      ['614126', '3001/5', 'remembered — 614126 → 3001, 1 Jan 2026'],
    ]);
  });

  it("Studio's Element ID beside its BrickLink number places a line the number can't (its LDraw id stays in the remarks)", async () => {
    const { db, storePath } = await storeWith('bricklink', false);
    // BrickLink Studio's parts list: its own number for a part BrickLink files otherwise, the element id beside it.
    const studio = csv(
      ['BLItemNo', 'ElementId', 'LdrawId', 'PartName', 'BLColorId', 'LDrawColorId', 'ColorName', 'Qty'],
      [
        ['3001old', '300121', '3001', 'Brick 2x4 (Studio)', 5, 4, 'Red', 2],
        ['4073', '614126', '4073', 'Plate Round 1 x 1', 11, 0, 'Black', 1],
        ['99999', '614126', '99999', 'Plate Round 1 x 1', 5, 4, 'Red', 1],
        ['88888', '', '88888', 'Something', 5, 4, 'Red', 1],
      ],
    );
    const before = planImport(db, { file: file('studio.csv', studio) });
    expect(before.documents[0]?.lines[0]?.remarks).toBe('LDraw 3001 · Element 300121');
    const [imported] = confirmImport(writeSession(db), { file: file('studio.csv', studio) }, SYSTEM_CLOCK);
    await loadCatalogue(db, storePath, ALL_TABLES, options);
    const after = planImport(db, { file: file('studio-again.csv', studio) });
    expect(placedOf(after)).toEqual([
      ['3001old', '3001/5', 'element 300121'],
      // The number the catalogue has places the line, as ever; its element agrees.
      ['4073', '4073/11', null],
      // The element is black 4073, the line says red 99999: the element decides, and the line says both (issue 60 §1).
      ['99999', '4073/11', 'element 614126 = 4073 in Black; the line said 99999 in Red'],
      ['88888', null, 'number-not-in-catalogue'],
    ]);
    // Lines saved before the tables were loaded are placed by the load, and say how.
    const service = serviceFor(db, storePath);
    expect(await service.call('lines.list', { orderId: imported?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [
        { placed: { no: '3001', colour: 5, via: 'element 300121' } },
        { placed: { no: '4073', colour: 11, via: null } },
        { placed: { no: '4073', colour: 11, via: 'element 614126 = 4073 in Black; the line said 99999 in Red' } },
        { placed: null },
      ],
    });
  });

  it('lines imported before the tables are placed when they load, and say how in the lines view and the CLI', async () => {
    const { db, storePath } = await storeWith('bricklink', false);
    const pab = csv(['elementId', 'quantity'], [['300121', 4]]);
    const [imported] = confirmImport(writeSession(db), { file: file('pab.csv', pab) }, SYSTEM_CLOCK);
    const service = serviceFor(db, storePath);
    expect(await service.call('lines.list', { orderId: imported?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [{ placed: null, reason: { code: 'element-not-known' } }],
    });
    const load = await loadCatalogue(db, storePath, ALL_TABLES, options);
    expect(load.placed).toBe(1);
    expect(await service.call('lines.list', { orderId: imported?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [{ placed: { no: '3001', colour: 5, colourName: 'Red', via: 'element 300121' }, reason: null }],
    });
    db.close();
    const r = await cliJson(['--db', storePath, 'lines', String(imported?.order.id)]);
    expect(r.json.lines[0].placed).toMatchObject({ no: '3001', colour: 5, via: 'element 300121' });
  });
});

describeEachStore('colours in any numbering or name (issue 24, point 3)', () => {
  it("with the colour table, a Rebrickable list keeps its colours, translated to BrickLink's, and says so", async () => {
    const { db } = await storeWith('bricklink');
    const list = csv(
      ['Part', 'Color', 'Quantity'],
      [
        ['3001', 4, 2],
        ['3001', 70, 1],
        // Rebrickable's Medium Brown: BrickLink has no such colour.
        ['3001', 1088, 1],
      ],
    );
    expect(placedOf(planImport(db, { file: file('rebrickable.csv', list) }))).toEqual([
      ['3001', '3001/5', 'Rebrickable colour 4 = BrickLink colour 5'],
      ['3001', '3001/88', 'Rebrickable colour 70 = BrickLink colour 88'],
      ['3001', null, 'colour-not-in-catalogue'],
    ]);
  });

  it("LEGO's and LDraw's colour names and numbers are translated too", async () => {
    const { db } = await storeWith('bricklink');
    const names = csv(
      ['Part No', 'Colour', 'Qty'],
      [
        ['3001', 'BR.RED', 1],
        ['3001', 'Bright Blue', 1],
        ['3001', 'Reddish_Brown', 1],
        ['3001', 'Red', 1],
      ],
    );
    expect(placedOf(planImport(db, { file: file('lego.csv', names) }))).toEqual([
      ['3001', '3001/5', 'colour BR.RED = BrickLink colour 5'],
      ['3001', '3001/7', 'colour Bright Blue = BrickLink colour 7'],
      ['3001', '3001/88', 'colour Reddish_Brown = BrickLink colour 88'],
      ['3001', '3001/5', null],
    ]);
    const ldraw = csv(['Part', 'LDraw Color', 'Qty'], [['3001', 70, 1]]);
    expect(placedOf(planImport(db, { file: file('ldraw.csv', ldraw) }))).toEqual([
      ['3001', '3001/88', 'LDraw colour 70 = BrickLink colour 88'],
    ]);
  });

  it("an unplaced line's colour in another numbering is named in the shop's words too (issue 47)", async () => {
    const { db, storePath } = await storeWith('bricklink');
    // A number the catalogue does not have, in Rebrickable's colour 4.
    const list = csv(['Part', 'Color', 'Quantity'], [['no-such-part', 4, 2]]);
    const [imported] = confirmImport(writeSession(db), { file: file('rebrickable.csv', list) }, SYSTEM_CLOCK);
    const service = serviceFor(db, storePath);
    expect(await service.call('lines.list', { orderId: imported?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [
        {
          given: { colourName: 'Rebrickable colour 4' },
          placed: null,
          givenColour: { name: 'Red' },
        },
      ],
    });
  });

  it('lines imported before the colour table are placed in their colour when it loads', async () => {
    const { db, storePath } = await storeWith('bricklink', false);
    const list = csv(['Part', 'Color', 'Quantity'], [['3001', 4, 2]]);
    const [imported] = confirmImport(writeSession(db), { file: file('rebrickable.csv', list) }, SYSTEM_CLOCK);
    const service = serviceFor(db, storePath);
    // Until then: placed, the colour shown by its Rebrickable name, not checked.
    expect(await service.call('lines.list', { orderId: imported?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [{ given: { colourName: 'Rebrickable colour 4' }, placed: { no: '3001', colour: null } }],
    });
    await loadCatalogue(db, storePath, [{ name: 'colors.json', content: bytes(TABLES.colourTable) }], options);
    expect(await service.call('lines.list', { orderId: imported?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [
        {
          placed: {
            no: '3001',
            colour: 5,
            colourName: 'Red',
            // A Rebrickable list against BrickLink's numbers: no table says 3001 is another part, and the
            // placement says what was assumed (SPEC §6 step 1).
            via: "same number in BrickLink's numbering; Rebrickable colour 4 = BrickLink colour 5",
          },
        },
      ],
    });
  });
});

describeEachStore('an element BrickLink files under several numbers', () => {
  it("is placed on the one Rebrickable's elements name too, else not placed", async () => {
    const storePath = newStoreLocation();
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    const parts = [
      { no: '2453a', name: 'Brick 1 x 1 x 5 with Solid Stud' },
      { no: '2453b', name: 'Brick 1 x 1 x 5 with Hollow Stud' },
    ];
    const codes = files.bricklinkCodes([
      { no: '2453a', colour: 'Red', element: '245321' },
      { no: '2453b', colour: 'Red', element: '245321' },
      { no: '2453a', colour: 'Black', element: '245326' },
      { no: '2453b', colour: 'Black', element: '245326' },
    ]);
    const elements = files.rebrickableElements([{ element: '245321', part: '2453b', colour: 4 }]);
    await loadCatalogue(
      store.db,
      storePath,
      [
        { name: 'parts.csv', content: bytes(files.rebrickableParts(parts)) },
        { name: 'colors.txt', content: bytes(COLOURS) },
        { name: 'codes.txt', content: bytes(codes) },
        { name: 'elements.csv', content: bytes(elements) },
        { name: 'colors.json', content: bytes(TABLES.colourTable) },
      ],
      options,
    );
    const pab = csv(
      ['elementId', 'quantity'],
      [
        ['245321', 1],
        ['245326', 1],
      ],
    );
    expect(placedOf(planImport(store.db, { file: file('pab.csv', pab) }))).toEqual([
      ['245321', '2453b/5', 'element 245321'],
      ['245326', null, 'element-not-known'],
    ]);
  });
});
