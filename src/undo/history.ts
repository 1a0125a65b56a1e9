import type { ReadableDb, StoreDb } from '../store/db.ts';
import { isoNow, type Clock } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { placeLinesAgain } from '../placement/place-lines.ts';
import { catalogueGeneration } from '../store/settings.ts';
import {
  changesOfStep,
  endStepOfDesk,
  laterStepOfOtherDeskOnItsRows,
  newestStepId,
  newestStepOfOtherDeskOnDocument,
  newestStepTouchingRow,
  setStepGeneration,
  setStepState,
  stepById,
  stepGeneration,
  stepsNewestFirst,
  type HistoryEntry,
  type StepInfo,
  type StepKind,
} from '../store/history.ts';
import { writeStep } from '../store/history-write.ts';
import type { WriteSession } from '../store/session.ts';
import { lineIdsOfDocuments } from '../store/undo-rows.ts';
import { applySide, type Change } from './changes.ts';
import { StepRecorder } from './recorder.ts';

/**
 * The undo history, kept in the store (so Undo works after a restart and is shared by the app and the
 * CLI). Every writing action is one step, recording its desk (SPEC §8). On a desk, Undo takes back the
 * desk's newest done step, Redo puts back its oldest undone one, and a new step drops the desk's steps
 * that could still have been redone. A step another desk built on since — a later step of it changed a
 * row the undo or redo would write — is refused (`step-conflict`). Steps made before desks were named
 * belong to every desk. One desk: one history, as before.
 */

// A step's row and kind are the history table's, declared with it.
export type { HistoryEntry, StepInfo, StepKind } from '../store/history.ts';

/** What a step's writer gives back: its result, and the step's kind and label (known once it has looked). */
export interface Written<T> {
  readonly value: T;
  readonly kind: StepKind;
  readonly label: string;
}

/** Runs `write` as one undo step of `session`'s desk, in one write transaction with its record. */
export function recordStep<T>(session: WriteSession, clock: Clock, write: (rec: StepRecorder) => Written<T>): T {
  return recordStepWithInfo(session, clock, write).value;
}

/** As `recordStep`, and says which step it wrote (what Undo will now name). */
export function recordStepWithInfo<T>(
  session: WriteSession,
  clock: Clock,
  write: (rec: StepRecorder) => Written<T>,
): { value: T; step: StepInfo } {
  const { db, desk } = session;
  const written = db
    .transaction(() => {
      const rec = new StepRecorder(db, clock);
      const { value, kind, label } = write(rec);
      const step = { kind, label, createdAt: isoNow(clock), desk };
      return { value, step, id: writeStep(db, step, rec.changes) };
    })
    .immediate();
  // Read once it is committed: on a server the step's record went with the COMMIT (one round trip).
  return { value: written.value, step: { id: written.id(), ...written.step } };
}

/** The step Undo takes back on `desk`: its newest done one. */
export function nextUndo(db: ReadableDb, desk: string): StepInfo | null {
  return endStepOfDesk(db, desk, 'newest-done');
}

/** The step Redo puts back on `desk`: its oldest undone one. */
export function nextRedo(db: ReadableDb, desk: string): StepInfo | null {
  return endStepOfDesk(db, desk, 'oldest-undone');
}

export function historySteps(db: ReadableDb, limit: number): HistoryEntry[] {
  return stepsNewestFirst(db, limit);
}

/** The newest done step that changed row `rowId` of `table`: who last wrote it through the history. */
export function lastStepTouching(db: StoreDb, table: string, rowId: number): StepInfo | null {
  return newestStepTouchingRow(db, table, rowId);
}

/** The store's newest history step's id (0: none yet): what a screen read "as of". */
export function newestStep(db: ReadableDb): number {
  return newestStepId(db);
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
    const step = newestStepOfOtherDeskOnDocument(db, documentId, after, desk);
    if (step !== null) return step;
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

/**
 * The lines whose placement an undo or redo may have made stale: lines it wrote, and the lines of
 * documents it made saved again. When the catalogue has moved on, they are placed again against it
 * (hand placements stay as restored).
 */
function touchedLines(db: StoreDb, changes: readonly Change[], side: 'before' | 'after'): number[] {
  const ids = new Set<number>();
  const ofDocument = lineIdsOfDocuments(db);
  for (const c of changes) {
    const values = c[side];
    if (values === null) continue;
    if (c.table === 'order_line') ids.add(c.rowId);
    if (c.table === 'document' && values['state'] === 'imported') for (const id of ofDocument(c.rowId)) ids.add(id);
  }
  return [...ids];
}

/**
 * Undo and Redo name the step they expect (SPEC §8): the one the screen's label named. Checked inside the
 * write transaction, like the job queue's compare-and-set: if another process wrote meanwhile (or a new
 * write dropped the redo list), the step is not the one named, and nothing changes.
 */
function stepMoved(db: StoreDb, direction: 'undo' | 'redo', expected: number, actual: StepInfo | null): BrickWorkError {
  const named = stepById(db, expected);
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

function move(session: WriteSession, direction: 'undo' | 'redo', clock: Clock, expected: number): StepInfo {
  const { db, desk } = session;
  return db
    .transaction(() => {
      const step = direction === 'undo' ? nextUndo(db, desk) : nextRedo(db, desk);
      if (step?.id !== expected) throw stepMoved(db, direction, expected, step);
      // A later step of another desk, still done, that changed a row this step would write back — or a
      // line of a document it would take back or bring back (its fix would vanish or return with it):
      // Undo or Redo would overwrite what that desk did (SPEC §8).
      const by = laterStepOfOtherDeskOnItsRows(db, step.id, desk);
      if (by !== null) throw stepConflict(direction, step, by);
      // Checked as each is applied (`applySide`): a step brick-work did not write is refused in words there.
      const changes = changesOfStep(db, step.id) as Change[];
      const side = direction === 'undo' ? 'before' : 'after';
      const ordered = direction === 'undo' ? [...changes].reverse() : changes;
      for (const c of ordered) applySide(db, c, side, clock);
      // The catalogue changes outside the history (loads, look-ups): when it has changed since this step
      // was last written, undone or redone, its lines are placed again so no stale placement comes back.
      // When it has not, the rows come back exactly as they were.
      const generation = catalogueGeneration(db);
      if (stepGeneration(db, step.id) !== generation) placeLinesAgain(db, touchedLines(db, changes, side));
      setStepGeneration(db, step.id, generation);
      setStepState(db, step.id, direction === 'undo' ? 'undone' : 'done');
      return step;
    })
    .immediate();
}

/**
 * Takes back the newest step, which must be `expectedStep` (refused with `step-moved` otherwise, also
 * when there is nothing left to undo: the caller named a step). Callers that name no step — the CLI
 * without --step — read `nextUndo` first and refuse with `nothing-to-undo` themselves.
 */
export function undo(session: WriteSession, clock: Clock, expectedStep: number): StepInfo {
  return move(session, 'undo', clock, expectedStep);
}

/** Puts back the step undone last, which must be `expectedStep` (refused with `step-moved` otherwise). */
export function redo(session: WriteSession, clock: Clock, expectedStep: number): StepInfo {
  return move(session, 'redo', clock, expectedStep);
}
