import type { StoreDb } from '../store/db.ts';
import { isoNow, type Clock } from '../clock.ts';
import { BrickWorkError } from '../errors.ts';
import { placeLinesAgain } from '../placement/place-lines.ts';
import { CATALOGUE_GENERATION_SQL, catalogueGeneration } from '../store/settings.ts';
import { onServer, runLater } from '../store/dialect.ts';
import { insertRows, SERVER_BATCH } from '../store/insert-rows.ts';
import { applySide, type Change } from './changes.ts';
import { deskOf } from './desk.ts';
import { StepRecorder } from './recorder.ts';

/**
 * The undo history, kept in the store (so Undo works after a restart and is shared by the app and the
 * CLI). Every writing action is one step, recording its desk (SPEC §8). On a desk, Undo takes back the
 * desk's newest done step, Redo puts back its oldest undone one, and a new step drops the desk's steps
 * that could still have been redone. A step another desk built on since — a later step of it changed a
 * row the undo or redo would write — is refused (`step-conflict`). Steps made before desks were named
 * belong to every desk. One desk: one history, as before.
 */

export type StepKind = 'import' | 'revival' | 'hand-placement' | 'forget-placement' | 'take-back';

export interface StepInfo {
  readonly id: number;
  readonly kind: StepKind;
  /** What staff read on the Undo and Redo buttons. */
  readonly label: string;
  readonly createdAt: string;
  /** The desk that made it; null: made before desks were named. */
  readonly desk: string | null;
}

/** What a step's writer gives back: its result, and the step's kind and label (known once it has looked). */
export interface Written<T> {
  readonly value: T;
  readonly kind: StepKind;
  readonly label: string;
}

/** Runs `write` as one undo step, in one write transaction with its record. */
export function recordStep<T>(db: StoreDb, clock: Clock, write: (rec: StepRecorder) => Written<T>): T {
  return recordStepWithInfo(db, clock, write).value;
}

/** As `recordStep`, and says which step it wrote (what Undo will now name). */
export function recordStepWithInfo<T>(
  db: StoreDb,
  clock: Clock,
  write: (rec: StepRecorder) => Written<T>,
): { value: T; step: StepInfo } {
  const written = db
    .transaction(() => {
      const desk = deskOf(db);
      const rec = new StepRecorder(db, clock);
      const { value, kind, label } = write(rec);
      const step = { kind, label, createdAt: isoNow(clock), desk };
      return { value, step, id: writeStep(db, step, rec.changes) };
    })
    .immediate();
  // Read once it is committed: on a server the step's record went with the COMMIT (one round trip).
  return { value: written.value, step: { id: written.id(), ...written.step } };
}

/** `undo_change`'s columns, in the order a step's changes are written. */
const CHANGE_COLUMNS = ['step_id', 'table_name', 'row_id', 'before', 'after'] as const;

/**
 * Writes the step after its changes: drops the desk's steps that could still have been redone, gives
 * the step the next id, and records its row, its desk, the catalogue's generation as the step leaves it,
 * and its changes in their order (undo applies them backwards by id). Gives the step's id.
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
function writeStep(
  db: StoreDb,
  step: Omit<StepInfo, 'id' | 'desk'> & { readonly desk: string },
  changes: readonly Change[],
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
    const undone = `SELECT s.id FROM undo_step s WHERE s.state = 'undone' AND ${OF_DESK}`;
    const columns = CHANGE_COLUMNS.join(', ');
    const written = runLater(
      db,
      `WITH dropped AS (${undone}),
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

/** A step `s` is the desk's (bound as the statement's desk parameter), or made before desks were named. */
const OF_DESK = `(NOT EXISTS (SELECT 1 FROM undo_step_desk k WHERE k.step_id = s.id)
   OR EXISTS (SELECT 1 FROM undo_step_desk k WHERE k.step_id = s.id AND k.desk = ?))`;

/** The desk's undone steps (a new step of the desk drops them; other desks' stay theirs to redo). */
function dropRedoable(db: StoreDb, desk: string): void {
  const undone = `SELECT s.id FROM undo_step s WHERE s.state = 'undone' AND ${OF_DESK}`;
  for (const table of ['undo_change', 'undo_step_catalogue', 'undo_step_desk'])
    db.prepare(`DELETE FROM ${table} WHERE step_id IN (${undone})`).run(desk);
  db.prepare(`DELETE FROM undo_step WHERE id IN (${undone})`).run(desk);
}

const STEP_COLUMNS = `s.id, s.kind, s.label, s.created_at AS createdAt,
  (SELECT k.desk FROM undo_step_desk k WHERE k.step_id = s.id) AS desk`;

/** The step Undo takes back on `desk` (this connection's, by default): its newest done one. */
export function nextUndo(db: StoreDb, desk: string = deskOf(db)): StepInfo | null {
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s WHERE s.state = 'done' AND ${OF_DESK} ORDER BY s.id DESC LIMIT 1`,
      )
      .get(desk) as StepInfo | undefined) ?? null
  );
}

/** The step Redo puts back on `desk`: its oldest undone one. */
export function nextRedo(db: StoreDb, desk: string = deskOf(db)): StepInfo | null {
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s WHERE s.state = 'undone' AND ${OF_DESK} ORDER BY s.id ASC LIMIT 1`,
      )
      .get(desk) as StepInfo | undefined) ?? null
  );
}

/** A step in the history as the history lists it: every desk's, newest first. */
export interface HistoryEntry extends StepInfo {
  readonly state: 'done' | 'undone';
}

export function historySteps(db: StoreDb, limit: number): HistoryEntry[] {
  return db
    .prepare(`SELECT ${STEP_COLUMNS}, s.state FROM undo_step s ORDER BY s.id DESC LIMIT ?`)
    .all(limit) as HistoryEntry[];
}

/**
 * The first later step of another desk, still done, that changed a row `step` would write back — or a
 * line of a document it would take back or bring back (its fix would vanish or return with it): Undo or
 * Redo of `step` would overwrite what that desk did (SPEC §8). Null when none did.
 */
function builtOnBy(db: StoreDb, step: StepInfo, desk: string): StepInfo | null {
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
      .get(step.id, desk, step.id, step.id) as StepInfo | undefined) ?? null
  );
}

/** The newest done step that changed row `rowId` of `table`: who last wrote it through the history. */
export function lastStepTouching(db: StoreDb, table: string, rowId: number): StepInfo | null {
  return (
    (db
      .prepare(
        `SELECT ${STEP_COLUMNS} FROM undo_step s
          WHERE s.state = 'done' AND EXISTS (SELECT 1 FROM undo_change c WHERE c.step_id = s.id AND c.table_name = ? AND c.row_id = ?)
          ORDER BY s.id DESC LIMIT 1`,
      )
      .get(table, rowId) as StepInfo | undefined) ?? null
  );
}

/** The store's newest history step's id (0: none yet): what a screen read "as of". */
export function newestStep(db: StoreDb): number {
  return Number(db.prepare('SELECT coalesce(max(id), 0) FROM undo_step').pluck().get());
}

/**
 * The newest done step after `after`, made by a desk other than `desk`, that changed one of the documents
 * or one of their lines: what makes a take-back's "as the desk saw it" stale (SPEC §14). Steps are walked
 * from the newest down to `after` only, and each looks at its own changes.
 */
export function laterStepOfOtherDesk(
  db: StoreDb,
  documentIds: readonly number[],
  after: number,
  desk: string,
): StepInfo | null {
  for (const documentId of documentIds) {
    const step = db
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
      .get(after, desk, documentId, documentId) as StepInfo | undefined;
    if (step !== undefined) return step;
  }
  return null;
}

function stepConflict(direction: 'undo' | 'redo', step: StepInfo, by: StepInfo): BrickWorkError {
  const what = direction === 'undo' ? 'Undo' : 'Redo';
  return new BrickWorkError(
    'step-conflict',
    `${what} of "${step.label}" (step ${step.id}) would overwrite what ${deskWords(by.desk)} did since: "${by.label}" (step ${by.id}) changed the same rows. Nothing was changed; that desk can undo its step first.`,
    undefined,
    by.id,
  );
}

/** A desk in staff's words. */
export function deskWords(desk: string | null): string {
  return desk === null ? 'a desk before desks were named' : `the desk "${desk}"`;
}

function changesOf(db: StoreDb, stepId: number): Change[] {
  const rows = db
    .prepare('SELECT table_name, row_id, before, after FROM undo_change WHERE step_id = ? ORDER BY id')
    .all(stepId) as {
    table_name: Change['table'];
    row_id: number;
    before: string | null;
    after: string | null;
  }[];
  return rows.map((r) => ({
    table: r.table_name,
    rowId: r.row_id,
    before: r.before === null ? null : (JSON.parse(r.before) as Change['before']),
    after: r.after === null ? null : (JSON.parse(r.after) as Change['after']),
  }));
}

/**
 * The lines whose placement an undo or redo may have made stale: lines it wrote, and the lines of
 * documents it made saved again. When the catalogue has moved on, they are placed again against it
 * (hand placements stay as restored).
 */
function touchedLines(db: StoreDb, changes: readonly Change[], side: 'before' | 'after'): number[] {
  const ids = new Set<number>();
  const ofDocument = db.prepare('SELECT id FROM order_line WHERE document_id = ?').pluck();
  for (const c of changes) {
    const values = c[side];
    if (values === null) continue;
    if (c.table === 'order_line') ids.add(c.rowId);
    if (c.table === 'document' && values['state'] === 'imported')
      for (const id of ofDocument.all(c.rowId) as number[]) ids.add(id);
  }
  return [...ids];
}

function stepNamed(db: StoreDb, id: number): StepInfo | null {
  return (db.prepare(`SELECT ${STEP_COLUMNS} FROM undo_step s WHERE s.id = ?`).get(id) as StepInfo | undefined) ?? null;
}

/**
 * Undo and Redo name the step they expect (SPEC §8): the one the screen's label named. Checked inside the
 * write transaction, like the job queue's compare-and-set: if another process wrote meanwhile (or a new
 * write dropped the redo list), the step is not the one named, and nothing changes.
 */
function stepMoved(db: StoreDb, direction: 'undo' | 'redo', expected: number, actual: StepInfo | null): BrickWorkError {
  const named = stepNamed(db, expected);
  const shown =
    named === null ? `step ${expected}, which is no longer in the history` : `"${named.label}" (step ${expected})`;
  const what = direction === 'undo' ? 'Undo' : 'Redo';
  const now =
    actual === null
      ? `there is nothing to ${direction} now`
      : `${direction === 'undo' ? 'it would now take back' : 'it would now put back'} "${actual.label}" (step ${actual.id})`;
  return new BrickWorkError(
    'step-moved',
    `${what} was for ${shown}, but this desk's history has moved on (another window or the command line of this desk wrote meanwhile): ${now}. Nothing was changed; look at the new label and try again.`,
  );
}

function move(db: StoreDb, direction: 'undo' | 'redo', clock: Clock, expected: number): StepInfo {
  return db
    .transaction(() => {
      const desk = deskOf(db);
      const step = direction === 'undo' ? nextUndo(db, desk) : nextRedo(db, desk);
      if (step?.id !== expected) throw stepMoved(db, direction, expected, step);
      const by = builtOnBy(db, step, desk);
      if (by !== null) throw stepConflict(direction, step, by);
      const changes = changesOf(db, step.id);
      const side = direction === 'undo' ? 'before' : 'after';
      const ordered = direction === 'undo' ? [...changes].reverse() : changes;
      for (const c of ordered) applySide(db, c, side, clock);
      // The catalogue changes outside the history (loads, look-ups): when it has changed since this step
      // was last written, undone or redone, its lines are placed again so no stale placement comes back.
      // When it has not, the rows come back exactly as they were.
      const generation = catalogueGeneration(db);
      const last = db.prepare('SELECT generation FROM undo_step_catalogue WHERE step_id = ?').pluck().get(step.id) as
        number | undefined;
      if (last !== generation) placeLinesAgain(db, touchedLines(db, changes, side));
      db.prepare(
        'INSERT INTO undo_step_catalogue (step_id, generation) VALUES (?, ?) ON CONFLICT (step_id) DO UPDATE SET generation = excluded.generation',
      ).run(step.id, generation);
      db.prepare('UPDATE undo_step SET state = ? WHERE id = ?').run(direction === 'undo' ? 'undone' : 'done', step.id);
      return step;
    })
    .immediate();
}

/**
 * Takes back the newest step, which must be `expectedStep` (refused with `step-moved` otherwise, also
 * when there is nothing left to undo: the caller named a step). Callers that name no step — the CLI
 * without --step — read `nextUndo` first and refuse with `nothing-to-undo` themselves.
 */
export function undo(db: StoreDb, clock: Clock, expectedStep: number): StepInfo {
  return move(db, 'undo', clock, expectedStep);
}

/** Puts back the step undone last, which must be `expectedStep` (refused with `step-moved` otherwise). */
export function redo(db: StoreDb, clock: Clock, expectedStep: number): StepInfo {
  return move(db, 'redo', clock, expectedStep);
}
