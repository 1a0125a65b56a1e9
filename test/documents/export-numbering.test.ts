import { expect, it, onTestFinished } from 'vitest';
import type { CallName, ExportFileView, ExportPreviewView, LineRowView } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';
import { bricklinkXmlProblems, strictXmlProblem } from '../helpers/xml-check.ts';

/**
 * Issue 43, points 1–3: what leaves the desk speaks the numbering of where it goes. A shop whose catalogue
 * is Rebrickable's parts, selling on BrickLink: every export in BrickLink's numbers, every line accounted for.
 */

async function shop() {
  const path = newStoreLocation();
  const store = await openStore(path);
  onTestFinished(() => store.close());
  const db = store.db;
  const load = (name: string, text: string) =>
    loadCatalogue(db, path, [{ name, content: bytes(text) }], { type: null, me: identityOf(), clock: SYSTEM_CLOCK });
  await load(
    'parts.csv',
    files.rebrickableParts([
      { no: '3001', name: 'Brick 2 x 4' },
      { no: '6141', name: 'Plate Round 1 x 1 with Solid Stud' },
      { no: '3794b', name: 'Plate Special 1 x 2 with 1 Stud with Groove' },
      { no: '76041c02', name: 'Crane Arm Outside with Black Chain' },
      { no: '47899c01', name: 'Door 1 x 4 x 5 Left with Trans-Clear Glass' },
    ]),
  );
  await load(
    'colors.txt',
    files.bricklinkColoursTab([
      { id: 0, name: '(Not Applicable)' },
      { id: 1, name: 'White' },
      { id: 5, name: 'Red' },
      { id: 11, name: 'Black' },
      { id: 86, name: 'Light Bluish Gray' },
    ]),
  );
  // Rebrickable's cross-references: its 6141 is BrickLink's 4073, its 76041c02 BrickLink's x39c02.
  await load(
    'part-crossrefs.ron',
    files.partCrossrefs([
      { rebrickable: '6141', bricklink: ['4073'] },
      { rebrickable: '76041c02', bricklink: ['x39c02'] },
    ]),
  );
  // The element tables agree that BrickLink's 73436c01 is Rebrickable's 47899c01 (element 4258478).
  await load('codes.txt', files.bricklinkCodes([{ no: '73436c01', colour: 'Light Bluish Gray', element: '4258478' }]));
  await load('elements.csv', files.rebrickableElements([{ element: '4258478', part: '47899c01', colour: 71 }]));
  await load(
    'colors.json',
    files.rebrickableColourTable([
      { id: 4, name: 'Red', bricklink: { id: 5, name: 'Red' } },
      { id: 15, name: 'White', bricklink: { id: 1, name: 'White' } },
      { id: 71, name: 'Light Bluish Gray', bricklink: { id: 86, name: 'Light Bluish Gray' } },
    ]),
  );
  const service = serviceFor(db, path);
  const call = async <T>(name: CallName, args: object): Promise<T> => {
    const r = (await service.call(name, args)) as { ok: true; value: T } | { ok: false; error: unknown };
    if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
    return r.value;
  };
  const refusal = async (name: CallName, args: object) => {
    const r = (await service.call(name, args)) as { ok: boolean; error?: { code: string; message: string } };
    if (r.ok) throw new Error(`${name} was not refused`);
    return r.error as { code: string; message: string };
  };
  return { db, call, refusal };
}

/** The items of a BrickLink XML file as our own reader reads them: type, number, colour, quantity. */
function readBack(xml: string): string[] {
  const [doc] = readDocumentFile(file('export.xml', xml));
  return (doc?.lines ?? []).map((l) => `${l.given.type} ${l.given.no} ${l.given.colourId} ×${l.quantity}`);
}

/** A BrickStore inventory in BrickLink's numbers, as a shop's BrickLink store exports it. */
const INVENTORY = bsx([
  { no: '3001', name: 'Brick 2 x 4', colour: 5, qty: 4, price: '0.25' },
  { no: '4073', name: 'Plate, Round 1 x 1', colour: 1, qty: 10, price: '0.02' },
  { no: 'x39c02', name: 'Crane Arm Outside with Black Chain', colour: 11, qty: 1, price: '1.50' },
  { no: '73436c01', name: 'Door 1 x 4 x 5 Left', colour: 86, qty: 2, price: '0.80' },
  { no: '3794', name: 'Plate, Modified 1 x 2 with 1 Stud with Groove', colour: 1, qty: 6, price: '0.05' },
  { type: 'M', no: 'sw0001a', name: 'Battle Droid', colour: 0, qty: 1, price: '2.00', condition: 'U' },
]);

describeEachStore('exports speak the numbering of where they go (issue 43)', () => {
  it("a BrickLink file's BrickLink export: BrickLink's numbers, BrickLink's XML rules, and every unplaced line named", async () => {
    const { call } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('Market Street.bsx', INVENTORY),
    });
    const orderId = imported?.order.id ?? 0;
    const lines = await call<LineRowView[]>('lines.list', { orderId });
    // Placed on Rebrickable's items, through the cross-references and the element tables.
    expect(lines.map((l) => l.placed?.no ?? null)).toEqual(['3001', '6141', '76041c02', '47899c01', null, null]);
    // Shown in the shop's numbering (BrickLink's) first, the catalogue's beside it (SPEC §5): the number
    // the export writes (issue 60 §4) — the file's own 3001 for Rebrickable's 3001, which no table numbers.
    expect(lines.map((l) => l.placed?.shown ?? null)).toEqual([
      '3001',
      '4073 (Rebrickable 6141)',
      'x39c02 (Rebrickable 76041c02)',
      '73436c01 (Rebrickable 47899c01)',
      null,
      null,
    ]);

    const exported = await call<ExportFileView>('export.bricklink', { orderId });
    expect(bricklinkXmlProblems(exported.content, 'upload')).toEqual([]);
    expect(strictXmlProblem(exported.content)).toBeNull();
    // The numbers the file gave, never Rebrickable's (6141, 76041c02, 47899c01).
    expect(readBack(exported.content)).toEqual(['P 3001 5 ×4', 'P 4073 1 ×10', 'P x39c02 11 ×1', 'P 73436c01 86 ×2']);
    expect(exported.rows).toBe(4);
    // No line left out without a word: the two unplaced lines, each by its line.
    expect(exported.leftOut?.map((l) => [l.line, l.reason])).toEqual([
      [lines[4]?.id, 'unplaced'],
      [lines[5]?.id, 'unplaced'],
    ]);
    expect(exported.note).toBe('2 lines are left out (2 not placed).');

    // Staff include the unplaced lines as the document gave them: it speaks BrickLink's numbering.
    const all = await call<ExportFileView>('export.bricklink', { orderId, includeUnplaced: true });
    expect(bricklinkXmlProblems(all.content, 'upload')).toEqual([]);
    expect(readBack(all.content).slice(4)).toEqual(['P 3794 1 ×6', 'M sw0001a 0 ×1']);
    expect(all.content).toMatch(
      /<ITEMID>sw0001a<\/ITEMID>\s*<COLOR>0<\/COLOR>\s*<QTY>1<\/QTY>\s*<PRICE>2.00<\/PRICE>\s*<CONDITION>U<\/CONDITION>/,
    );
    expect(all.leftOut).toEqual([]);
  });

  it("a line fixed by hand onto an item BrickLink doesn't number is refused until acknowledged, then left out by name", async () => {
    const { call, refusal } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('Market Street.bsx', INVENTORY),
    });
    const orderId = imported?.order.id ?? 0;
    const lines = await call<LineRowView[]>('lines.list', { orderId });
    const plate = lines[4] as LineRowView;
    await call('lines.place', { lineId: plate.id, type: 'P', no: '3794b', colourId: null });

    const preview = await call<ExportPreviewView>('export.preview', { orderId, to: 'bricklink' });
    expect(preview.needs).toBe('no-bricklink-number');
    expect(preview.leftOut.map((l) => [l.line, l.reason])).toEqual([
      [plate.id, 'no-number'],
      [lines[5]?.id, 'unplaced'],
    ]);
    const refused = await refusal('export.bricklink', { orderId });
    expect(refused.code).toBe('needs-acknowledgement');
    expect(refused.message).toContain('P 3794b Plate Special 1 x 2 with 1 Stud with Groove (White)');
    expect(refused.message).toContain('--accept no-bricklink-number');

    const acknowledged = await call<ExportFileView>('export.bricklink', { orderId, accept: ['no-bricklink-number'] });
    expect(readBack(acknowledged.content)).not.toContainEqual(expect.stringContaining('3794'));
    expect(acknowledged.leftOut?.find((l) => l.line === plate.id)).toMatchObject({
      reason: 'no-number',
      text: 'BrickLink has no known number for this item (no loaded table gives one)',
    });

    // Fixed by hand onto 6141 instead: BrickLink's number for it is known (4073), and that is what goes.
    await call('lines.place', { lineId: plate.id, type: 'P', no: '6141', colourId: null });
    const fixed = await call<ExportFileView>('export.bricklink', { orderId });
    expect(readBack(fixed.content)).toContain('P 4073 1 ×6');
    expect(fixed.content).not.toContain('<ITEMID>6141</ITEMID>');
  });

  it("a list in Rebrickable's numbers goes to BrickLink in BrickLink's, and to Rebrickable in Rebrickable's with its colour ids", async () => {
    const { call, refusal } = await shop();
    const list = csv(
      ['Part', 'Color', 'Quantity'],
      [
        ['6141', 15, 8],
        ['76041c02', 4, 1],
        ['3001', 4, 2],
      ],
    );
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('rebrickable-list.csv', list),
    });
    const orderId = imported?.order.id ?? 0;
    // Rebrickable's 3001 is "probably" BrickLink's 3001, but no loaded table says so: not known, so refused
    // until acknowledged, and then left out by name — never written under Rebrickable's number.
    const refused = await refusal('export.bricklink', { orderId });
    expect(refused.message).toMatch(
      /^1 line can't be written in BrickLink's numbering, and brick-work never writes another numbering's in its place: P 3001 Brick 2 x 4 \(Red\) \(rebrickable-list.csv #3\): no known number\. /,
    );
    const toBrickLink = await call<ExportFileView>('export.bricklink', { orderId, accept: ['no-bricklink-number'] });
    expect(readBack(toBrickLink.content)).toEqual(['P 4073 1 ×8', 'P x39c02 5 ×1']);
    expect(toBrickLink.leftOut?.map((l) => [l.what, l.reason])).toEqual([['P 3001 Brick 2 x 4 (Red)', 'no-number']]);
    const toRebrickable = await call<ExportFileView>('export.rebrickable', { orderId });
    expect(toRebrickable.content).toBe('Part,Color,Quantity\r\n6141,15,8\r\n76041c02,4,1\r\n3001,4,2\r\n');
    expect(toRebrickable.leftOut).toEqual([]);
  });

  it("Compare's wanted list and Rebrickable list speak their target's numbering too", async () => {
    const { call, refusal } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('Market Street.bsx', INVENTORY),
    });
    const orderId = imported?.order.id ?? 0;
    const view = await call<{ compareId: string }>('compare.run', {
      left: { kind: 'order', orderId },
      right: {
        kind: 'file',
        file: file(
          'arrived.bsx',
          bsx([
            { no: '3001', name: 'Brick 2 x 4', colour: 5, qty: 4 },
            // Extra on the right: BrickLink's 4073, on Rebrickable's 6141 through the cross-references.
            { no: '4073', name: 'Plate, Round 1 x 1', colour: 11, qty: 3, price: '0.05' },
          ]),
        ),
      },
    });
    const upload = await call<ExportFileView>('compare.export', { compareId: view.compareId, as: 'upload' });
    expect(bricklinkXmlProblems(upload.content, 'upload')).toEqual([]);
    expect(readBack(upload.content)).toEqual(['P 4073 11 ×3']);
    const wanted = await call<ExportFileView>('compare.export', { compareId: view.compareId, as: 'wanted' });
    expect(bricklinkXmlProblems(wanted.content, 'wanted')).toEqual([]);
    expect(wanted.content).toContain('<ITEMID>x39c02</ITEMID>');
    expect(wanted.content).not.toContain('76041c02');
    expect(readBack(wanted.content)).toEqual(['P 4073 1 ×10', 'P x39c02 11 ×1', 'P 73436c01 86 ×2']);
    expect(wanted.leftOut?.map((l) => l.reason)).toEqual(['unplaced', 'unplaced']);
    // Black has no Rebrickable id in this colour table: refused until acknowledged, then left out.
    expect((await refusal('compare.export', { compareId: view.compareId, as: 'rebrickable' })).code).toBe(
      'needs-acknowledgement',
    );
    const rebrickable = await call<ExportFileView>('compare.export', {
      compareId: view.compareId,
      as: 'rebrickable',
      accept: ['no-rebrickable-number'],
    });
    expect(rebrickable.content).toBe('Part,Color,Quantity\r\n6141,15,10\r\n47899c01,71,2\r\n');
    expect(rebrickable.leftOut?.map((l) => l.reason)).toEqual(['no-colour-number', 'unplaced', 'unplaced']);
  });
});
