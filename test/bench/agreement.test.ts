/**
 * The agreement audit's own logic (issue 60, "How it is proven"; `npm run bench -- agreement` runs it on
 * the real data): a document placed against a Rebrickable-numbered catalogue, a BrickLink-numbered one and
 * one with every table, each made here, and its answers compared through the tables. A line whose answers
 * are one item through the tables agrees; one that differs with a `via`, or unplaced, is an explained
 * disagreement; an answer that differs silently is flagged. BrickLink's Parts download, absent from the
 * real data, is built from codes and cross-references as the row builds it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  audit,
  bricklinkParts,
  judge,
  numbersFrom,
  pattern,
  silentAnswer,
  storeWith,
  type Answer,
  type AuditedLine,
  type CatalogueName,
} from '../../bench/agreement.ts';
import type { Store } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, file } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

/** BrickLink's colour ids, with Rebrickable's for the same colours. */
const WHITE = 1;
const RED = 5;
const BLACK = 11;
const COLOURS = [
  { id: WHITE, name: 'White', rebrickable: 15 },
  { id: RED, name: 'Red', rebrickable: 4 },
  { id: BLACK, name: 'Black', rebrickable: 0 },
];
const colours = { name: 'colors.txt', content: bytes(files.bricklinkColoursTab(COLOURS)) };

/** Rebrickable's parts: its 970c04 is not BrickLink's (BrickLink's 970c04 is Rebrickable's 970c34). */
const rebrickableParts = {
  name: 'parts.csv',
  content: bytes(
    files.rebrickableParts([
      { no: '3001', name: 'Brick 2 x 4' },
      { no: '970c04', name: 'Hips and Dark Azure Legs' },
      { no: '970c34', name: 'Hips and Orange Legs' },
      { no: '3069b', name: 'Tile 1 x 2 with Groove' },
    ]),
  ),
};

/** The tables: BrickLink's 970c04 in Black is element 9700411, which Rebrickable lists as 970c34. */
const TABLES = [
  {
    name: 'codes.txt',
    content: bytes(
      files.bricklinkCodes([
        { no: '3001', colour: 'Red', element: '300121' },
        { no: '970c04', colour: 'Black', element: '9700411' },
      ]),
    ),
  },
  {
    name: 'elements.csv',
    content: bytes(
      files.rebrickableElements([
        { element: '300121', part: '3001', colour: 4 },
        { element: '9700411', part: '970c34', colour: 0 },
      ]),
    ),
  },
  {
    name: 'colors.json',
    content: bytes(
      files.rebrickableColourTable(
        COLOURS.map((c) => ({ id: c.rebrickable, name: c.name, bricklink: { id: c.id, name: c.name } })),
      ),
    ),
  },
  // Rebrickable's 3069b is BrickLink's 3069 now: an old file's 3069b is in no table.
  { name: 'part-crossrefs.ron', content: bytes(files.partCrossrefs([{ rebrickable: '3069b', bricklink: ['3069'] }])) },
];

/** BrickLink's Parts download as `bricklinkParts` makes it from these tables (3001, 970c04, 3069). */
function builtParts() {
  return bricklinkParts({
    codes: TABLES[0] as (typeof TABLES)[number],
    elements: TABLES[1] as (typeof TABLES)[number],
    crossrefs: TABLES[3] as (typeof TABLES)[number],
    parts: rebrickableParts,
    minifigures: {
      name: 'Minifigures.txt',
      content: bytes(files.bricklinkItemsTab([{ no: 'sw0001a', name: 'Luke Skywalker' }])),
    },
  });
}

/** A BrickStore file in BrickLink's numbers: one line each catalogue agrees on, two they don't, one nobody places. */
const DOCUMENT = file(
  'inventory.bsx',
  bsx([
    { no: '3001', colour: RED, colourName: 'Red', name: 'Brick 2 x 4' },
    { no: '970c04', colour: BLACK, colourName: 'Black', name: 'Hips and Orange Legs' },
    // Named as BrickLink named it then: no catalogue name here (a name that was would place it by name).
    { no: '3069b', colour: WHITE, colourName: 'White', name: 'Tile 1 x 2 Grooved' },
    { no: '3005', colour: WHITE, colourName: 'White', name: 'Brick 1 x 1' },
  ]),
);

async function catalogues(): Promise<Record<CatalogueName, Store>> {
  const dir = tempDir();
  const stores = {
    rebrickable: await storeWith(dir, 'rebrickable', [rebrickableParts, colours]),
    bricklink: await storeWith(dir, 'bricklink', [builtParts().file, colours]),
    all: await storeWith(dir, 'all', [rebrickableParts, colours, ...TABLES]),
  };
  onTestFinished(() => Object.values(stores).forEach((s) => s.close()));
  return stores;
}

const placed = (no: string, numbering: 'bricklink' | 'rebrickable', colourId: number, via: string | null): Answer => ({
  item: { type: 'P', no },
  colourId,
  numbering,
  by: 'number',
  via,
  reason: null,
});

describe('the agreement audit (issue 60)', () => {
  it("builds BrickLink's parts from its codes and Rebrickable's cross-references, named after the Rebrickable part they name, less its minifigures", () => {
    const built = builtParts();
    const text = new TextDecoder().decode(built.file.content);
    expect(built.file.name).toBe('Parts.txt');
    expect(text.trim().split('\n')).toEqual([
      'Number\tName',
      '3001\tBrick 2 x 4',
      '3069\tTile 1 x 2 with Groove',
      '970c04\tHips and Orange Legs',
    ]);
    expect(built).toMatchObject({ parts: 3, fromCodes: 2, fromCrossrefs: 1, minifigures: 0 });
    expect(built.named).toEqual({ crossrefs: 1, elements: 2, none: 0 });
  });

  it('compares the three answers through the tables: agreeing lines pass, each disagreement is listed and explained by its via or its reason', async () => {
    const stores = await catalogues();
    const result = audit({ rebrickable: stores.rebrickable.db, bricklink: stores.bricklink.db, all: stores.all.db }, [
      DOCUMENT,
    ]);
    expect(result.lines).toBe(4);
    expect(result.documents).toEqual([{ name: 'inventory.bsx', lines: 4, disagree: 2, warnings: [] }]);
    // 3001 in Red is one item through the tables in all three; 3005 is unplaced in all three.
    expect(result.disagreements.map((d) => d.given.no)).toEqual(['970c04', '3069b']);
    const [legs, tile] = result.disagreements;
    // BrickLink's 970c04 in Black is Rebrickable's 970c34 (element 9700411), not Rebrickable's 970c04,
    // which the catalogue without tables took by its text, saying so.
    expect(legs?.answers.rebrickable).toMatchObject({
      item: { no: '970c04' },
      via: "same number in Rebrickable's numbering",
    });
    expect(legs?.answers.bricklink).toMatchObject({ item: { no: '970c04' }, numbering: 'bricklink', via: null });
    expect(legs?.answers.all).toMatchObject({
      item: { no: '970c34' },
      via: expect.stringContaining('element 9700411'),
    });
    // The two Rebrickable items differ; BrickLink's 970c04 is the all-tables answer through the tables.
    // (R and B: itemNumbers also gives Rebrickable's 970c04 BrickLink's 970c04, as BrickLink's codes list it.)
    expect(legs?.pattern).toMatch(/ R≠A B=A$/);
    expect(legs?.silent).toEqual([]);
    // An old 3069b is in no table: BrickLink's catalogue of today lacks it (a reason), the others take its text (a via).
    expect(tile?.answers.bricklink).toMatchObject({
      item: null,
      reason: 'The BrickLink number is not in the catalogue',
    });
    expect(tile?.answers.all).toMatchObject({ item: { no: '3069b' }, via: "same number in Rebrickable's numbering" });
    expect(tile?.pattern).toBe('R≠B R=A B≠A; unplaced: B');
    expect(tile?.silent).toEqual([]);
    expect(result.unexplained).toBe(0);
  });

  it('flags an answer that differs silently: placed without a via on an item the tables do not give the line’s number, or in another colour', async () => {
    const stores = await catalogues();
    const line = (no: string, answers: Record<CatalogueName, Answer>): AuditedLine => ({
      document: 'made up',
      position: 1,
      numbering: 'bricklink',
      given: { type: 'P', no, name: null, colourId: BLACK },
      answers,
    });
    const none: Answer = {
      item: null,
      colourId: null,
      numbering: null,
      by: null,
      via: null,
      reason: 'The BrickLink number is not in the catalogue',
    };
    const sameText = placed('3069b', 'rebrickable', BLACK, "same number in Rebrickable's numbering");
    const silentText = placed('3069b', 'rebrickable', BLACK, null);
    const legs = placed('970c04', 'bricklink', BLACK, null);
    const confirmed = placed('970c34', 'rebrickable', BLACK, null);
    const silentColour = placed('970c04', 'bricklink', RED, null);
    const numbersOf = numbersFrom(stores.all.db, [sameText, legs, confirmed]);

    // An old 3069b taken by its text with a via, and unplaced in BrickLink's catalogue of today: explained.
    expect(judge(line('3069b', { rebrickable: sameText, bricklink: none, all: sameText }), numbersOf)).toEqual({
      agree: false,
      silent: [],
    });
    // The same placement with nothing said: the tables give Rebrickable's 3069b BrickLink's 3069, not
    // the line's 3069b, so it assumed the text silently. Unexplained.
    const silently = line('3069b', { rebrickable: sameText, bricklink: none, all: silentText });
    expect(judge(silently, numbersOf)).toEqual({ agree: false, silent: ['all'] });
    expect(pattern(silently, numbersOf)).toBe('R≠B R=A B≠A; unplaced: B');

    // Rebrickable's 970c34 with no via is the line's own 970c04 as the tables give it (element 9700411):
    // not silent, and one item with BrickLink's 970c04.
    expect(
      silentAnswer(line('970c04', { rebrickable: legs, bricklink: legs, all: confirmed }), confirmed, numbersOf),
    ).toBe(false);
    expect(judge(line('970c04', { rebrickable: legs, bricklink: legs, all: confirmed }), numbersOf)).toEqual({
      agree: true,
      silent: [],
    });
    // The line's own number in another colour than its own, with no via: silent.
    expect(judge(line('970c04', { rebrickable: legs, bricklink: legs, all: silentColour }), numbersOf)).toEqual({
      agree: false,
      silent: ['all'],
    });
    // Three unplaced answers agree.
    expect(judge(line('3005', { rebrickable: none, bricklink: none, all: none }), numbersOf).agree).toBe(true);
  });
});
