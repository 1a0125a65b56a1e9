import path from 'node:path';
import { writeSession } from '../../src/store/session.ts';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import type { UndoableTable } from '../../src/undo/changes.ts';
import { undo } from '../../src/undo/history.ts';
import { bsx, file } from '../helpers/documents.ts';
import { StepRecorder } from '../../src/undo/recorder.ts';
import { buildStore, insertDocument, insertJob, insertOrder } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

// One rule for every write of a step (issue 12): the recorder refuses a table or a column undo can't
// write back — before it writes anything — as undo itself does (`applySide`).
describe("the undo recorder's guards agree", () => {
  const store = () => {
    const db = buildStore(path.join(tempDir(), 'guards.sqlite'), '4.2');
    onTestFinished(() => {
      db.close();
    });
    return db;
  };

  it('refuses a column it could not undo, on every kind of write alike, and writes nothing', () => {
    const db = store();
    const orderId = insertOrder(db, { reference: 'A' });
    const documentId = insertDocument(db, { orderId, key: 'a.bsx' });
    const rec = new StepRecorder(db, SYSTEM_CLOCK);
    const before = db.prepare('SELECT * FROM document WHERE id = ?').get(documentId);
    expect(() => rec.update('document', documentId, { state: 'undone', secret: 'x' })).toThrow(
      /document\.secret is not an undoable column/,
    );
    expect(() =>
      rec.insert('taught_name', { item_type: 'P', item_no: '1', name: 'n', name_key: 'n', created_at: 'now', id: 9 }),
    ).toThrow(/taught_name\.id is not an undoable column/);
    expect(() =>
      rec.set('document', documentId, { state: 'undone', file_path: '/etc' }, { state: 'imported' }),
    ).toThrow(/not an undoable column/);
    expect(() =>
      rec.insertKept('document', { order_id: orderId, doc_key: 'b', path: '/etc' }, { state: 'undone' }),
    ).toThrow(/document\.path is not an undoable column/);
    expect(() =>
      rec.insertAllKept('order_line', ['document_id', 'secret'], [{ document_id: documentId, secret: 1 }]),
    ).toThrow(/order_line\.secret is not an undoable column/);
    expect(db.prepare('SELECT * FROM document WHERE id = ?').get(documentId)).toEqual(before);
    expect(db.prepare('SELECT count(*) FROM taught_name').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM document').pluck().get()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM order_line').pluck().get()).toBe(0);
    expect(rec.changes).toEqual([]);
  });

  it('refuses a table that is not undoable, even for a delete', () => {
    const rec = new StepRecorder(store(), SYSTEM_CLOCK);
    expect(() => rec.delete('setting' as UndoableTable, 1)).toThrow(/setting is not an undoable table/);
    expect(() => rec.insert('job' as UndoableTable, {})).toThrow(/job is not an undoable table/);
  });

  it('still writes and records what it can undo', () => {
    const db = store();
    const orderId = insertOrder(db, { reference: 'A' });
    const documentId = insertDocument(db, { orderId, key: 'a.bsx' });
    const rec = new StepRecorder(db, SYSTEM_CLOCK);
    rec.update('document', documentId, { state: 'undone' });
    expect(rec.changes).toEqual([
      { table: 'document', rowId: documentId, before: { state: 'imported' }, after: { state: 'undone' } },
    ]);
  });

  it("an import writes its rows through the recorder, and its step holds one change: the document's state", () => {
    const db = store();
    const lines = Array.from({ length: 500 }, (_, i) => ({ no: `n${i}`, qty: 1 }));
    const [result] = confirmImport(writeSession(db), { file: file('big.bsx', bsx(lines)) }, SYSTEM_CLOCK);
    const documentId = result?.document.id ?? 0;
    const changes = db.prepare('SELECT table_name, row_id, before, after FROM undo_change').all();
    expect(changes).toEqual([
      {
        table_name: 'document',
        row_id: documentId,
        before: JSON.stringify({ state: 'undone', undone_at: { $now: true } }),
        after: JSON.stringify({ state: 'imported', undone_at: null }),
      },
    ]);
    const step = db.prepare('SELECT max(id) FROM undo_step').pluck().get() as number;
    undo(writeSession(db), SYSTEM_CLOCK, step);
    // Undone, not deleted: the order and its 500 lines stay for a revival.
    expect(db.prepare('SELECT state FROM document WHERE id = ?').pluck().get(documentId)).toBe('undone');
    expect(db.prepare('SELECT count(*) FROM order_line WHERE document_id = ?').pluck().get(documentId)).toBe(500);
    expect(db.prepare('SELECT count(*) FROM shop_order').pluck().get()).toBe(1);
  });

  it('undo reads a step naming a table it never writes (not written by brick-work): refused in words, nothing deleted', () => {
    const db = store();
    const [result] = confirmImport(
      writeSession(db),
      { file: file('a.bsx', bsx([{ no: '3001', qty: 1 }])) },
      SYSTEM_CLOCK,
    );
    expect(result).toBeDefined();
    const step = db.prepare('SELECT max(id) FROM undo_step').pluck().get() as number;
    // Its change, edited to delete a row of a table undo never writes: the delete path passes the guard too.
    const job = insertJob(db, { kind: 'catalogue-lookup', state: 'queued' });
    db.prepare("UPDATE undo_change SET table_name = 'job', row_id = ?, before = NULL").run(job);
    expect(() => undo(writeSession(db), SYSTEM_CLOCK, step)).toThrow(
      expect.objectContaining({ code: 'store-damaged', message: expect.stringContaining('job') }),
    );
    expect(db.prepare('SELECT count(*) FROM job WHERE id = ?').pluck().get(job)).toBe(1);
    expect(db.prepare('SELECT state FROM document').pluck().get()).toBe('imported');
  });
});
