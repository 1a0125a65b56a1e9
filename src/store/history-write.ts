/**
 * A new undo step written after its changes (SPEC §8), in the write transaction of the action it records.
 */
import type { StoreDb } from './db.ts';
import { onServer, runLater } from './dialect.ts';
import { OF_DESK, type StoredChange } from './history.ts';
import { insertRows, SERVER_BATCH } from './insert-rows.ts';
import { CATALOGUE_GENERATION_SQL } from './settings.ts';

/** `undo_change`'s columns, in the order a step's changes are written. */
const CHANGE_COLUMNS = ['step_id', 'table_name', 'row_id', 'before', 'after'] as const;

/** The desk's undone steps, bound as the statement's desk parameter. */
const UNDONE_OF_DESK = `SELECT s.id FROM undo_step s WHERE s.state = 'undone' AND ${OF_DESK}`;

/**
 * Writes the step after its changes: drops the desk's steps that could still have been redone, gives
 * the step the next id, and records its row, its desk, the catalogue's generation as the step leaves it,
 * and its changes in their order (undo applies them backwards by id). Gives a function that gives the
 * step's id.
 *
 * A step's id is never given again, not even that of a step the new one drops: Undo and Redo name the
 * step they expect by its id, and a dropped step's id on a new step would let a stale screen take back
 * that new step instead of being refused (step-moved).
 *
 * A server store is a round trip a statement away (ADR 0027), and every one of them is made holding the
 * store's writer lock, which the other desks wait for: there all of it is one statement, for a step of
 * up to a batch of changes (a hand placement, an Undo's own step), which goes with the COMMIT; its id is
 * given once asked for (after the COMMIT).
 */
export function writeStep(
  db: StoreDb,
  step: { readonly kind: string; readonly label: string; readonly createdAt: string; readonly desk: string },
  changes: readonly StoredChange[],
): () => number {
  const rows = (id: number | null) =>
    changes.map((c) => ({
      step_id: id,
      table_name: c.table,
      row_id: c.rowId,
      before: c.before === null ? null : JSON.stringify(c.before),
      after: c.after === null ? null : JSON.stringify(c.after),
    }));
  if (onServer(db) && changes.length <= SERVER_BATCH) {
    // One snapshot for all of it: max(id) still counts the steps the statement drops.
    const columns = CHANGE_COLUMNS.join(', ');
    const written = runLater(
      db,
      `WITH dropped AS (${UNDONE_OF_DESK}),
              change_gone AS (DELETE FROM undo_change WHERE step_id IN (SELECT id FROM dropped)),
              generation_gone AS (DELETE FROM undo_step_catalogue WHERE step_id IN (SELECT id FROM dropped)),
              desk_gone AS (DELETE FROM undo_step_desk WHERE step_id IN (SELECT id FROM dropped)),
              step_gone AS (DELETE FROM undo_step WHERE id IN (SELECT id FROM dropped)),
              step AS (INSERT INTO undo_step (id, kind, label, state, created_at)
                         SELECT coalesce(max(id), 0) + 1, ?, ?, 'done', ? FROM undo_step RETURNING id),
              generation AS (INSERT INTO undo_step_catalogue (step_id, generation) SELECT id, ${CATALOGUE_GENERATION_SQL} FROM step),
              desk AS (INSERT INTO undo_step_desk (step_id, desk) SELECT id, ? FROM step),
              change AS (INSERT INTO undo_change (${columns})
                           SELECT (SELECT id FROM step), table_name, row_id, before, after
                             FROM json_populate_recordset(NULL::undo_change, ?::json) WITH ORDINALITY AS r ORDER BY r.ordinality)
         SELECT id FROM step`,
      [step.desk, step.kind, step.label, step.createdAt, step.desk, JSON.stringify(rows(null))],
    );
    return () => Number(written().lastInsertRowid);
  }
  // The last id given and whether there is a redo list to drop, in one statement.
  const known = db
    .prepare(
      `SELECT (SELECT max(id) FROM undo_step) AS lastId,
              EXISTS (SELECT 1 FROM undo_step s WHERE s.state = 'undone' AND ${OF_DESK}) AS redoable`,
    )
    .get(step.desk) as { lastId: number | null; redoable: number | boolean };
  if (known.redoable === 1 || known.redoable === true) dropRedoable(db, step.desk);
  const id = (known.lastId ?? 0) + 1;
  db.prepare("INSERT INTO undo_step (id, kind, label, state, created_at) VALUES (?, ?, ?, 'done', ?)").run(
    id,
    step.kind,
    step.label,
    step.createdAt,
  );
  // Read by the insert itself: one statement.
  db.prepare(`INSERT INTO undo_step_catalogue (step_id, generation) VALUES (?, ${CATALOGUE_GENERATION_SQL})`).run(id);
  db.prepare('INSERT INTO undo_step_desk (step_id, desk) VALUES (?, ?)').run(id, step.desk);
  insertRows(db, 'undo_change', CHANGE_COLUMNS, rows(id));
  return () => id;
}

/** The desk's undone steps (a new step of the desk drops them; other desks' stay theirs to redo). */
function dropRedoable(db: StoreDb, desk: string): void {
  for (const table of ['undo_change', 'undo_step_catalogue', 'undo_step_desk'])
    db.prepare(`DELETE FROM ${table} WHERE step_id IN (${UNDONE_OF_DESK})`).run(desk);
  db.prepare(`DELETE FROM undo_step WHERE id IN (${UNDONE_OF_DESK})`).run(desk);
}
