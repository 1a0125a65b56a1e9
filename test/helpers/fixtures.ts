import { UNPLACED_REASONS } from '../../src/vocabulary/reasons.ts';
import {
  insertColour,
  insertDocument,
  insertItem,
  insertJob,
  insertJobOwner,
  insertLine,
  insertOrder,
  type Db,
  type LineRow,
} from './store-builder.ts';

/**
 * A 4.1 store as a shop would have it: a small catalogue with colours, an order whose lines 0.8.x placed
 * or left unplaced (one of each kind the 4.2 upgrade must sort out), jobs with owners, an undo step and
 * a day's call budget. `expected` is what the upgrade must make of each unplaced line.
 */
export function populate41(db: Db): { expected: Map<number, { placed: string | null; reason: string | null }> } {
  const expected = new Map<number, { placed: string | null; reason: string | null }>();
  db.transaction(() => {
    insertItem(db, { no: '3001', name: 'Brick 2 x 4', categoryId: 11 });
    insertItem(db, { no: '3003', name: 'Brick 2 x 2' });
    insertItem(db, { no: '3020', name: 'Plate 2 x 4' });
    insertItem(db, { no: '3710', name: 'Plate 1 x 4' });
    insertItem(db, { no: '3710b', name: 'Plate 1 x 4' });
    insertItem(db, { type: 'S', no: '10190-1', name: 'Market Street' });
    insertColour(db, { id: 5, name: 'Red' });
    insertColour(db, { id: 11, name: 'Black' });
    db.prepare("INSERT INTO category (id, name, source) VALUES (11, 'Brick', 'test')").run();

    const orderId = insertOrder(db, { reference: '1234567', counterparty: 'brickfan', currency: 'EUR' });
    const documentId = insertDocument(db, { orderId, key: 'bricklink-order:1234567', format: 'bricklink-order' });
    let position = 0;
    const line = (
      given: LineRow['given'],
      placed: LineRow['placed'],
      after: { placed: string | null; reason: string | null },
    ) => {
      position += 1;
      const id = insertLine(db, { documentId, position, given, placed, quantity: position, priceE4: 1250 * position });
      expected.set(id, after);
    };
    line(
      { no: '3001', colourId: 5 },
      { type: 'P', no: '3001', colourId: 5, by: 'number' },
      { placed: 'P 3001', reason: null },
    );
    line({ no: '3003', colourId: 11 }, null, { placed: 'P 3003', reason: null });
    line({ no: 'x999', name: 'brick  2 X 2' }, null, { placed: 'P 3003', reason: null });
    line({}, null, { placed: null, reason: UNPLACED_REASONS.noNumberNorName });
    line({ type: 'Q', no: '3001' }, null, { placed: null, reason: UNPLACED_REASONS.typeNotKnown });
    line({ name: 'Plate 1 x 4' }, null, { placed: null, reason: UNPLACED_REASONS.nameSeveral });
    line({ no: '99999' }, null, { placed: null, reason: UNPLACED_REASONS.numberNotInCatalogue });
    line({ name: 'Brick 1 x 17' }, null, { placed: null, reason: UNPLACED_REASONS.nameNotInCatalogue });
    line({ no: '3020', colourId: 999 }, null, { placed: null, reason: UNPLACED_REASONS.colourNotInCatalogue });
    line({ type: 'S', no: '10190-1' }, null, { placed: 'S 10190-1', reason: null });

    const done = insertJob(db, { kind: 'catalogue-lookup', state: 'done' });
    insertJobOwner(db, { jobId: done, pid: 4242 });
    const running = insertJob(db, { kind: 'catalogue-lookup', state: 'running', payload: { limit: 10 } });
    insertJobOwner(db, { jobId: running, pid: 4243 });
    insertJob(db, { kind: 'catalogue-lookup', state: 'queued' });

    const step = db
      .prepare(
        "INSERT INTO undo_step (kind, label, state, created_at) VALUES ('import', 'Import of order 1234567', 'done', '2026-01-01T00:00:00.000Z')",
      )
      .run().lastInsertRowid;
    db.prepare(
      `INSERT INTO undo_change (step_id, table_name, row_id, before, after)
       VALUES (?, 'document', ?, '{"state":"undone"}', '{"state":"imported"}')`,
    ).run(step, documentId);
    db.prepare("INSERT INTO call_budget (day, calls) VALUES ('2026-01-01', 17)").run();
  })();
  return { expected };
}

/** Many unplaced lines, for an upgrade that takes a while. */
export function addUnplacedLines(db: Db, count: number): void {
  const orderId = insertOrder(db, { reference: 'bulk' });
  const documentId = insertDocument(db, { orderId, key: 'bulk.csv' });
  const stmt = db.prepare(
    'INSERT INTO order_line (document_id, position, given_no, given_name, quantity) VALUES (?, ?, ?, ?, 1)',
  );
  db.transaction(() => {
    for (let i = 1; i <= count; i++) stmt.run(documentId, i, i % 3 === 0 ? '3001' : `nope-${i}`, `Thing ${i}`);
  })();
}
