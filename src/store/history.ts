/**
 * The undo history's steps as the store keeps them (SPEC §8): each step's row, its desk, the catalogue's
 * generation it last left, and its changes in the order they were written. Writing a new step is in
 * `history-write.ts`; what the steps mean (Undo, Redo, who built on whom) is `src/undo/history.ts`'s.
 */
import type { ReadableDb, StoreDb } from './db.ts';

export type StepKind =
  'import' | 'revival' | 'hand-placement' | 'forget-placement' | 'take-back' | 'stock-import' | 'pick-mark';

export interface StepInfo {
  readonly id: number;
  readonly kind: StepKind;
  /** What staff read on the Undo and Redo buttons. */
  readonly label: string;
  readonly createdAt: string;
  /** The desk that made it; null: made before desks were named. */
  readonly desk: string | null;
}

/** A step in the history as the history lists it: every desk's, newest first. */
export interface HistoryEntry extends StepInfo {
  readonly state: 'done' | 'undone';
}

/** One change of a step as stored: a row of `table` and its values before and after (null: no row). */
export interface StoredChange {
  readonly table: string;
  readonly rowId: number;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

/**
 * A step `s` is the desk's (bound as the statement's desk parameter), or made before desks were named: no
 * other desk's. One look-up of its desk row a step (issue 61 §1): asked as an EXISTS, a server may join
 * every step's desk row to answer for the newest step.
 */
export const OF_DESK = `NOT coalesce((SELECT k.desk <> ? FROM undo_step_desk k WHERE k.step_id = s.id), false)`;

const STEP_COLUMNS = `s.id, s.kind, s.label, s.created_at AS createdAt,
  (SELECT k.desk FROM undo_step_desk k WHERE k.step_id = s.id) AS desk`;

/** The newest done step of `desk` (what Undo takes back there), or its oldest undone one (what Redo puts back). */
export function endStepOfDesk(db: ReadableDb, desk: string, which: 'newest-done' | 'oldest-undone'): StepInfo | null {
  const [state, order] = which === 'newest-done' ? ['done', 'DESC'] : ['undone', 'ASC'];
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s WHERE s.state = '${state}' AND ${OF_DESK} ORDER BY s.id ${order} LIMIT 1`,
      )
      .get(desk) as StepInfo | undefined) ?? null
  );
}

/** Every desk's steps, newest first, at most `limit`. */
export function stepsNewestFirst(db: ReadableDb, limit: number): HistoryEntry[] {
  return db
    .prepare(`SELECT ${STEP_COLUMNS}, s.state FROM undo_step s ORDER BY s.id DESC LIMIT ?`)
    .all(limit) as HistoryEntry[];
}

export function stepById(db: StoreDb, id: number): StepInfo | null {
  return (db.prepare(`SELECT ${STEP_COLUMNS} FROM undo_step s WHERE s.id = ?`).get(id) as StepInfo | undefined) ?? null;
}

/**
 * The first step after step `stepId`, still done, of a desk other than `desk`, that changed a row step
 * `stepId` changed — or a line of a document it changed. Null when none did.
 */
export function laterStepOfOtherDeskOnItsRows(db: StoreDb, stepId: number, desk: string): StepInfo | null {
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s
          WHERE s.id > ? AND s.state = 'done' AND NOT ${OF_DESK}
            AND EXISTS (SELECT 1 FROM undo_change c WHERE c.step_id = s.id AND (
                  EXISTS (SELECT 1 FROM undo_change m
                           WHERE m.step_id = ? AND m.table_name = c.table_name AND m.row_id = c.row_id)
                  OR (c.table_name = 'order_line' AND EXISTS (
                        SELECT 1 FROM undo_change m JOIN order_line l ON l.document_id = m.row_id
                         WHERE m.step_id = ? AND m.table_name = 'document' AND l.id = c.row_id))))
          ORDER BY s.id LIMIT 1`,
      )
      .get(stepId, desk, stepId, stepId) as StepInfo | undefined) ?? null
  );
}

/** The newest done step that changed row `rowId` of `table`: found from the row's changes (`undo_change_by_row`). */
export function newestStepTouchingRow(db: StoreDb, table: string, rowId: number): StepInfo | null {
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s
          WHERE s.id = (SELECT max(c.step_id) FROM undo_change c JOIN undo_step t ON t.id = c.step_id
                         WHERE c.table_name = ? AND c.row_id = ? AND t.state = 'done')`,
      )
      .get(table, rowId) as StepInfo | undefined) ?? null
  );
}

/** The newest step's id (0: none yet). */
export function newestStepId(db: ReadableDb): number {
  return Number(db.prepare('SELECT coalesce(max(id), 0) FROM undo_step').pluck().get());
}

/**
 * The newest done step after step `after`, of a desk other than `desk`, that changed document
 * `documentId` or one of its lines; each step looks at its own changes.
 */
export function newestStepOfOtherDeskOnDocument(
  db: StoreDb,
  documentId: number,
  after: number,
  desk: string,
): StepInfo | null {
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s
          WHERE s.id > ? AND s.state = 'done'
            AND EXISTS (SELECT 1 FROM undo_step_desk k WHERE k.step_id = s.id AND k.desk <> ?)
            AND EXISTS (SELECT 1 FROM undo_change c
                         WHERE c.step_id = s.id
                           AND ((c.table_name = 'document' AND c.row_id = ?)
                             OR (c.table_name = 'order_line'
                                 AND EXISTS (SELECT 1 FROM order_line l WHERE l.id = c.row_id AND l.document_id = ?))))
          ORDER BY s.id DESC LIMIT 1`,
      )
      .get(after, desk, documentId, documentId) as StepInfo | undefined) ?? null
  );
}

/** Step `stepId`'s changes in the order they were written. */
export function changesOfStep(db: StoreDb, stepId: number): StoredChange[] {
  const rows = db
    .prepare('SELECT table_name, row_id, before, after FROM undo_change WHERE step_id = ? ORDER BY id')
    .all(stepId) as { table_name: string; row_id: number; before: string | null; after: string | null }[];
  return rows.map((r) => ({
    table: r.table_name,
    rowId: r.row_id,
    before: r.before === null ? null : (JSON.parse(r.before) as Record<string, unknown>),
    after: r.after === null ? null : (JSON.parse(r.after) as Record<string, unknown>),
  }));
}

/** The catalogue's generation as step `stepId` was last written, undone or redone (undefined: not known). */
export function stepGeneration(db: StoreDb, stepId: number): number | undefined {
  return db.prepare('SELECT generation FROM undo_step_catalogue WHERE step_id = ?').pluck().get(stepId) as
    number | undefined;
}

export function setStepGeneration(db: StoreDb, stepId: number, generation: number): void {
  db.prepare(
    'INSERT INTO undo_step_catalogue (step_id, generation) VALUES (?, ?) ON CONFLICT (step_id) DO UPDATE SET generation = excluded.generation',
  ).run(stepId, generation);
}

export function setStepState(db: StoreDb, stepId: number, state: 'done' | 'undone'): void {
  db.prepare('UPDATE undo_step SET state = ? WHERE id = ?').run(state, stepId);
}
