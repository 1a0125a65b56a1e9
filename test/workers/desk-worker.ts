/**
 * A desk of the soak's PostgreSQL kind (`test/helpers/soak-postgres.ts`): one process on a store on a
 * server, doing what staff and the app's job runner do, at random, until STOP_FILE appears (or it is
 * killed, or its connection cut): it claims and runs a `chaos` job (steps, then its effect committed with
 * its completion, recorded with the owner and the session that wrote it), imports one of the files in
 * DOCS (`confirmImport`), places a line by hand (`placeByHand`), undoes or redoes the step at the top of
 * the history. A cut connection is `store-unreachable`, said and gone on from: the store connects again
 * by itself. Anything that is not a `BrickWorkError` ends the process (a crash the harness reports).
 * Prints, with CLOCK_MONOTONIC times:
 *   me PID START            its server session (a job's owner), first and whenever it changed
 *   ready
 *   begin OP ARG T          about to (OP: import FILE, undo STEP, redo STEP, place LINE, job -)
 *   done OP ARG STEP T      …committed (STEP: ID@CREATED_AT of the undo step it wrote, or -)
 *   refused OP ARG CODE T   …refused, nothing written (duplicate, step-moved, store-unreachable, none)
 *   start JOB PID START T   a run of a job begins, as the owner PID START its claim recorded
 *   end JOB PID START T     …its effect and its end committed
 *   lost JOB PID START T step|complete   …a step or the completion found the job no longer this owner's
 *   ran JOB OUTCOME CODE T  the runner's outcome (done, stopped, failed) and its error's code, or -
 * argv: STORE DOCS STOP_FILE [drain]   (drain: only run jobs, until none is left to take, then end)
 */
import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { placeByHand } from '../../src/hand/placement.ts';
import { JobRunner, type JobHandler } from '../../src/jobs/runner.ts';
import { openStore } from '../../src/store/open.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import { nextRedo, nextUndo, redo, undo } from '../../src/undo/history.ts';
import { chooseFile, readSoakFiles } from './soak-files.ts';

const [storeUrl, docsDir, stopFile, mode] = process.argv.slice(2);
if (!storeUrl || !docsDir || !stopFile) throw new Error('usage: desk-worker STORE DOCS STOP_FILE [drain]');
const now = () => process.hrtime.bigint().toString();
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const files = readSoakFiles(docsDir);
const store = await openStore(storeUrl);
const db = store.db;
// The desk this worker is (SPEC §8): desks of one name share a history, as an app and its CLI do.
const desk = process.env['BRICK_WORK_DESK'];
const atDesk = writeSession(db, desk || undefined);
const importedKeys = db.prepare("SELECT doc_key FROM document WHERE state = 'imported'").pluck();
const lineToPlace = db.prepare(
  `SELECT l.id FROM order_line l JOIN document d ON d.id = l.document_id
    WHERE d.state = 'imported' AND l.placed_by IS DISTINCT FROM 'hand' ORDER BY random() LIMIT 1`,
);
const items = db.prepare("SELECT item_no FROM catalogue_item WHERE item_type = 'P' ORDER BY item_no").pluck().all();
const effect = db.prepare(
  `INSERT INTO chaos_effect (job_id, key, owner_pid, owner_start, session_pid, session_start)
   VALUES (?, ?, ?, ?, ?, ?)`,
);

let session = '';
/** Says its session when it changed (a cut connection is made again by the next statement). */
function mySession(): void {
  try {
    const me = connectionOwner(db);
    const now = `${me.pid} ${me.startTicks}`;
    if (now !== session) say(`me ${now}`);
    session = now;
  } catch (e) {
    if (!isBrickWorkError(e) || e.code !== 'store-unreachable') throw e;
  }
}

const chaos: JobHandler = async (job, ctx) => {
  // The owner the claim recorded (a session cut since stops at its next write).
  const owner = `${job.owner.pid} ${job.owner.startTicks}`;
  say(`start ${job.id} ${owner} ${now()}`);
  const { key, steps, stepMs } = job.payload as { key: number; steps: number; stepMs: number };
  for (let i = job.progress.done; i < steps; i++) {
    await sleep(1 + Math.random() * stepMs);
    if (!ctx.step(null, { done: i + 1, total: steps })) {
      say(`lost ${job.id} ${owner} ${now()} step`);
      return;
    }
  }
  const done = ctx.complete(() => {
    // Who wrote it: the owner the claim recorded, and the session this very transaction runs in.
    const writer = connectionOwner(db);
    effect.run(job.id, key, job.owner.pid, job.owner.startTicks, writer.pid, writer.startTicks);
  });
  say(done ? `end ${job.id} ${owner} ${now()}` : `lost ${job.id} ${owner} ${now()} complete`);
};

/**
 * One runner for the desk's life, as the app's job runner thread has (its owner named once, at its
 * start): after a cut its claims must still be made by the session it has then.
 */
const runner = new JobRunner({ session: atDesk, handlers: { chaos } });

/** Nothing to claim just now. */
class Idle extends Error {}

/** Claims and runs one job. */
async function runJob(): Promise<boolean> {
  mySession();
  const r = await runner.runNext();
  if (r === null) return false;
  say(`ran ${r.job.id} ${r.outcome} ${r.error?.code ?? '-'} ${now()}`);
  return true;
}

async function attempt(op: string, arg: string, work: () => Promise<string> | string): Promise<void> {
  say(`begin ${op} ${arg} ${now()}`);
  try {
    const step = await work();
    say(`done ${op} ${arg} ${step} ${now()}`);
  } catch (e) {
    if (e instanceof Idle) say(`refused ${op} ${arg} none ${now()}`);
    else if (!isBrickWorkError(e) || e.code === 'internal') throw e;
    else say(`refused ${op} ${arg} ${e.code} ${now()}`);
  }
  mySession();
  // Let the harness's faults land between operations too.
  await sleep(Math.random() * 20);
}

const stepName = (s: { id: number; createdAt: string }) => `${s.id}@${s.createdAt}`;

/** Reads what a screen would show before it writes; null when the connection was cut just then (it is made again). */
function read<T>(what: () => T): T | null {
  try {
    return what();
  } catch (e) {
    if (!isBrickWorkError(e) || e.code !== 'store-unreachable') throw e;
    mySession();
    return null;
  }
}

mySession();
say('ready');
if (mode === 'drain') {
  for (;;) {
    const ran = await runJob().catch((e: unknown) => {
      if (!isBrickWorkError(e) || e.code !== 'store-unreachable') throw e;
      return true;
    });
    if (!ran) break;
  }
} else {
  while (!fs.existsSync(stopFile)) {
    const r = Math.random();
    if (r < 0.35) {
      await attempt('job', '-', async () => {
        if (!(await runJob())) throw new Idle();
        return '-';
      });
      continue;
    }
    // Read outside the write, as a screen shows them: another desk may move the history meanwhile.
    const seen = read(() => ({
      toUndo: nextUndo(db, atDesk.desk),
      toRedo: nextRedo(db, atDesk.desk),
      line: r >= 0.58 && r < 0.78 ? (lineToPlace.get() as { id: number } | undefined) : undefined,
      imported: r >= 0.78 ? new Set(importedKeys.all() as string[]) : new Set<string>(),
    }));
    if (seen === null) continue;
    const { toUndo, toRedo, line, imported } = seen;
    // Every file imported: half the time an Undo instead, so the history unwinds to imports (revivals follow).
    const allImported = r >= 0.78 && files.every((f) => f.keys.some((k) => imported.has(k)));
    const file = chooseFile(files, (k) => imported.has(k));
    if ((r < 0.5 || (allImported && Math.random() < 0.5)) && toUndo) {
      await attempt('undo', stepName(toUndo), () => (undo(atDesk, SYSTEM_CLOCK, toUndo.id), '-'));
    } else if (r < 0.58 && toRedo) {
      await attempt('redo', stepName(toRedo), () => (redo(atDesk, SYSTEM_CLOCK, toRedo.id), '-'));
    } else if (r < 0.78 && line) {
      const no = String(items[Math.floor(Math.random() * items.length)]);
      const colourId = Math.random() < 0.5 ? 5 : null;
      await attempt('place', String(line.id), () => {
        const placed = placeByHand(atDesk, line.id, { type: 'P', no, colourId }, SYSTEM_CLOCK, [
          'other-type',
          'moves-lines',
        ]);
        return stepName(placed.step);
      });
    } else if (file) {
      await attempt('import', file.name, () => {
        confirmImport(atDesk, { file: { name: file.name, content: file.content } }, SYSTEM_CLOCK);
        return '-';
      });
    }
  }
}
store.close();
