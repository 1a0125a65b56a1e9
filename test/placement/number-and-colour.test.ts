/**
 * Issue 60: a number means what its numbering means. A BrickLink number is translated with its colour
 * through the element tables before the same text is taken in a catalogue of Rebrickable's numbers; a
 * memory holds what staff taught, in the colours its item is made in; an element id beside a number that
 * disagrees decides, saying both; a reason names the document's numbering. On fixtures made here, shaped
 * like the real tables (BrickLink's `970c00` hips and legs is a different Rebrickable item in each colour).
 */
import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { itemNumbers } from '../../src/catalogue/item-numbers.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { reasonOf } from '../../src/vocabulary/reasons.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, csv, file, orderXml } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

const options = { type: 'P' as const, me: identityOf(), clock: SYSTEM_CLOCK };

/** BrickLink's colour ids, and Rebrickable's for the same colours. */
const SAND_BLUE = 55;
const BLACK = 11;
const RED = 5;
const ORANGE = 4;
const DARK_AZURE = 153;
const BLUE = 7;
const COLOURS = [
  { id: SAND_BLUE, name: 'Sand Blue', rebrickable: 379 },
  { id: BLACK, name: 'Black', rebrickable: 0 },
  { id: RED, name: 'Red', rebrickable: 4 },
  { id: ORANGE, name: 'Orange', rebrickable: 25 },
  { id: DARK_AZURE, name: 'Dark Azure', rebrickable: 321 },
  { id: BLUE, name: 'Blue', rebrickable: 1 },
];
const rb = (id: number) => COLOURS.find((c) => c.id === id)?.rebrickable ?? -1;

/** Rebrickable's parts: its 970c04 is not BrickLink's 970c04 (orange legs are Rebrickable's 970c34). */
const PARTS = [
  { no: '970c24', name: 'Hips and Sand Blue Legs' },
  { no: '970c03', name: 'Hips and Black Legs' },
  { no: '970c22', name: 'Hips and Red Legs' },
  { no: '970c34', name: 'Hips and Orange Legs' },
  { no: '970c04', name: 'Hips and Dark Azure Legs' },
  { no: '3001', name: 'Brick 2 x 4' },
  { no: '3003', name: 'Brick 2 x 2' },
  { no: '3001b', name: 'Brick 2 x 4 without Cross Supports' },
  { no: '2454a', name: 'Brick 1 x 2 x 5 with Solid Stud' },
  { no: '2454b', name: 'Brick 1 x 2 x 5 with Hollow Stud' },
];

/** One LEGO element per (BrickLink number, colour), and the Rebrickable part and colour it is. */
const ELEMENTS = [
  { element: '4267425', bl: '970c00', colour: SAND_BLUE, rb: '970c24' },
  { element: '4267400', bl: '970c00', colour: BLACK, rb: '970c03' },
  { element: '4267421', bl: '970c00', colour: RED, rb: '970c22' },
  { element: '4267404', bl: '970c00', colour: ORANGE, rb: '970c34' },
  { element: '9700411', bl: '970c04', colour: BLACK, rb: '970c34' },
  { element: '300121', bl: '3001', colour: RED, rb: '3001' },
  { element: '300126', bl: '3001', colour: BLACK, rb: '3001' },
  // 3001's other mould, made in Blue, which 3001 is not.
  { element: '300123', bl: '3001b', colour: BLUE, rb: '3001b' },
  // BrickLink files both moulds under 2454: in Red the tables can't tell which.
  { element: '245421', bl: '2454', colour: RED, rb: '2454a' },
  { element: '4212414', bl: '2454', colour: RED, rb: '2454b' },
  { element: '245426', bl: '2454', colour: BLACK, rb: '2454b' },
];
const name = (id: number) => COLOURS.find((c) => c.id === id)?.name ?? '';

const TABLES = [
  { name: 'colors.txt', content: bytes(files.bricklinkColoursTab(COLOURS)) },
  {
    name: 'codes.txt',
    content: bytes(
      files.bricklinkCodes(ELEMENTS.map((e) => ({ no: e.bl, colour: name(e.colour), element: e.element }))),
    ),
  },
  {
    name: 'elements.csv',
    content: bytes(
      files.rebrickableElements(ELEMENTS.map((e) => ({ element: e.element, part: e.rb, colour: rb(e.colour) }))),
    ),
  },
  {
    name: 'part_relationships.csv',
    content: bytes(files.rebrickableRelationships([{ type: 'M', child: '3001b', parent: '3001' }])),
  },
  {
    name: 'colors.json',
    content: bytes(
      files.rebrickableColourTable(
        COLOURS.map((c) => ({ id: c.rebrickable, name: c.name, bricklink: { id: c.id, name: c.name } })),
      ),
    ),
  },
];

async function storeWith(tables = true) {
  const storePath = newStoreLocation();
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  await loadCatalogue(
    store.db,
    storePath,
    [{ name: 'parts.csv', content: bytes(files.rebrickableParts(PARTS)) }, ...(tables ? TABLES : TABLES.slice(0, 1))],
    options,
  );
  return { db: store.db, storePath };
}

type Plan = ReturnType<typeof planImport>;
/** Each line: its number and colour, where it is placed (number/colour) and how, or why not. */
const placed = (p: Plan) =>
  (p.documents[0]?.lines ?? []).map((l) =>
    l.placement.item === null
      ? [`${l.given.no}/${l.given.colourId}`, null, reasonOf(l.placement.reason)?.code ?? null]
      : [
          `${l.given.no}/${l.given.colourId}`,
          `${l.placement.item.no}/${l.placement.colourId}`,
          'via' in l.placement ? (l.placement.via ?? null) : null,
        ],
  );

const order = (lines: { no: string; colour: number }[], id = '1001') =>
  file(`order-${id}.xml`, orderXml([{ id, seller: 'shop', lines: lines.map((l) => ({ ...l, qty: 1 })) }]));

describeEachStore('a number and its colour are translated together (issue 60 §1)', () => {
  it("BrickLink's 970c00 in four colours is four Rebrickable items, each saying how", async () => {
    const { db } = await storeWith();
    const plan = planImport(db, {
      file: order([SAND_BLUE, BLACK, RED, ORANGE].map((colour) => ({ no: '970c00', colour }))),
    });
    expect(placed(plan)).toEqual([
      ['970c00/55', '970c24/55', 'BrickLink 970c00 in Sand Blue = Rebrickable 970c24 (element 4267425)'],
      ['970c00/11', '970c03/11', 'BrickLink 970c00 in Black = Rebrickable 970c03 (element 4267400)'],
      ['970c00/5', '970c22/5', 'BrickLink 970c00 in Red = Rebrickable 970c22 (element 4267421)'],
      ['970c00/4', '970c34/4', 'BrickLink 970c00 in Orange = Rebrickable 970c34 (element 4267404)'],
    ]);
  });

  it('a BrickLink number whose text is another Rebrickable item goes where the tables say, and the same text only says so', async () => {
    const { db } = await storeWith();
    const plan = planImport(db, {
      file: order([
        // The tables give BrickLink's 970c04 in Black as Rebrickable's 970c34: not Rebrickable's 970c04.
        { no: '970c04', colour: BLACK },
        // In a colour they don't list, the number alone: its elements are Rebrickable's 970c34's.
        { no: '970c04', colour: DARK_AZURE },
        // In a colour they list, confirming the same number: no word needed.
        { no: '3001', colour: RED },
        // Nothing says anything of 3003: the same text, and the placement says what was assumed.
        { no: '3003', colour: BLUE },
      ]),
    });
    expect(placed(plan)).toEqual([
      ['970c04/11', '970c34/11', 'BrickLink 970c04 in Black = Rebrickable 970c34 (element 9700411)'],
      ['970c04/153', '970c34/153', 'BrickLink 970c04 = Rebrickable 970c34 (same elements)'],
      ['3001/5', '3001/5', null],
      ['3003/7', '3003/7', "same number in Rebrickable's numbering"],
    ]);
  });

  it('a list in Rebrickable’s own numbers is read as they are, and its unknown number says Rebrickable', async () => {
    const { db } = await storeWith();
    const list = csv(
      ['Part', 'Color', 'Quantity'],
      [
        ['970c04', 321, 1],
        ['9999zz', 0, 1],
      ],
    );
    const plan = planImport(db, { file: file('rebrickable.csv', list) });
    expect(plan.documents[0]?.parsed.format).toBe('rebrickable-csv');
    expect(plan.documents[0]?.lines.map((l) => [l.placement.item?.no ?? null, l.placement.reason])).toEqual([
      ['970c04', null],
      [null, 'The Rebrickable number is not in the catalogue'],
    ]);
    expect(reasonOf(plan.documents[0]?.lines[1]?.placement.reason ?? null)?.code).toBe('number-not-in-catalogue');
  });

  it("an LDraw model's unknown part says LDraw, with the same code", async () => {
    const { db } = await storeWith();
    const model = ['0 Name: m.ldr', '1 4 0 0 0 1 0 0 0 1 0 0 0 1 99999zz.dat', ''].join('\r\n');
    const plan = planImport(db, { file: file('m.ldr', model) });
    const line = plan.documents[0]?.lines[0];
    expect(line?.placement.reason).toBe('The LDraw number is not in the catalogue');
    expect(reasonOf(line?.placement.reason ?? null)?.code).toBe('number-not-in-catalogue');
  });

  it('an element id beside a number that disagrees decides, and the line says both, in the preview and the lines view', async () => {
    const { db, storePath } = await storeWith();
    // BrickStore's Pick a Brick files: BrickLink's number and colour beside LEGO's element id.
    const remark = (element: string) => `PAB Element ID, Design ID, Color - Itemname: ${element}, 970, BLACK - Hips`;
    const doc = bsx([
      // The element is BrickLink's 970c00 in Black (Rebrickable 970c03); BrickStore wrote Sand Blue.
      { no: '970c00', colour: SAND_BLUE, qty: 3, remarks: remark('4267400') },
      // They agree: as ever.
      { no: '970c00', colour: RED, qty: 1, remarks: remark('4267421') },
    ]);
    const plan = planImport(db, { file: file('PAB.bsx', doc) });
    expect(placed(plan)).toEqual([
      ['970c00/55', '970c03/11', 'element 4267400 = 970c03 in Black; the line said 970c00 in Sand Blue'],
      ['970c00/5', '970c22/5', 'BrickLink 970c00 in Red = Rebrickable 970c22 (element 4267421)'],
    ]);
    const [imported] = confirmImport(writeSession(db), { file: file('PAB.bsx', doc) }, SYSTEM_CLOCK);
    const lines = await serviceFor(db, storePath).call('lines.list', { orderId: imported?.order.id ?? 0 });
    expect(lines).toMatchObject({
      ok: true,
      value: [
        {
          placed: {
            no: '970c03',
            colour: BLACK,
            via: 'element 4267400 = 970c03 in Black; the line said 970c00 in Sand Blue',
          },
        },
        { placed: { no: '970c22', colour: RED } },
      ],
    });
  });

  it('lines saved before the element tables are placed on their colour’s item when they load, and say how', async () => {
    const { db, storePath } = await storeWith(false);
    const [imported] = confirmImport(
      writeSession(db),
      {
        file: order(
          [SAND_BLUE, BLACK].map((colour) => ({ no: '970c00', colour })),
          '1002',
        ),
      },
      SYSTEM_CLOCK,
    );
    expect(imported?.lines.unplaced).toBe(2);
    await loadCatalogue(db, storePath, TABLES.slice(1), options);
    const lines = await serviceFor(db, storePath).call('lines.list', { orderId: imported?.order.id ?? 0 });
    expect(lines).toMatchObject({
      ok: true,
      value: [
        {
          placed: {
            no: '970c24',
            colour: SAND_BLUE,
            via: 'BrickLink 970c00 in Sand Blue = Rebrickable 970c24 (element 4267425)',
          },
        },
        { placed: { no: '970c03', colour: BLACK } },
      ],
    });
  });
});

describeEachStore('what the tables cannot settle leads the suggestions (issue 60 §1)', () => {
  it("BrickLink's 2454 in Red is two Rebrickable moulds: unplaced, the two first among its suggestions; in Black, one", async () => {
    const { db, storePath } = await storeWith();
    const [imported] = confirmImport(
      writeSession(db),
      {
        file: order(
          [RED, BLACK].map((colour) => ({ no: '2454', colour })),
          '4001',
        ),
      },
      SYSTEM_CLOCK,
    );
    const service = serviceFor(db, storePath);
    const lines = await service.call('lines.list', { orderId: imported?.order.id ?? 0 });
    if (!lines.ok) throw new Error(lines.error.message);
    expect(lines.value.map((l) => [l.placed?.no ?? null, l.reason?.code ?? null])).toEqual([
      [null, 'number-not-in-catalogue'],
      ['2454b', null],
    ]);
    const suggested = await service.call('lines.suggest', { lineId: lines.value[0]?.id ?? 0, limit: 5 });
    if (!suggested.ok) throw new Error(suggested.error.message);
    const { suggestions } = suggested.value;
    expect(suggestions.slice(0, 2).map((x) => [x.no, x.rule, x.related])).toEqual([
      ['2454a', 'related', 'element'],
      ['2454b', 'related', 'element'],
    ]);
  });
});

describeEachStore('a fix is remembered for what was taught (issue 60 §2)', () => {
  it('a memory taught in Sand Blue does not place Black and Red: the element tables do', async () => {
    // The worker's fix comes first, with no element tables: every 970c00 is unplaced.
    const { db, storePath } = await storeWith(false);
    const front = writeSession(db, 'front');
    const service = serviceFor(db, storePath, { desk: 'front' });
    const [first] = confirmImport(front, { file: order([{ no: '970c00', colour: SAND_BLUE }], '2001') }, SYSTEM_CLOCK);
    const listed = await service.call('lines.list', { orderId: first?.order.id ?? 0 });
    if (!listed.ok) throw new Error(listed.error.message);
    const lineId = listed.value[0]?.id ?? 0;
    const fixed = await service.call('lines.place', { lineId, type: 'P', no: '970c24', colourId: null });
    expect(fixed).toMatchObject({ ok: true, value: { remembered: { item: 'added' } } });

    // Without the tables, the memory places 970c00 in the colour it was taught in, and says so.
    const taught = placed(planImport(db, { file: order([{ no: '970c00', colour: SAND_BLUE }], '2002') }));
    expect(taught[0]?.[1]).toBe('970c24/55');
    expect(taught[0]?.[2]).toMatch(/^remembered — 970c00 in Sand Blue → 970c24, desk "front", \d{1,2} \w{3} \d{4}$/);

    // The tables loaded: Black and Red are their own items, and Sand Blue stays where it was taught.
    await loadCatalogue(db, storePath, TABLES.slice(1), options);
    const later = placed(
      planImport(db, {
        file: order(
          [BLACK, RED, SAND_BLUE].map((colour) => ({ no: '970c00', colour })),
          '2003',
        ),
      }),
    );
    expect(later.map((l) => l.slice(0, 2))).toEqual([
      ['970c00/11', '970c03/11'],
      ['970c00/5', '970c22/5'],
      ['970c00/55', '970c24/55'],
    ]);
    expect(later[0]?.[2]).toBe('BrickLink 970c00 in Black = Rebrickable 970c03 (element 4267400)');
    expect(later[2]?.[2]).toMatch(/^remembered — 970c00 in Sand Blue → 970c24/);
  });

  it('a fix of a number the catalogue has only in another numbering is remembered: later lines go where staff put them', async () => {
    // No tables: BrickLink's 970c04 lands on Rebrickable's 970c04, saying it was the same text.
    const { db, storePath } = await storeWith(false);
    const service = serviceFor(db, storePath);
    const [first] = confirmImport(
      writeSession(db),
      { file: order([{ no: '970c04', colour: DARK_AZURE }], '5001') },
      SYSTEM_CLOCK,
    );
    const listed = await service.call('lines.list', { orderId: first?.order.id ?? 0 });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.value[0]?.placed).toMatchObject({ no: '970c04', via: "same number in Rebrickable's numbering" });
    // The worker knows better: BrickLink's 970c04 is Rebrickable's 970c34. Across numberings, that is remembered.
    const fixed = await service.call('lines.place', {
      lineId: listed.value[0]?.id ?? 0,
      type: 'P',
      no: '970c34',
      colourId: null,
    });
    expect(fixed).toMatchObject({ ok: true, value: { remembered: { item: 'added' } } });
    const later = placed(planImport(db, { file: order([{ no: '970c04', colour: DARK_AZURE }], '5002') }));
    expect(later[0]?.slice(0, 2)).toEqual(['970c04/153', '970c34/153']);
    expect(later[0]?.[2]).toMatch(/^remembered — 970c04 in Dark Azure → 970c34/);
  });

  it('a memory places another colour only where its item is made in it; else the line names the memory, which can be forgotten from it', async () => {
    const { db, storePath } = await storeWith();
    const front = writeSession(db, 'front');
    const service = serviceFor(db, storePath, { desk: 'front' });
    // x3001 is no number of any table: taught in Red onto 3001, which the tables make in Red and Black.
    const [first] = confirmImport(front, { file: order([{ no: 'x3001', colour: RED }], '3001') }, SYSTEM_CLOCK);
    const listed = await service.call('lines.list', { orderId: first?.order.id ?? 0 });
    if (!listed.ok) throw new Error(listed.error.message);
    const lineId = listed.value[0]?.id ?? 0;
    expect(await service.call('lines.place', { lineId, type: 'P', no: '3001', colourId: null })).toMatchObject({
      ok: true,
    });

    const [later] = confirmImport(
      front,
      {
        file: order(
          [RED, BLACK, BLUE].map((colour) => ({ no: 'x3001', colour })),
          '3002',
        ),
      },
      SYSTEM_CLOCK,
    );
    const shown = await service.call('lines.list', { orderId: later?.order.id ?? 0 });
    expect(shown).toMatchObject({
      ok: true,
      value: [
        {
          placed: {
            no: '3001',
            colour: RED,
            via: expect.stringMatching(/^remembered — x3001 in Red → 3001, desk "front"/),
          },
        },
        // Made in Black: the memory places it, and says from what it was taught.
        { placed: { no: '3001', colour: BLACK, via: expect.stringMatching(/^remembered — x3001 in Red → 3001/) } },
        // Not made in Blue: unplaced, naming the memory and the colour.
        {
          placed: null,
          reason: { code: 'remembered-not-in-colour', text: 'The remembered item is not made in this colour' },
          memory: { type: 'P', no: '3001', taught: expect.stringMatching(/^remembered — x3001 in Red → 3001/) },
        },
      ],
    });
    if (!shown.ok) throw new Error(shown.error.message);
    // Its suggestions begin with what the tables make in Blue: 3001's other mould.
    const suggested = await service.call('lines.suggest', { lineId: shown.value[2]?.id ?? 0, limit: 5 });
    if (!suggested.ok) throw new Error(suggested.error.message);
    expect(suggested.value.suggestions[0]?.no).toBe('3001b');
    const memory = shown.value[1]?.memory;
    expect(memory?.id).toBeGreaterThan(0);
    // Forgetting it from the line: later imports no longer use it; the lines it placed stay placed.
    expect(
      await service.call('placements.forget', { kind: 'item', id: memory?.id ?? 0, seen: { type: 'P', no: '3001' } }),
    ).toMatchObject({ ok: true });
    expect(placed(planImport(db, { file: order([{ no: 'x3001', colour: BLACK }], '3003') }))[0]?.[2]).toBe(
      'number-not-in-catalogue',
    );
    // The line it placed stays placed, saying what placed it; the line it refused is placed again with it.
    expect(await service.call('lines.list', { orderId: later?.order.id ?? 0 })).toMatchObject({
      ok: true,
      value: [
        {},
        {
          placed: {
            no: '3001',
            colour: BLACK,
            via: 'remembered — x3001 → 3001 (a placement since forgotten or changed)',
          },
        },
        { placed: null, reason: { code: 'number-not-in-catalogue' }, memory: null },
      ],
    });
  });
});

describeEachStore(
  "an item's numbers (SPEC §5): a number an element table lists is known only where its elements do not say otherwise",
  () => {
    it("Rebrickable's own 970c04 is not BrickLink's 970c04, which the tables give as Rebrickable's 970c34", async () => {
      const { db } = await storeWith();
      const numbers = itemNumbers(db, [
        { type: 'P', no: '970c04' },
        { type: 'P', no: '970c34' },
      ]);
      expect(numbers.get('P', '970c04').bricklink).toBeNull();
      expect(numbers.get('P', '970c04').known.bricklink).toEqual([]);
      expect(numbers.get('P', '970c34').known.bricklink).toContain('970c04');
    });
  },
);
