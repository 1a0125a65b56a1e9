import fs from 'node:fs';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { forgetMemory, placeByHand } from '../../src/hand/placement.ts';
import { orderLines } from '../../src/store/lines.ts';
import { itemMemories } from '../../src/store/memories.ts';
import { nextRedo, nextUndo, redo } from '../../src/undo/history.ts';
import { redoNext, undoNewest } from '../helpers/history.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { dumpRows, insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';

const clock = SYSTEM_CLOCK;
const BOOKKEEPING = ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk'];

const setUp = storeWithCatalogue;

describeEachStore('hand placement, remembering, undo and redo (SPEC §8)', () => {
  it('a hand placement places the line, is remembered for later imports, and is one undo step with its remembering', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(
      writeSession(db),
      { file: file('a.bsx', bsx([{ no: '3001old', name: 'Brick 2 x 4 old', colour: 5 }, { name: 'Mystery brick' }])) },
      clock,
    );
    const [byNumber, byName] = orderLines(db, r?.order.id ?? 0);
    const before = dumpRows(db, BOOKKEEPING);
    placeByHand(writeSession(db), byNumber?.id ?? 0, { type: 'P', no: '3001', colourId: null }, clock);
    placeByHand(writeSession(db), byName?.id ?? 0, { type: 'p', no: '3003', colourId: null }, clock);
    expect(
      orderLines(db, r?.order.id ?? 0).map((l) => [l.placed?.no, l.placed?.colour, l.placed?.by, l.reason]),
    ).toEqual([
      ['3001', 5, 'hand', null],
      ['3003', null, 'hand', null],
    ]);
    expect(itemMemories(db).map((p) => [p.given.no, p.given.name, p.item.no])).toEqual([
      ['3001old', null, '3001'],
      [null, 'mystery brick', '3003'],
    ]);
    // A later import uses the memory for the item, and each line keeps its own colour, checked.
    const [later] = confirmImport(
      writeSession(db),
      {
        file: file(
          'b.bsx',
          bsx([{ no: '3001old', colour: 5 }, { no: '3001old', colour: 11 }, { name: 'MYSTERY  brick' }]),
        ),
      },
      clock,
    );
    expect(
      orderLines(db, later?.order.id ?? 0).map((l) => [
        l.placed?.no,
        l.placed?.colour,
        l.placed?.by,
        l.reason?.code ?? null,
      ]),
    ).toEqual([
      ['3001', 5, 'remembered', null],
      [undefined, undefined, undefined, 'colour-not-in-catalogue'],
      ['3003', null, 'remembered', null],
    ]);
    undoNewest(db, clock); // the later import
    expect(nextUndo(db, thisComputer())?.label).toBe('Hand placement of Mystery brick (a.bsx, line 2) on P 3003');
    undoNewest(db, clock);
    undoNewest(db, clock);
    expect(dumpRows(db, BOOKKEEPING).hand_placement).toEqual([]);
    expect(dumpRows(db, BOOKKEEPING).order_line?.slice(0, 2)).toEqual(before.order_line);
  });

  it('refuses a hand placement on an item the catalogue lacks', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: file('a.bsx', bsx([{ no: '1' }])) }, clock);
    const line = orderLines(db, r?.order.id ?? 0)[0]?.id ?? 0;
    expect(() => placeByHand(writeSession(db), line, { type: 'P', no: '9999', colourId: null }, clock)).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
    expect(() => placeByHand(writeSession(db), line, { type: 'P', no: '3001', colourId: 77 }, clock)).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
    expect(() => placeByHand(writeSession(db), line, { type: 'Z', no: '3001', colourId: null }, clock)).toThrow(
      expect.objectContaining({ code: 'invalid-argument' }),
    );
    expect(nextUndo(db, thisComputer())?.kind).toBe('import');
  });

  it('forgetting a remembered placement is an undo step; undo brings the memory back', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: file('a.bsx', bsx([{ no: 'x1' }])) }, clock);
    placeByHand(
      writeSession(db),
      orderLines(db, r?.order.id ?? 0)[0]?.id ?? 0,
      { type: 'P', no: '3003', colourId: null },
      clock,
    );
    const [memory] = itemMemories(db);
    forgetMemory(writeSession(db), 'item', memory?.id ?? 0, clock);
    expect(itemMemories(db)).toEqual([]);
    undoNewest(db, clock);
    expect(itemMemories(db)).toEqual([memory]);
    redoNext(db, clock);
    expect(itemMemories(db)).toEqual([]);
  });

  it('undo of an import marks the document undone (its rows stay); redo brings it back; a new step ends the redo', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: file('a.bsx', bsx([{ no: '3001' }, { no: '3003' }])) }, clock);
    const rows = dumpRows(db, BOOKKEEPING);
    expect(undoNewest(db, clock).label).toBe('Import of a.bsx');
    expect(orderLines(db, r?.order.id ?? 0)).toEqual([]);
    expect(db.prepare('SELECT state, undone_at IS NOT NULL AS stamped FROM document').get()).toEqual({
      state: 'undone',
      stamped: 1,
    });
    expect(db.prepare('SELECT count(*) FROM order_line').pluck().get()).toBe(2);
    expect(nextRedo(db, thisComputer())?.label).toBe('Import of a.bsx');
    redoNext(db, clock);
    expect(dumpRows(db, BOOKKEEPING)).toEqual(rows);
    undoNewest(db, clock);
    confirmImport(writeSession(db), { file: file('c.bsx', bsx([{ no: '3001' }])) }, clock);
    expect(nextRedo(db, thisComputer())).toBeNull();
    // The redo list was dropped by the new step: a Redo that named it is refused, naming what happened.
    expect(() => redo(writeSession(db), clock, 1)).toThrow(expect.objectContaining({ code: 'step-moved' }));
  });

  it('one history per store, shared by processes and kept across restarts (CLI place, undo, redo)', async () => {
    const { db, dbPath } = await setUp();
    const doc = path.join(tempDir(), 'a.bsx');
    fs.writeFileSync(doc, bsx([{ no: 'old-1', name: 'Thing' }]));
    expect((await cliJson(['--db', dbPath, 'import', doc])).code).toBe(0);
    const line = orderLines(db, 1)[0]?.id ?? 0;
    const placed = await cliJson(['--db', dbPath, 'place', String(line), 'P', '3001', '--colour', '5']);
    expect(placed.json.line).toMatchObject({
      id: line,
      placed: { type: 'P', no: '3001', colour: 5, by: 'hand' },
      reason: null,
    });
    expect((await cliJson(['--db', dbPath, 'undo'])).json).toMatchObject({ step: { kind: 'hand-placement' } });
    expect(orderLines(db, 1)[0]?.placed).toBeNull();
    // This process sees the CLI's step, and undoes the next one itself.
    expect(undoNewest(db, clock).kind).toBe('import');
    expect((await cliJson(['--db', dbPath, 'redo'])).json).toMatchObject({ step: { kind: 'import' } });
    expect((await cliJson(['--db', dbPath, 'redo'])).json).toMatchObject({ step: { kind: 'hand-placement' } });
    expect(orderLines(db, 1)[0]?.placed).toMatchObject({ no: '3001', by: 'hand' });
    const nothing = await cliJson(['--db', dbPath, 'redo']);
    expect(nothing.code).toBe(1);
    expect(nothing.json.error).toEqual({ code: 'nothing-to-redo', message: 'There is nothing to redo.' });
  });

  it('a step is recorded whole, its changes in order, whether it has a few or more than one server statement takes', async () => {
    const { db } = await setUp();
    // 1,300 lines giving one unknown number: placing one by hand places the others at once, one step of
    // 1,301 changes (a server store writes a step of up to 1,000 in the statement that writes the step).
    const [r] = confirmImport(
      writeSession(db),
      { file: file('many.bsx', bsx([...Array.from({ length: 1300 }, () => ({ no: 'gone-1' })), { no: 'gone-2' }])) },
      clock,
    );
    const lines = orderLines(db, r?.order.id ?? 0);
    const before = dumpRows(db, ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk']);
    const steps = [
      placeByHand(writeSession(db), lines[1300]?.id ?? 0, { type: 'P', no: '3003', colourId: null }, clock).step,
      placeByHand(writeSession(db), lines[0]?.id ?? 0, { type: 'P', no: '3001', colourId: null }, clock).step,
    ];
    const changes = db.prepare(
      'SELECT step_id AS step, count(*) AS n FROM undo_change GROUP BY step_id ORDER BY step_id',
    );
    expect(changes.all().slice(-2)).toEqual([
      { step: steps[0]?.id, n: 3 }, // the line, the memory it made, and how it was taught
      { step: steps[1]?.id, n: 1302 }, // the line, the memory, its teaching, and the 1,299 other lines giving its number
    ]);
    // Each step's changes are numbered in the order they were made: the line placed by hand first.
    const firstOf = (step: number | undefined) =>
      db
        .prepare('SELECT table_name AS t, row_id AS id FROM undo_change WHERE step_id = ? ORDER BY id LIMIT 1')
        .get(step);
    expect(firstOf(steps[1]?.id)).toEqual({ t: 'order_line', id: lines[0]?.id });
    expect(db.prepare('SELECT step_id FROM undo_step_catalogue ORDER BY step_id').pluck().all().slice(-2)).toEqual(
      steps.map((s) => s?.id),
    );
    const placed = () => orderLines(db, r?.order.id ?? 0).filter((l) => l.placed !== null).length;
    expect(placed()).toBe(1301);
    undoNewest(db, clock);
    expect(placed()).toBe(1);
    undoNewest(db, clock);
    expect(placed()).toBe(0);
    redoNext(db, clock);
    redoNext(db, clock);
    expect(placed()).toBe(1301);
    undoNewest(db, clock);
    undoNewest(db, clock);
    expect(dumpRows(db, ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk']).order_line).toEqual(
      before.order_line,
    );
  });

  it('undo and redo place the lines they touch again against the current catalogue, hand placements as restored', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: file('a.bsx', bsx([{ no: '5555' }, { no: '6666' }])) }, clock);
    placeByHand(
      writeSession(db),
      orderLines(db, r?.order.id ?? 0)[1]?.id ?? 0,
      { type: 'P', no: '3003', colourId: null },
      clock,
    );
    undoNewest(db, clock);
    undoNewest(db, clock); // the import: document undone
    insertItem(db, { no: '5555', name: 'New in the catalogue' }); // the catalogue grew meanwhile
    redoNext(db, clock); // the import again: its lines are placed against today's catalogue
    expect(orderLines(db, r?.order.id ?? 0).map((l) => [l.placed?.no ?? null, l.placed?.by ?? null])).toEqual([
      ['5555', 'number'],
      [null, null],
    ]);
    redoNext(db, clock);
    expect(orderLines(db, r?.order.id ?? 0)[1]?.placed).toMatchObject({ no: '3003', by: 'hand' });
  });
});
