import type { StoreDb } from '../../src/store/db.ts';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { nextRedo, nextUndo, redo, undo, type StepInfo } from '../../src/undo/history.ts';

/** Undo of the step the history names now, as a screen that just read its label would ask for it. */
export function undoNewest(db: StoreDb, clock: Clock): StepInfo {
  const step = nextUndo(db, thisComputer());
  if (step === null) throw new BrickWorkError('nothing-to-undo', 'There is nothing to undo.');
  return undo(writeSession(db), clock, step.id);
}

/** Redo of the step the history would put back now. */
export function redoNext(db: StoreDb, clock: Clock): StepInfo {
  const step = nextRedo(db, thisComputer());
  if (step === null) throw new BrickWorkError('nothing-to-redo', 'There is nothing to redo.');
  return redo(writeSession(db), clock, step.id);
}
