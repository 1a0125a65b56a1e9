import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import type { LeftOutLine, SharedNumberLine } from '../../src/vocabulary/export-kinds.ts';
import type { ExportRow } from '../../src/exports/plan.ts';
import { massUpdate, putAwayXml } from '../../src/stock/put-away-xml.ts';
import { planPutAway } from '../../src/stock/put-away-plan.ts';
import type { OrderLine, PutAwayToLot } from '../../src/stock/types.ts';
import { parseXmlTree } from '../../src/text/xml.ts';
import { brick, lot, placed, unplacedLine } from '../helpers/stock-lines.ts';
import { bricklinkMassUpdateProblems, bricklinkXmlProblems, strictXmlProblem } from '../helpers/xml-check.ts';

/** A line's row in the order's BrickLink export plan, as planOrderExport gives it. */
function row(l: OrderLine, no = l.item?.no ?? '', unitPriceE4: number | null = 1500): ExportRow {
  return {
    line: l.line,
    type: l.item?.type ?? 'P',
    no,
    colour: l.item?.colour ?? null,
    quantity: l.quantity,
    unitPriceE4,
    condition: l.condition,
    remarks: 'the seller said: from a bulk lot',
    description: null,
  };
}

function noNumber(l: OrderLine): LeftOutLine {
  return {
    line: l.line,
    where: l.where,
    what: l.what,
    quantity: l.quantity,
    reason: 'no-number',
    text: 'BrickLink has no known number for this item',
  };
}

const itemsOf = (xml: string) =>
  parseXmlTree(xml, 'x.xml').children.map((item) => Object.fromEntries(item.children.map((c) => [c.name, c.text])));

/** A received order: lines into lots the store has, into new lots, and lines each export leaves out. */
function received() {
  const a = brick('3001');
  const b = brick('3002');
  const c = brick('3003', 11);
  const d = brick('3004', 85);
  const lines = [
    placed(a, 12, 'N', 1), // into lot 11 (lot id 77)
    placed(a, 3, 'N', 2), // into lot 11 too: one change of +15
    placed(b, 4, 'U', 3), // into lot 12, imported from a CSV without lot ids
    placed(c, 5, 'N', 4), // new, at the item's other colour's C7
    placed(d, 2, null, 5), // new, nowhere to suggest: written without a location, as new
    placed(brick('970c00', 86), 1, 'N', 6), // new, BrickLink has no number for it
    placed(brick('3010', 5), 6, 'U', 7), // new, typed K & 1 <top>
    unplacedLine(2, 8),
    placed(a, 0, 'N', 9),
  ];
  const lots = [
    { ...lot(a, 10, 'A2', 'N', 11), lotId: '77' },
    { ...lot(b, 1, 'B1', 'U', 12), lotId: null },
    lot(brick('3003', 1), 4, 'C7', 'N', 13),
  ];
  const plan = planPutAway({ lines, lots, typed: new Map([[7, 'K & 1 <top>']]) });
  const byLine = (n: number) => lines.find((l) => l.line === n)!;
  const numbers = {
    rows: [1, 2, 3, 4, 5, 7].map((n) => row(byLine(n))),
    leftOut: [noNumber(byLine(6))],
    shared: [] as SharedNumberLine[],
  };
  return { lines, plan, numbers };
}

describe('the put-away files (issue 65 §3)', () => {
  it('writes a Mass Update for lots the store has: each lot once by its lot id, the pieces as a change (+N), nothing else', () => {
    const { plan, numbers } = received();
    const files = putAwayXml(plan, numbers, { accept: ['no-bricklink-number'] });
    const update = files.update!;
    expect(strictXmlProblem(update.content)).toBeNull();
    expect(bricklinkMassUpdateProblems(update.content)).toEqual([]);
    expect(itemsOf(update.content)).toEqual([{ LOTID: '77', QTY: '+15' }]);
    expect(update).toMatchObject({ lines: [1, 2], lots: 1 });
    expect(update.content.startsWith('<INVENTORY>')).toBe(true);
  });

  it("writes a Mass Upload of the new lots in BrickLink's numbers, each location alone in REMARKS, that our reader reads back", () => {
    const { plan, numbers } = received();
    const upload = putAwayXml(plan, numbers, { accept: ['no-bricklink-number'] }).upload!;
    expect(strictXmlProblem(upload.content)).toBeNull();
    expect(bricklinkXmlProblems(upload.content, 'upload')).toEqual([]);
    expect(upload.lines).toEqual([4, 7, 5]);
    expect(upload.withoutLocation).toEqual([5]);
    // The document's own remarks stay out: the remarks are where the lot is.
    expect(upload.content).not.toContain('the seller said');
    const [doc] = readDocumentFile({ name: 'upload.xml', content: new TextEncoder().encode(upload.content) });
    expect(doc?.format).toBe('bricklink-xml');
    expect(
      doc?.lines.map((l) => [
        l.given.type,
        l.given.no,
        l.given.colourId,
        l.quantity,
        l.condition,
        l.unitPriceE4,
        l.remarks,
      ]),
    ).toEqual([
      ['P', '3003', 11, 5, 'N', 1500, 'C7'],
      ['P', '3010', 5, 6, 'U', 1500, 'K & 1 <top>'],
      // No condition given: new, as every BrickLink upload of ours; no location: no REMARKS at all.
      ['P', '3004', 85, 2, 'N', 1500, null],
    ]);
    expect(upload.content).toContain('<REMARKS>K &amp; 1 &lt;top&gt;</REMARKS>');
  });

  it('accounts for every line: in the update, in the upload, or left out with its reason', () => {
    const { lines, plan, numbers } = received();
    const files = putAwayXml(plan, numbers, { accept: ['no-bricklink-number'] });
    expect(files.leftOut.map((l) => [l.line, l.reason])).toEqual([
      [3, 'no-lot-id'],
      [6, 'no-number'],
      [8, 'unplaced'],
      [9, 'no-quantity'],
    ]);
    expect(files.leftOut[0]?.text).toMatch(/no BrickLink lot id/);
    expect(files.leftOut[2]?.text).toBe('not placed: The BrickLink number is not in the catalogue');
    const written = [
      ...(files.update?.lines ?? []),
      ...(files.upload?.lines ?? []),
      ...files.leftOut.map((l) => l.line),
    ];
    expect([...written].sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(lines.map((l) => l.line));
  });

  it('refuses, until acknowledged, to leave out a new lot BrickLink has no number for', () => {
    const { plan, numbers } = received();
    expect(() => putAwayXml(plan, numbers)).toThrow(expect.objectContaining({ code: 'needs-acknowledgement' }));
    // A line into a lot the store has needs no number: its lot id names it.
    const intoLot = planPutAway({
      lines: [placed(brick('970c00'), 2, 'N', 1)],
      lots: [{ ...lot(brick('970c00'), 1, 'A1', 'N', 5), lotId: '9' }],
    });
    const files = putAwayXml(intoLot, {
      rows: [],
      leftOut: [noNumber(placed(brick('970c00'), 2, 'N', 1))],
      shared: [],
    });
    expect(files.leftOut).toEqual([]);
    expect(itemsOf(files.update!.content)).toEqual([{ LOTID: '9', QTY: '+2' }]);
    expect(files.upload).toBeNull();
    // An export plan of another order (it says nothing of a new lot's line) is a fault, never a silent gap.
    const { plan: other } = received();
    expect(() => putAwayXml(other, { rows: [], leftOut: [], shared: [] }, { accept: ['no-bricklink-number'] })).toThrow(
      /holds no word of line 4/,
    );
  });

  it('says which item a new lot is where its BrickLink number names several, in DESCRIPTION: the remarks stay the location', () => {
    const l = placed(brick('3048c'), 2, 'N', 1);
    const plan = planPutAway({ lines: [l], lots: [lot(brick('3048c', 1), 1, 'S-4', 'N', 3)] });
    const shared: SharedNumberLine = {
      line: 1,
      where: l.where,
      no: '3048c',
      quantity: 2,
      item: 'Rebrickable 3048b',
      others: ['Rebrickable 3048c'],
    };
    const files = putAwayXml(plan, { rows: [row(l)], leftOut: [], shared: [shared] });
    expect(itemsOf(files.upload!.content)[0]).toMatchObject({
      ITEMID: '3048c',
      REMARKS: 'S-4',
      DESCRIPTION: 'Rebrickable 3048b, not 3048c',
    });
    expect(files.shared).toEqual([shared]);
  });

  it('writes no file where there is nothing to write (BrickLink takes no file without an item)', () => {
    const files = putAwayXml(planPutAway({ lines: [unplacedLine(1, 1)], lots: [] }), {
      rows: [],
      leftOut: [],
      shared: [],
    });
    expect(files.update).toBeNull();
    expect(files.upload).toBeNull();
    expect(files.leftOut.map((l) => l.reason)).toEqual(['unplaced']);
  });

  it('a Mass Update sums the lines into one lot and keeps lots apart', () => {
    const a = brick('3001');
    const entry = (line: number, lotId: string | null, quantity: number): PutAwayToLot => ({
      kind: 'existing',
      line,
      position: line,
      where: `o #${line}`,
      what: 'P 3001',
      item: a,
      condition: 'N',
      quantity,
      lot: Number(lotId ?? 0),
      lotId,
      location: 'A1',
      before: 0,
      after: quantity,
    });
    const { file, leftOut } = massUpdate([entry(1, '5', 2), entry(2, '6', 1), entry(3, '5', 4), entry(4, ' ', 9)]);
    expect(itemsOf(file!.content)).toEqual([
      { LOTID: '5', QTY: '+6' },
      { LOTID: '6', QTY: '+1' },
    ]);
    expect(file?.lines).toEqual([1, 3, 2]);
    expect(leftOut.map((l) => [l.line, l.reason])).toEqual([[4, 'no-lot-id']]);
  });
});

describe("the Mass Update check follows BrickLink's help page", () => {
  it('finds each thing BrickLink refuses', () => {
    const problems = bricklinkMassUpdateProblems(
      '<INVENTORY><ITEM><LOTID>5</LOTID><QTY>12</QTY></ITEM><ITEM><QTY>+1</QTY></ITEM>' +
        '<ITEM><LOTID>5</LOTID><QTY>+0</QTY></ITEM><ITEM><LOTID>7</LOTID><ITEMID>3001</ITEMID><REMARKS></REMARKS></ITEM></INVENTORY>',
    );
    expect(problems).toEqual([
      'item 1: QTY 12, not a change (+N or -N)',
      'item 2: LOTID missing',
      'item 3: LOTID 5 a second time',
      'item 3: QTY +0, not a change (+N or -N)',
      'item 4: ITEMID in a mass update (the lot id names the lot)',
      'item 4: an empty REMARKS',
    ]);
    expect(bricklinkMassUpdateProblems('<?xml version="1.0"?><INVENTORY></INVENTORY>')).toEqual([
      'it starts with an XML declaration, which BrickLink refuses',
      'it has no ITEM',
    ]);
    expect(bricklinkMassUpdateProblems('<INVENTORY><ITEM><LOTID>3</LOTID><QTY>-2</QTY></ITEM></INVENTORY>')).toEqual(
      [],
    );
  });

  it('and a mass upload with a lot id is refused as an upload', () => {
    const upload =
      '<INVENTORY><ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>1</QTY><CONDITION>N</CONDITION><LOTID>4</LOTID></ITEM></INVENTORY>';
    expect(bricklinkXmlProblems(upload, 'upload')).toEqual(['item 1: a LOTID in a mass upload']);
  });
});
