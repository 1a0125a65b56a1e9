import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { confirmImport, planImport, type ImportRequest, type PlannedDocument } from '../../src/documents/import.ts';
import { orderLines } from '../../src/store/lines.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, csv, file } from '../helpers/documents.ts';
import { insertColour, insertItem } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * Issue 60 §3: a list's colour numbering is read from the whole file (SPEC §8): the numbering whose table
 * agrees with clearly most of the lines whose number and name are both in a table; a number no table has
 * is placed by its name; a name that disagrees with its number is placed by the one rule the
 * acknowledgement states, line for line.
 */

/** BrickLink's colours as the catalogue has them: several are other colours under LDraw's numbers. */
const BRICKLINK_COLOURS: readonly [number, string][] = [
  [1, 'White'],
  [3, 'Yellow'],
  [4, 'Orange'],
  [5, 'Red'],
  [7, 'Blue'],
  [11, 'Black'],
  [12, 'Trans-Clear'],
  [14, 'Trans-Dark Blue'],
  [15, 'Trans-Light Blue'],
  [17, 'Trans-Red'],
  [20, 'Trans-Green'],
  [34, 'Lime'],
  [36, 'Bright Green'],
  [51, 'Trans-Purple'],
  [57, 'Chrome Antique Brass'],
  [71, 'Magenta'],
  [72, 'Maersk Blue'],
  [85, 'Dark Bluish Gray'],
  [86, 'Light Bluish Gray'],
  [98, 'Trans-Orange'],
  [126, 'Mx Charcoal Gray'],
];

/** The colour table: Rebrickable's colours with their LDraw and BrickLink ids. LDraw's 126 is not in it. */
const COLOUR_TABLE: readonly { rb: number; name: string; bl: number; ld: number; ldName: string }[] = [
  { rb: 0, name: 'Black', bl: 11, ld: 0, ldName: 'Black' },
  { rb: 15, name: 'White', bl: 1, ld: 15, ldName: 'White' },
  { rb: 4, name: 'Red', bl: 5, ld: 4, ldName: 'Red' },
  { rb: 1, name: 'Blue', bl: 7, ld: 1, ldName: 'Blue' },
  { rb: 14, name: 'Yellow', bl: 3, ld: 14, ldName: 'Yellow' },
  { rb: 71, name: 'Light Bluish Gray', bl: 86, ld: 71, ldName: 'Light_Bluish_Gray' },
  { rb: 72, name: 'Dark Bluish Gray', bl: 85, ld: 72, ldName: 'Dark_Bluish_Gray' },
  { rb: 34, name: 'Trans-Green', bl: 20, ld: 34, ldName: 'Trans_Green' },
  { rb: 36, name: 'Trans-Red', bl: 17, ld: 36, ldName: 'Trans_Red' },
  { rb: 182, name: 'Trans-Orange', bl: 98, ld: 57, ldName: 'Trans_Orange' },
  { rb: 52, name: 'Trans-Purple', bl: 51, ld: 52, ldName: 'Trans_Purple' },
  { rb: 47, name: 'Trans-Clear', bl: 12, ld: 47, ldName: 'Trans_Clear' },
];

const ITEMS: readonly [string, string][] = [
  ['3001', 'Brick 2 x 4'],
  ['3003', 'Brick 2 x 2'],
  ['3004', 'Brick 1 x 2'],
  ['3010', 'Brick 1 x 4'],
  ['3020', 'Plate 2 x 4'],
  ['3022', 'Plate 2 x 2'],
  ['3023', 'Plate 1 x 2'],
  ['3069b', 'Tile 1 x 2 with Groove'],
];

async function shopStore(options: { colourTable?: boolean } = {}) {
  const storePath = newStoreLocation();
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  const db = store.db;
  for (const [no, name] of ITEMS) insertItem(db, { no, name });
  for (const [id, name] of BRICKLINK_COLOURS) insertColour(db, { id, name });
  if (options.colourTable !== false) {
    const table = files.rebrickableColourTable(
      COLOUR_TABLE.map((c) => ({
        id: c.rb,
        name: c.name,
        bricklink: { id: c.bl, name: c.name },
        ldraw: { id: c.ld, name: c.ldName },
      })),
    );
    await loadCatalogue(db, storePath, [{ name: 'colors.json', content: bytes(table) }], {
      type: null,
      me: identityOf(),
      clock: SYSTEM_CLOCK,
    });
  }
  return { db };
}

function plan(db: Parameters<typeof planImport>[0], request: ImportRequest) {
  const p = planImport(db, request);
  const doc = p.documents[0];
  if (doc === undefined) throw new Error(`no document: ${JSON.stringify(p.refusal)}`);
  return { plan: p, doc };
}

/** The catalogue's colour of a name as the test knows it: BrickLink's id, names folded by hand. */
function colourOfName(name: string): number {
  const loose = (s: string) =>
    s
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .replace(/\bgrey\b/g, 'gray')
      .replace(/\btransparent\b/g, 'trans');
  const found = BRICKLINK_COLOURS.find(([, n]) => loose(n) === loose(name));
  if (found === undefined) throw new Error(`the test knows no colour ${name}`);
  return found[0];
}

/** What a colour number is in a numbering, as the test knows it: BrickLink's id, or null (not a colour there). */
function colourOfNumber(numbering: 'bricklink' | 'ldraw', n: number): number | null {
  if (numbering === 'ldraw') return COLOUR_TABLE.find((c) => c.ld === n)?.bl ?? null;
  return n !== 0 && BRICKLINK_COLOURS.some(([id]) => id === n) ? n : null;
}

const HEADER = ['BrickLink ID', 'Part Name', 'Color Code', 'Color Name', 'Quantity'];

/**
 * A published parts list in LDraw's numbering: seven Black lines coded 0, names spelled as LDraw, BrickLink
 * and people write them, and LDraw 126 "Trans Purple", which the colour table lacks.
 */
const LDRAW_LIST: readonly [string, number, string][] = [
  ['3001', 0, 'Black'],
  ['3003', 0, 'Black'],
  ['3004', 0, 'Black'],
  ['3010', 0, 'Black'],
  ['3020', 0, 'Black'],
  ['3022', 0, 'Black'],
  ['3023', 0, 'Black'],
  ['3001', 34, 'Trans Green'],
  ['3003', 36, 'Trans-Red'],
  ['3023', 57, 'TRANS ORANGE'],
  ['3069b', 126, 'Trans Purple'],
  ['3001', 4, 'Red'],
  ['3003', 1, 'Blue'],
  ['3023', 15, 'White'],
  ['3004', 14, 'Yellow'],
  ['3010', 71, 'Light Bluish Grey'],
  ['3020', 72, 'Dark_Bluish_Gray'],
  ['3022', 47, 'Transparent Clear'],
];

const listText = (lines: readonly [string, number, string][]) =>
  csv(
    HEADER,
    lines.map(([no, code, name], i) => [no, ITEMS.find(([n]) => n === no)?.[1] ?? '', code, name, i + 1]),
  );

/**
 * The acknowledgement's words against the placements, line for line: every line whose number (in the
 * numbering read) and name are two different colours is counted by the warning, and placed by the rule
 * it states; no other line is said to disagree.
 */
function expectWarningTrue(doc: PlannedDocument, lines: readonly [string, number, string][]): void {
  const numbering = doc.colourNumbering?.numbering === 'ldraw' ? 'ldraw' : 'bricklink';
  const disagreeing = lines.flatMap(([, code, name], i) => {
    const byNumber = colourOfNumber(numbering, code);
    return byNumber !== null && byNumber !== colourOfName(name) ? [i] : [];
  });
  const warning = doc.warnings.find((w) => w.code === 'colour-number-and-name-disagree');
  if (disagreeing.length === 0) {
    expect(warning).toBeUndefined();
    return;
  }
  const words = warning?.message ?? '';
  const count = disagreeing.length === 1 ? 'One line gives' : `${disagreeing.length} lines give`;
  expect(words.startsWith(count), words).toBe(true);
  const rule = /placed by the (name|number)/.exec(words)?.[1];
  expect(rule).toBeDefined();
  doc.lines.forEach((line, i) => {
    const [no, code, name] = lines[i] as [string, number, string];
    expect(line.placement.item?.no, `line ${i + 1}`).toBe(no);
    if (disagreeing.includes(i)) {
      expect(line.remarks, `line ${i + 1}`).toMatch(/disagrees with the name/);
      const wanted = rule === 'name' ? colourOfName(name) : colourOfNumber(numbering, code);
      expect(line.placement.colourId, `line ${i + 1}: ${code} ${name}`).toBe(wanted);
    } else {
      expect(line.remarks ?? '', `line ${i + 1}`).not.toMatch(/disagrees with the name/);
    }
  });
}

describeEachStore('issue 60 §3: a colour numbering is read from the whole file', () => {
  it("an LDraw-coded list with a colour the table lacks is read as LDraw's by its names: no guess, every line in its colour", async () => {
    const { db } = await shopStore();
    const text = listText(LDRAW_LIST);
    const { plan: p, doc } = plan(db, { file: file('parts-list.csv', text) });
    expect(doc.colourNumbering).toEqual({ numbering: 'ldraw', how: 'names' });
    expect(doc.warnings).toEqual([]);
    expect(p.refusal).toBeNull();
    // Every line in the colour its name says: Black lines Black (never "no colour"), Trans Green never Lime.
    expect(doc.lines.map((l) => [l.placement.item?.no, l.placement.colourId])).toEqual(
      LDRAW_LIST.map(([no, , name]) => [no, colourOfName(name)]),
    );
    expect(doc.lines.slice(0, 7).every((l) => l.placement.colourId === 11)).toBe(true);
    // LDraw 126 is in no table: placed by its name, and the preview says so.
    const purple = doc.lines[10];
    expect(purple?.placement.colourId).toBe(51);
    expect(purple?.remarks).toMatch(/^LDraw colour 126 is not in LDraw's colours: placed by the name Trans Purple/);
    // Only that line says it was placed otherwise than by its number.
    expect(doc.lines.filter((l) => /placed by/.test(l.remarks ?? '')).map((l) => l.position)).toEqual([11]);

    const [result] = confirmImport(writeSession(db), { file: file('parts-list.csv', text) }, SYSTEM_CLOCK);
    expect(orderLines(db, result?.order.id ?? 0).map((l) => l.placed?.colour)).toEqual(
      LDRAW_LIST.map(([, , name]) => colourOfName(name)),
    );
  });

  it('a majority that is not clear (60/40) is still a guess, and the acknowledgement says what happens, line for line', async () => {
    const { db } = await shopStore();
    const lines: [string, number, string][] = [
      // Six in LDraw's numbering…
      ['3001', 0, 'Black'],
      ['3003', 0, 'Black'],
      ['3004', 34, 'Trans Green'],
      ['3010', 36, 'Trans-Red'],
      ['3020', 4, 'Red'],
      ['3022', 1, 'Blue'],
      // …four in BrickLink's.
      ['3023', 5, 'Red'],
      ['3001', 7, 'Blue'],
      ['3003', 11, 'Black'],
      ['3004', 86, 'Light Bluish Gray'],
    ];
    const { plan: p, doc } = plan(db, { file: file('mixed.csv', listText(lines)) });
    expect(doc.colourNumbering).toEqual({ numbering: 'bricklink', how: 'guessed' });
    expect(doc.warnings.map((w) => w.code)).toEqual(['colour-numbering-guessed', 'colour-number-and-name-disagree']);
    expect(p.refusal?.code).toBe('needs-acknowledgement');
    expect(doc.warnings[1]?.message).toMatch(/^4 lines give .*; they are placed by the name\.$/);
    expectWarningTrue(doc, lines);
    // BrickLink's 0 is "no colour", but a line that names Black is Black.
    expect(doc.lines.slice(0, 2).map((l) => [l.placement.colourId, l.remarks])).toEqual([
      [11, "colour number 0 is no colour in BrickLink's numbering: placed by the name Black"],
      [11, "colour number 0 is no colour in BrickLink's numbering: placed by the name Black"],
    ]);
  });

  it("read in LDraw's numbering, by names or by choice, a name that disagrees with its number is placed by the rule the warning states", async () => {
    const { db } = await shopStore();
    // Clearly LDraw's (17 of 18 lines), one name that says another colour than its number.
    const odd: [string, number, string][] = [...LDRAW_LIST.filter(([, code]) => code !== 126), ['3004', 4, 'Blue']];
    const read = plan(db, { file: file('odd.csv', listText(odd)) });
    expect(read.doc.colourNumbering).toEqual({ numbering: 'ldraw', how: 'names' });
    expect(read.doc.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'colour-number-and-name-disagree',
        'One line gives a colour number and a colour name that are different colours in LDraw\'s numbering (lot 18: LDraw 4 is Red, the name says "Blue"); it is placed by the name.',
      ],
    ]);
    expectWarningTrue(read.doc, odd);

    // Staff's choice still decides: chosen as BrickLink's, the same list is read so, and said so line for line.
    const chosen = plan(db, { file: file('odd.csv', listText(odd)), colourNumbering: 'bricklink' });
    expect(chosen.doc.colourNumbering).toEqual({ numbering: 'bricklink', how: 'chosen' });
    expect(chosen.doc.warnings.map((w) => w.code)).toEqual(['colour-number-and-name-disagree']);
    expectWarningTrue(chosen.doc, odd);
  });

  it('a BrickStore file keeps its rule, the number, for every line the warning names', async () => {
    const { db } = await shopStore();
    const text = bsx([
      { no: '3001', colour: 5, colourName: 'Red', qty: 1 },
      { no: '3003', colour: 1, colourName: 'Blue', qty: 1 },
      { no: '3023', colour: 34, colourName: 'Trans Green', qty: 1 },
    ]);
    const { doc } = plan(db, { file: file('shop.bsx', text) });
    expect(doc.warnings[0]?.message).toMatch(/^2 lines give .*placed by the number/);
    expectWarningTrue(doc, [
      ['3001', 5, 'Red'],
      ['3003', 1, 'Blue'],
      ['3023', 34, 'Trans Green'],
    ]);
  });

  it('without the colour table the LDraw list is not borne out: the guess is said', async () => {
    const { db } = await shopStore({ colourTable: false });
    const { doc } = plan(db, { file: file('parts-list.csv', listText(LDRAW_LIST)) });
    expect(doc.colourNumbering).toEqual({ numbering: 'bricklink', how: 'guessed' });
    expect(doc.warnings.map((w) => w.code)).toContain('colour-numbering-guessed');
  });
});
