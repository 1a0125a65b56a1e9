import { describe, expect, it } from 'vitest';
import { thisComputer } from '../../src/identity/desk.ts';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { nextRedo, nextUndo, redo, undo } from '../../src/undo/history.ts';
import { bsx, file } from '../helpers/documents.ts';
import { DocumentChecks } from '../helpers/soak-imports.ts';
import type { SoakProcess } from '../helpers/soak-workers.ts';
import { storeWithCatalogue } from '../helpers/store-builder.ts';

/** A worker as the soak's checks read one: its printed lines, and when it was surely gone. */
const worker = (lines: string[], gone: bigint | null = null) => ({ lines, gone }) as unknown as SoakProcess;

/**
 * A store whose step 1 was undone, redone, undone again and then dropped by a new import — as two
 * workers can leave it — and the step's name (`ID@CREATED_AT`) as the workers print it.
 */
async function stepUndoneRedoneUndoneDropped() {
  const { db } = await storeWithCatalogue();
  confirmImport(writeSession(db), { file: file('a.bsx', bsx([{ no: '3001', qty: 1 }])) }, SYSTEM_CLOCK);
  const step = nextUndo(db, thisComputer());
  if (!step) throw new Error('no step');
  undo(writeSession(db), SYSTEM_CLOCK, step.id);
  redo(writeSession(db), SYSTEM_CLOCK, nextRedo(db, thisComputer())?.id ?? 0);
  undo(writeSession(db), SYSTEM_CLOCK, step.id);
  confirmImport(writeSession(db), { file: file('b.bsx', bsx([{ no: '3003', qty: 1 }])) }, SYSTEM_CLOCK);
  return { db, name: `${step.id}@${step.createdAt}` };
}

/** The worker that undoes the step (at 1–2) and redoes it (at 3–4), both committed. */
const undoneAndRedone = (name: string) =>
  worker([`begin undo ${name} 1000`, `done undo ${name} 2000`, `begin redo ${name} 3000`, `done redo ${name} 4000`]);

/** The checks with no documents expected: only what the workers saw committed is looked at. */
const committedChecks = () => new DocumentChecks('imports', { expected: new Map(), keysOf: new Map() });

describe("the soak's check that nothing a worker saw committed is missing", () => {
  it('allows for an undo begun before a redo of the same step that was still waiting for the write lock', async () => {
    const { db, name } = await stepUndoneRedoneUndoneDropped();
    // Worker 2 undoes (1–2) and redoes (3–4) the step, while worker 1, which read "undo step 1" before
    // either, began at 1.5 and waited for the lock until after the redo: its undo committed at 5.
    const workers = [
      worker([
        'ready',
        `begin undo ${name} 1500`,
        `done undo ${name} 5000`,
        `begin import b.bsx 6000`,
        `done import b.bsx 7000`,
      ]),
      undoneAndRedone(name),
    ];
    const checks = committedChecks();
    checks.committed(db, workers);
    expect(checks.problems).toEqual([]);
    expect(checks.lost).toBe(0);
  });

  it('allows for such an undo cut short by a kill until its worker was surely gone', async () => {
    const { db, name } = await stepUndoneRedoneUndoneDropped();
    const workers = [worker([`begin undo ${name} 1500`], 5000n), undoneAndRedone(name)];
    const checks = committedChecks();
    checks.committed(db, workers);
    expect(checks.problems).toEqual([]);
  });

  it('still finds a redo lost when every other undo of the step had committed, or was refused, before it began', async () => {
    const { db, name } = await stepUndoneRedoneUndoneDropped();
    const workers = [
      worker([`begin undo ${name} 1500`, `refused undo ${name} step-moved 5000`]),
      undoneAndRedone(name),
      worker([`begin undo ${name} 100`], 900n),
    ];
    const checks = committedChecks();
    checks.committed(db, workers);
    expect(checks.problems).toEqual([`imports: the redo of step ${name} was committed, yet the step is gone`]);
    expect(checks.lost).toBe(1);
  });
});
