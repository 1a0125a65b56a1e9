import { expect, it, onTestFinished } from 'vitest';
import type { CallName, CompareView, ExportFileView, LineRowView } from '../../src/api/contract.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * Issue 60 §4, words true to the line: the number a screen shows for a line in the shop numbering is the
 * number its export writes (the line table, the exports and Compare read one rule); a number that names
 * two catalogue items says so; and what `suggest` offers, `place` takes.
 */

/** A shop that sells on BrickLink with Rebrickable's parts as its catalogue, and Rebrickable's cross-references. */
async function shop() {
  const location = newStoreLocation();
  const store = await openStore(location);
  onTestFinished(() => store.close());
  const db = store.db;
  const load = (name: string, text: string) =>
    loadCatalogue(db, location, [{ name, content: bytes(text) }], {
      type: null,
      me: identityOf(),
      clock: SYSTEM_CLOCK,
    });
  await load(
    'parts.csv',
    files.rebrickableParts([
      { no: '3001', name: 'Brick 2 x 4' },
      { no: '3062b', name: 'Brick Round 1 x 1 Open Stud' },
      { no: '3742c01', name: 'Plant Flower Small 4 Petals on Sprue' },
      { no: '6141', name: 'Plate Round 1 x 1 with Solid Stud' },
      { no: '3048b', name: 'Slope 45° 2 x 1 Triple Smooth' },
      { no: '3048c', name: 'Slope 45° 2 x 1 Triple with Ovoid Bottom Pin' },
      { no: '48933pr0007', name: 'Wedge Sloped 4 x 4 Triple, Stud Notches with Mini Slave I Print' },
      { no: '48933pr0004', name: 'Wedge Sloped 4 x 4 Triple, Stud Notches with Orange Window Frame Print' },
      { no: '32123a', name: 'Technic Bush 1/2 Smooth with Axle Hole Reduced' },
      { no: '32123b', name: 'Technic Bush 1/2 Smooth with Axle Hole Semicircle' },
    ]),
  );
  await load(
    'colors.txt',
    files.bricklinkColoursTab([
      { id: 1, name: 'White' },
      { id: 5, name: 'Red' },
      { id: 6, name: 'Green' },
      { id: 11, name: 'Black' },
    ]),
  );
  // As Rebrickable cross-references them: BrickLink has since renumbered 3062b as 3062 and 3742c01 as
  // 3742sprue, and numbers both of Rebrickable's 3048b and 3048c as its one 3048c.
  await load(
    'part-crossrefs.ron',
    files.partCrossrefs([
      { rebrickable: '3062b', bricklink: ['3062'] },
      { rebrickable: '3742c01', bricklink: ['3742sprue'] },
      { rebrickable: '6141', bricklink: ['4073'] },
      { rebrickable: '3048b', bricklink: ['3048c'] },
      { rebrickable: '3048c', bricklink: ['3048c'] },
      { rebrickable: '48933pr0007', bricklink: ['48933pb001'] },
      { rebrickable: '32123a', bricklink: ['4265c'] },
      { rebrickable: '32123b', bricklink: ['4265c'] },
    ]),
  );
  const service = serviceFor(db, location);
  const call = async <T>(name: CallName, args: object): Promise<T> => {
    const r = (await service.call(name, args)) as { ok: true; value: T } | { ok: false; error: unknown };
    if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
    return r.value;
  };
  return { location, call };
}

/** An old BrickStore inventory in the BrickLink numbers of its day. */
const INVENTORY = bsx([
  { no: '3062b', name: 'Brick, Round 1 x 1 Open Stud', colour: 5, qty: 4 },
  { no: '3742c01', name: 'Plant Flower Small 4 Petals on Sprue', colour: 6, qty: 2 },
  { no: '3001', name: 'Brick 2 x 4', colour: 5, qty: 1 },
  { no: '4073', name: 'Plate, Round 1 x 1', colour: 1, qty: 10 },
  // Fixed by hand below: one on each of the two items BrickLink numbers 3048c.
  { no: '3048', name: 'Slope 45 2 x 1 Triple', colour: 11, qty: 3, remarks: 'drawer 12' },
  { no: '3048x', name: 'Slope 45 2 x 1 Triple', colour: 5, qty: 5 },
]);

/** The items of a BrickLink XML file as our own reader reads them: number, colour and remarks. */
function readBack(xml: string): string[] {
  const [doc] = readDocumentFile(file('export.xml', xml));
  return (doc?.lines ?? []).map((l) => `${l.given.no} ${l.given.colourId}${l.remarks ? ` [${l.remarks}]` : ''}`);
}

/** The shop's number in what a screen shows (`3062 (Rebrickable 3062b)` → `3062`). */
const shopNumber = (shown: string | undefined) => shown?.replace(/ \(.*\)$/, '');

describeEachStore("a line's number in the shop numbering (issue 60 §4)", () => {
  it('the line table shows the number the BrickLink export writes, and a number two items share says so in both', async () => {
    const { call } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('Market Street.bsx', INVENTORY),
    });
    const orderId = imported?.order.id ?? 0;
    let lines = await call<LineRowView[]>('lines.list', { orderId });
    await call('lines.place', { lineId: lines[4]?.id, type: 'P', no: '3048b', colourId: null });
    await call('lines.place', { lineId: lines[5]?.id, type: 'P', no: '3048c', colourId: null });
    lines = await call<LineRowView[]>('lines.list', { orderId });

    expect(lines.map((l) => l.placed?.shown)).toEqual([
      // The tables say what BrickLink calls these now: the screen says it, and the export writes it.
      '3062 (Rebrickable 3062b)',
      '3742sprue (Rebrickable 3742c01)',
      // No table gives Rebrickable's 3001 a BrickLink number: the document's own (BrickLink's) number for
      // it is the line's, which the export writes too.
      '3001',
      '4073 (Rebrickable 6141)',
      '3048c (Rebrickable 3048b)',
      '3048c',
    ]);
    // Two catalogue items share BrickLink's 3048c: each line says which other one its number names too.
    expect(lines.map((l) => l.placed?.sharedWith ?? [])).toEqual([
      [],
      [],
      [],
      [],
      ['Rebrickable 3048c'],
      ['Rebrickable 3048b'],
    ]);

    const exported = await call<ExportFileView>('export.bricklink', { orderId });
    const written = readBack(exported.content);
    // Line for line, the number the screen shows is the number written.
    expect(written.map((w) => w.split(' ')[0])).toEqual(lines.map((l) => shopNumber(l.placed?.shown)));
    // And a lot whose number names two catalogue items says in its remarks which one it is.
    expect(written).toEqual([
      '3062 5',
      '3742sprue 6',
      '3001 5',
      '4073 1',
      '3048c 11 [drawer 12 · Rebrickable 3048b, not 3048c]',
      '3048c 5 [Rebrickable 3048c, not 3048b]',
    ]);
    expect(exported.note).toMatch(/2 lines go under a BrickLink number that names more than one catalogue item/);
    expect(exported.shared?.map((s) => [s.line, s.no, s.item, s.others])).toEqual([
      [lines[4]?.id, '3048c', 'Rebrickable 3048b', ['Rebrickable 3048c']],
      [lines[5]?.id, '3048c', 'Rebrickable 3048c', ['Rebrickable 3048b']],
    ]);
  });

  it("Compare shows and writes each lot's number by the same rule", async () => {
    const { call } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('Market Street.bsx', INVENTORY),
    });
    const orderId = imported?.order.id ?? 0;
    const lines = await call<LineRowView[]>('lines.list', { orderId });
    await call('lines.place', { lineId: lines[4]?.id, type: 'P', no: '3048b', colourId: null });
    await call('lines.place', { lineId: lines[5]?.id, type: 'P', no: '3048c', colourId: null });
    const view = await call<CompareView>('compare.run', {
      left: { kind: 'order', orderId },
      right: { kind: 'file', file: file('arrived.bsx', bsx([{ no: '3001', colour: 1, qty: 1 }])) },
    });
    const shown = view.onlyLeft.map((r) => r.item?.shown);
    expect(shown).toEqual([
      '3062 (Rebrickable 3062b)',
      '3742sprue (Rebrickable 3742c01)',
      '3001',
      '4073 (Rebrickable 6141)',
      '3048c (Rebrickable 3048b)',
      '3048c',
    ]);
    expect(view.onlyLeft.map((r) => r.item?.sharedWith ?? [])).toEqual([
      [],
      [],
      [],
      [],
      ['Rebrickable 3048c'],
      ['Rebrickable 3048b'],
    ]);
    const wanted = await call<ExportFileView>('compare.export', { compareId: view.compareId, as: 'wanted' });
    expect(readBack(wanted.content).map((w) => w.split(' ')[0])).toEqual(shown.map(shopNumber));
    expect(readBack(wanted.content).slice(4)).toEqual([
      '3048c 11 [Rebrickable 3048b, not 3048c]',
      '3048c 5 [Rebrickable 3048c, not 3048b]',
    ]);
  });

  it('every suggestion is one place takes: by its number, and by the shop number it shows where that names one item', async () => {
    const { location, call } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('6964.bsx', bsx([{ no: '48933pb01', colour: 11, qty: 1 }])),
    });
    const [line] = await call<LineRowView[]>('lines.list', { orderId: imported?.order.id });
    const lineId = String(line?.id);

    const suggested = await cliJson(['--db', location, 'suggest', '--number', '48933pb01']);
    expect(suggested.code, suggested.stderr).toBe(0);
    const suggestions = suggested.json.suggestions as { type: string; no: string; shown: string }[];
    expect(suggestions.map((s) => s.shown).sort()).toEqual([
      '48933pb001 (Rebrickable 48933pr0007)',
      '48933pr0004 (Rebrickable)',
    ]);
    for (const s of suggestions) {
      const placed = await cliJson(['--db', location, 'place', lineId, s.type, s.no]);
      expect(placed.code, placed.stderr).toBe(0);
      expect(placed.json.line.placed.no).toBe(s.no);
    }
    // The number staff read first, in the shop numbering, names one catalogue item: place takes it.
    const byShown = await cliJson(['--db', location, 'place', lineId, 'P', '48933pb001']);
    expect(byShown.code, byShown.stderr).toBe(0);
    expect(byShown.json.line.placed).toMatchObject({
      no: '48933pr0007',
      shown: '48933pb001 (Rebrickable 48933pr0007)',
    });
  });

  it('a shop number that names two catalogue items is refused by place, naming both; a catalogue number is taken as it is', async () => {
    const { location, call } = await shop();
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file('list.bsx', bsx([{ no: '3048', colour: 11, qty: 1 }])),
    });
    const [line] = await call<LineRowView[]>('lines.list', { orderId: imported?.order.id });
    const lineId = String(line?.id);
    const both = await cliJson(['--db', location, 'place', lineId, 'P', '4265c']);
    expect(both.code).toBe(1);
    expect(both.json.error.code).toBe('not-found');
    expect(both.json.error.message).toMatch(
      /BrickLink's 4265c names 2 catalogue items: Rebrickable 32123a, Rebrickable 32123b/,
    );
    // Rebrickable's 3048c is the catalogue's own number: place takes it as that item.
    const own = await cliJson(['--db', location, 'place', lineId, 'P', '3048c']);
    expect(own.code, own.stderr).toBe(0);
    expect(own.json.line.placed.no).toBe('3048c');
  });
});
