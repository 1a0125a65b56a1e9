import { expect, it, onTestFinished } from 'vitest';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { takeBack } from '../../src/documents/take-back.ts';
import { bricklinkXml } from '../../src/exports/bricklink-xml.ts';
import { summaryCsv } from '../../src/exports/summary.ts';
import { getDocument } from '../../src/store/documents.ts';
import { orderLines } from '../../src/store/lines.ts';
import { listOrders, orderSummary } from '../../src/store/orders.ts';
import { openStore } from '../../src/store/open.ts';
import { nextRedo, nextUndo } from '../../src/undo/history.ts';
import { bsx, file, orderXml } from '../helpers/documents.ts';
import { redoNext, undoNewest } from '../helpers/history.ts';
import { refusalOf } from '../helpers/refusal.ts';
import { serviceFor } from '../helpers/service.ts';
import { dumpRows, insertItem } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** A clock one minute later at each reading, so that every write has its own time. */
function ticking(): Clock {
  let t = 0;
  return { now: () => new Date(Date.UTC(2026, 3, 1, 9, t++)) };
}
const BOOKKEEPING = ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk'];

async function setUp() {
  const dbPath = newStoreLocation();
  const store = await openStore(dbPath);
  onTestFinished(() => store.close());
  for (const [no, name] of [
    ['3001', 'Brick 2 x 4'],
    ['3003', 'Brick 2 x 2'],
    ['3020', 'Plate 2 x 4'],
  ] as const)
    insertItem(store.db, { no, name });
  return { db: store.db, dbPath, clock: ticking() };
}

const market = () =>
  file(
    'Market Street.bsx',
    bsx([
      { no: '3001', qty: 2, price: '0.25' },
      { no: '9001', name: 'Odd Brick', qty: 1 },
    ]),
  );
const harbour = () => file('Harbour.bsx', bsx([{ no: '3003', qty: 4, price: '0.1' }]));
const twoOrders = () =>
  file(
    'orders.xml',
    orderXml([
      { id: '42', seller: 'ann', lines: [{ no: '3001', qty: 3 }] },
      {
        id: '43',
        seller: 'bob',
        lines: [
          { no: '3003', qty: 5 },
          { no: '3020', qty: 1 },
        ],
      },
    ]),
  );

describeEachStore('taking back an import (SPEC §8)', () => {
  it('takes back an older import while a newer one stays; Undo names it and puts every row back; Redo takes it back again', async () => {
    const { db, clock } = await setUp();
    const [old] = confirmImport(writeSession(db), { file: market() }, clock);
    const [newer] = confirmImport(writeSession(db), { file: harbour() }, clock);
    const newerStep = nextUndo(db, thisComputer());
    const newerChanges = db.prepare('SELECT * FROM undo_change WHERE step_id = ?').all(newerStep?.id);
    const before = dumpRows(db, BOOKKEEPING);

    const r = takeBack(writeSession(db), old?.document.id ?? 0, {}, clock);
    expect(r.step).toMatchObject({ kind: 'take-back', label: 'Take back of Market Street.bsx' });
    expect(r.documents.map((d) => [d.id, d.state])).toEqual([[old?.document.id, 'undone']]);
    expect(r.documents[0]?.undoneAt).toMatch(/^2026-04-01T09:/);
    // Marked undone exactly as Undo of its import would: only the document's state and undone_at moved.
    const after = dumpRows(db, BOOKKEEPING);
    expect({ ...after, document: [] }).toEqual({ ...before, document: [] });
    expect(after['document']).toEqual(
      (before['document'] as Record<string, unknown>[]).map((d) =>
        d['id'] === old?.document.id ? { ...d, state: 'undone', undone_at: r.documents[0]?.undoneAt } : d,
      ),
    );
    expect(orderLines(db, old?.order.id ?? 0)).toEqual([]);
    // The newer import and its step are untouched.
    expect(getDocument(db, newer?.document.id ?? 0).state).toBe('imported');
    expect(orderLines(db, newer?.order.id ?? 0)).toHaveLength(1);
    expect(db.prepare('SELECT * FROM undo_change WHERE step_id = ?').all(newerStep?.id)).toEqual(newerChanges);
    expect(db.prepare('SELECT state FROM undo_step WHERE id = ?').pluck().get(newerStep?.id)).toBe('done');

    expect(nextUndo(db, thisComputer())).toMatchObject({ id: r.step.id, label: 'Take back of Market Street.bsx' });
    expect(undoNewest(db, clock).label).toBe('Take back of Market Street.bsx');
    expect(dumpRows(db, BOOKKEEPING)).toEqual(before);
    expect(nextUndo(db, thisComputer())?.id).toBe(newerStep?.id);

    expect(nextRedo(db, thisComputer())?.label).toBe('Take back of Market Street.bsx');
    redoNext(db, clock);
    expect(getDocument(db, old?.document.id ?? 0).state).toBe('undone');
    expect(getDocument(db, newer?.document.id ?? 0).state).toBe('imported');
    expect(orderLines(db, old?.order.id ?? 0)).toEqual([]);
  });

  it('Undo of a take-back places its lines again when the catalogue has moved on meanwhile', async () => {
    const { db, clock } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: market() }, clock);
    takeBack(writeSession(db), r?.document.id ?? 0, {}, clock);
    insertItem(db, { no: '9001', name: 'Odd Brick' }); // a catalogue load while it was taken back
    undoNewest(db, clock);
    expect(orderLines(db, r?.order.id ?? 0).map((l) => [l.given.no, l.placed?.no ?? null, l.reason])).toEqual([
      ['3001', '3001', null],
      ['9001', '9001', null],
    ]);
  });

  it('a taken-back document is revived by importing the file again, in its order, with its own rows', async () => {
    const { db, clock } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: market() }, clock);
    const lineIds = orderLines(db, r?.order.id ?? 0).map((l) => l.id);
    confirmImport(writeSession(db), { file: harbour() }, clock);
    takeBack(writeSession(db), r?.document.id ?? 0, {}, clock);

    const plan = planImport(db, { file: market() });
    expect(plan.refusal).toBeNull();
    expect(plan.documents[0]?.revival?.document.id).toBe(r?.document.id);
    const [revived] = confirmImport(writeSession(db), { file: market() }, clock);
    expect(revived).toMatchObject({
      revived: true,
      document: { id: r?.document.id, state: 'imported' },
      order: { id: r?.order.id },
    });
    expect(orderLines(db, r?.order.id ?? 0).map((l) => l.id)).toEqual(lineIds);
    expect(orderSummary(db, r?.order.id ?? 0)).toMatchObject({ state: 'open', undoneAt: null, lines: 2 });
    expect(undoNewest(db, clock).label).toBe('Revival of Market Street.bsx');
    expect(getDocument(db, r?.document.id ?? 0).state).toBe('undone');
  });

  it('one document of a multi-ORDER file is taken back alone; the file’s others stay and are named', async () => {
    const { db, clock } = await setUp();
    const [a, b] = confirmImport(writeSession(db), { file: twoOrders() }, clock);
    // Another file of the same name, imported later, is not part of that file.
    const [other] = confirmImport(
      writeSession(db),
      { file: file('orders.xml', orderXml([{ id: '44', lines: [{ no: '3001' }] }])) },
      clock,
    );

    const r = takeBack(writeSession(db), a?.document.id ?? 0, { wholeFile: false }, clock);
    expect(r.step.label).toBe('Take back of bricklink-order:42');
    expect(r.documents.map((d) => d.id)).toEqual([a?.document.id]);
    expect(r.stillImported).toEqual([
      { id: b?.document.id, key: 'bricklink-order:43', orderId: b?.order.id, orderReference: '43' },
    ]);
    expect(getDocument(db, b?.document.id ?? 0).state).toBe('imported');
    expect(getDocument(db, other?.document.id ?? 0).state).toBe('imported');

    // The whole file can't come back while its other document is still imported: the refusal says how.
    const again = refusalOf(() => confirmImport(writeSession(db), { file: twoOrders() }, clock));
    expect(again.code).toBe('duplicate-document');
    expect(again.message).toContain(`brick-work take-back ${b?.document.id}`);
    const plan = planImport(db, { file: twoOrders() });
    expect(plan.documents.map((d) => [d.revival?.document.id ?? null, d.duplicateOf?.id ?? null])).toEqual([
      [a?.document.id, null],
      [null, b?.document.id],
    ]);
  });

  it('the whole of a multi-ORDER file is taken back in one step and imported again whole', async () => {
    const { db, clock } = await setUp();
    const [a, b] = confirmImport(writeSession(db), { file: twoOrders() }, clock);
    const [other] = confirmImport(
      writeSession(db),
      { file: file('orders.xml', orderXml([{ id: '44', lines: [{ no: '3001' }] }])) },
      clock,
    );
    const before = dumpRows(db, BOOKKEEPING);

    // From either of its documents.
    const r = takeBack(writeSession(db), b?.document.id ?? 0, { wholeFile: true }, clock);
    expect(r.step).toMatchObject({ kind: 'take-back', label: 'Take back of 2 documents from orders.xml' });
    expect(r.documents.map((d) => [d.id, d.state])).toEqual([
      [a?.document.id, 'undone'],
      [b?.document.id, 'undone'],
    ]);
    expect(r.stillImported).toEqual([]);
    expect(getDocument(db, other?.document.id ?? 0).state).toBe('imported');
    expect(
      listOrders(db)
        .filter((o) => o.state === 'undone')
        .map((o) => o.reference),
    ).toEqual(['42', '43']);

    const revived = confirmImport(writeSession(db), { file: twoOrders() }, clock);
    expect(revived.map((x) => [x.document.id, x.revived])).toEqual([
      [a?.document.id, true],
      [b?.document.id, true],
    ]);
    expect(listOrders(db).map((o) => o.state)).toEqual(['open', 'open', 'open']);

    undoNewest(db, clock); // the revival
    expect(undoNewest(db, clock).label).toBe('Take back of 2 documents from orders.xml');
    expect(dumpRows(db, BOOKKEEPING)).toEqual(before);
  });

  it('refuses an already-undone document with already-undone, changing nothing; an unknown one with not-found', async () => {
    const { db, clock } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: market() }, clock);
    const step = takeBack(writeSession(db), r?.document.id ?? 0, {}, clock).step;
    const undoneAt = getDocument(db, r?.document.id ?? 0).undoneAt;
    const before = dumpRows(db);

    for (const wholeFile of [false, true]) {
      const refused = refusalOf(() => takeBack(writeSession(db), r?.document.id ?? 0, { wholeFile }, clock));
      expect(refused.code).toBe('already-undone');
      expect(refused.message).toBe(
        `Market Street.bsx was already taken back on ${undoneAt?.slice(0, 16).replace('T', ' ')}: there is nothing to take back. Import the file again to revive it.`,
      );
    }
    expect(dumpRows(db)).toEqual(before);
    expect(nextUndo(db, thisComputer())?.id).toBe(step.id);

    // Undone by Undo of its import is undone just the same.
    const [h] = confirmImport(writeSession(db), { file: harbour() }, clock);
    undoNewest(db, clock);
    expect(refusalOf(() => takeBack(writeSession(db), h?.document.id ?? 0, {}, clock)).code).toBe('already-undone');
    // Undo of that import left a redo; a refusal does not drop it.
    expect(nextRedo(db, thisComputer())?.label).toBe('Import of Harbour.bsx');
    expect(refusalOf(() => takeBack(writeSession(db), 999, {}, clock)).code).toBe('not-found');
  });

  it('an order whose documents are all taken back is undone: the summary leaves it out and its BrickLink export is refused with the date', async () => {
    const { db, clock } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: market() }, clock);
    confirmImport(
      writeSession(db),
      { file: file('Market Street extra.bsx', bsx([{ no: '3020', qty: 1 }])), orderId: r?.order.id ?? 0 },
      clock,
    );
    const [kept] = confirmImport(writeSession(db), { file: harbour() }, clock);
    const orderId = r?.order.id ?? 0;
    const docs = db.prepare('SELECT id FROM document WHERE order_id = ? ORDER BY id').pluck().all(orderId) as number[];

    takeBack(writeSession(db), docs[0] ?? 0, {}, clock);
    // One of its two documents is still imported: still an open order, and exported.
    expect(orderSummary(db, orderId)).toMatchObject({ state: 'open', undoneAt: null, lines: 1 });
    expect(bricklinkXml(db, orderId).content).toContain('<ITEMID>3020</ITEMID>');
    expect(summaryCsv(db)).toContain('Market Street.bsx,');

    takeBack(writeSession(db), docs[1] ?? 0, {}, clock);
    const undoneAt = getDocument(db, docs[1] ?? 0).undoneAt;
    expect(orderSummary(db, orderId)).toMatchObject({ state: 'undone', undoneAt, lines: 0 });
    expect(orderSummary(db, kept?.order.id ?? 0)).toMatchObject({ state: 'open', undoneAt: null });

    const summary = summaryCsv(db);
    expect(summary).not.toContain('Market Street');
    expect(summary).toContain('Harbour.bsx,');
    const refused = refusalOf(() => bricklinkXml(db, orderId));
    expect(refused.code).toBe('already-undone');
    expect(refused.message).toBe(
      `Order Market Street.bsx (#${orderId}) was taken back on ${undoneAt?.slice(0, 16).replace('T', ' ')}: none of its documents is imported, so there is nothing to export. Import the file again to revive it.`,
    );
  });

  it('the duplicate-document refusal names the take-back', async () => {
    const { db, clock } = await setUp();
    const [r] = confirmImport(writeSession(db), { file: market() }, clock);
    const refused = refusalOf(() => confirmImport(writeSession(db), { file: market() }, clock));
    expect(refused.code).toBe('duplicate-document');
    expect(refused.message).toBe(
      `Market Street.bsx was already imported on 2026-04-01 09:00 into order Market Street.bsx (#${r?.order.id}); ` +
        `take that import back first (Take back this import, or brick-work take-back ${r?.document.id}) to import it again.`,
    );
  });
});

describeEachStore('taking back through the contract', () => {
  it('documents.list and documents.takeBack: the step, what was taken back, store.changed, and the order shown as undone', async () => {
    const { db, dbPath } = await setUp();
    const events: string[] = [];
    const service = serviceFor(db, dbPath, { emit: (name) => void events.push(name) });
    const imported = await service.call('import.confirm', { file: twoOrders() });
    expect(imported.ok).toBe(true);

    const listed = await service.call('documents.list', {});
    if (!listed.ok) throw new Error(listed.error.message);
    const [a, b] = listed.value;
    expect(a).toMatchObject({
      key: 'bricklink-order:42',
      state: 'imported',
      undoneAt: null,
      sameFile: [{ id: b?.id, key: 'bricklink-order:43' }],
    });

    // The duplicate preview points at the document to take back.
    const preview = await service.call('import.preview', { file: twoOrders() });
    expect(preview.ok && preview.value.documents.map((d) => d.duplicateOf?.id)).toEqual([a?.id, b?.id]);

    events.length = 0;
    const taken = await service.call('documents.takeBack', { documentId: a?.id ?? 0 });
    expect(taken).toMatchObject({
      ok: true,
      value: {
        step: { kind: 'take-back', label: 'Take back of bricklink-order:42' },
        takenBack: [{ id: a?.id, state: 'undone', sameFile: [] }],
        stillImported: [{ id: b?.id, key: 'bricklink-order:43' }],
      },
    });
    expect(events).toContain('store.changed');
    expect(await service.call('history.state', {})).toMatchObject({
      value: { undo: { kind: 'take-back', label: 'Take back of bricklink-order:42' } },
    });

    const order = await service.call('orders.get', { orderId: a?.orderId ?? 0 });
    expect(order).toMatchObject({
      ok: true,
      value: { order: { state: 'undone', lines: 0 }, documents: [{ id: a?.id, state: 'undone' }] },
    });
    expect(await service.call('documents.list', { orderId: b?.orderId ?? 0 })).toMatchObject({
      value: [{ id: b?.id, state: 'imported' }],
    });
    expect(await service.call('documents.takeBack', { documentId: a?.id ?? 0, wholeFile: true })).toMatchObject({
      ok: false,
      error: { code: 'already-undone' },
    });
    expect(await service.call('export.bricklink', { orderId: a?.orderId ?? 0 })).toMatchObject({
      ok: false,
      error: { code: 'already-undone' },
    });
    expect(await service.call('documents.list', { orderId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(await service.call('documents.takeBack', { documentId: b?.id ?? 0, wholeFile: 'yes' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-argument' },
    });

    const readOnly = serviceFor(db, dbPath, { readOnly: { reason: 'the folder is not writable', snapshot: false } });
    expect(await readOnly.call('documents.takeBack', { documentId: b?.id ?? 0 })).toMatchObject({
      ok: false,
      error: { code: 'read-only-store' },
    });
    expect(getDocument(db, b?.id ?? 0).state).toBe('imported');
  });
});
