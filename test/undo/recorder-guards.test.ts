import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { UndoableTable } from '../../src/undo/changes.ts';
import { StepRecorder } from '../../src/undo/recorder.ts';
import { buildStore, insertDocument, insertOrder } from '../helpers/store-builder.ts';
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

  it('refuses a column it could not undo, on insert, update and note alike, and writes nothing', () => {
    const db = store();
    const orderId = insertOrder(db, { reference: 'A' });
    const documentId = insertDocument(db, { orderId, key: 'a.bsx' });
    const rec = new StepRecorder(db);
    const before = db.prepare('SELECT * FROM document WHERE id = ?').get(documentId);
    expect(() => rec.update('document', documentId, { state: 'undone', secret: 'x' })).toThrow(
      /document\.secret is not an undoable column/,
    );
    expect(() =>
      rec.insert('taught_name', { item_type: 'P', item_no: '1', name: 'n', name_key: 'n', created_at: 'now', id: 9 }),
    ).toThrow(/taught_name\.id is not an undoable column/);
    expect(() => rec.note('document', documentId, { state: 'undone', file_path: '/etc' }, null)).toThrow(
      /not an undoable column/,
    );
    expect(db.prepare('SELECT * FROM document WHERE id = ?').get(documentId)).toEqual(before);
    expect(db.prepare('SELECT count(*) FROM taught_name').pluck().get()).toBe(0);
    expect(rec.changes).toEqual([]);
  });

  it('refuses a table that is not undoable, even for a delete', () => {
    const rec = new StepRecorder(store());
    expect(() => rec.delete('setting' as UndoableTable, 1)).toThrow(/setting is not an undoable table/);
    expect(() => rec.insert('job' as UndoableTable, {})).toThrow(/job is not an undoable table/);
  });

  it('still writes and records what it can undo', () => {
    const db = store();
    const orderId = insertOrder(db, { reference: 'A' });
    const documentId = insertDocument(db, { orderId, key: 'a.bsx' });
    const rec = new StepRecorder(db);
    rec.update('document', documentId, { state: 'undone' });
    expect(rec.changes).toEqual([
      { table: 'document', rowId: documentId, before: { state: 'imported' }, after: { state: 'undone' } },
    ]);
  });
});
