import { spawn, type ChildProcess } from 'node:child_process';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { shiftedClock, SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { identityOf, PID_ONLY, type OwnerIdentity } from '../../src/identity/owner.ts';
import {
  cancelJob,
  claimJob,
  claimNext,
  enqueueJob,
  finishJob,
  getJob,
  listJobs,
  recoverJobs,
  reportProgress,
} from '../../src/jobs/queue.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { openStore, type Store } from '../../src/store/open.ts';
import { tempDir } from '../helpers/temp.ts';
import { anotherLife } from '../helpers/owners.ts';

const clock = SYSTEM_CLOCK;
const YEAR = 365 * 24 * 3600 * 1000;

async function newStore(): Promise<Store> {
  const store = await openStore(path.join(tempDir(), 'brick-work.sqlite'));
  onTestFinished(() => store.close());
  return store;
}

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  return child;
}

/** Marks a job running under `owner`, as if that process had claimed it. */
function ownedBy(store: Store, jobId: number, owner: OwnerIdentity): void {
  store.db.prepare("UPDATE job SET state = 'running' WHERE id = ?").run(jobId);
  store.db
    .prepare('INSERT INTO job_owner (job_id, pid, boot_id, start_ticks, claimed_at) VALUES (?, ?, ?, ?, ?)')
    .run(jobId, owner.pid, owner.bootId, owner.startTicks, '2026-01-01T00:00:00Z');
}

/** A dead process's identity: a child that has exited and been reaped. */
async function deadOwner(): Promise<OwnerIdentity> {
  const child = spawn('true', [], { stdio: 'ignore' });
  const owner = identityOf(child.pid ?? 0);
  await new Promise((r) => child.once('exit', r));
  await new Promise((r) => setTimeout(r, 20));
  return owner;
}

describe('claims (SPEC §4)', () => {
  it('take the oldest queued job, record this process as its owner, and mark it running', async () => {
    const { db } = await newStore();
    const first = enqueueJob(db, 'lookup', { n: 1 }, { clock });
    enqueueJob(db, 'lookup', { n: 2 }, { clock });
    const me = identityOf();
    const claimed = claimNext(writeSession(db), me, { clock });
    expect(claimed).toMatchObject({ id: first, kind: 'lookup', payload: { n: 1 }, owner: me, takenFrom: null });
    expect(getJob(db, first)).toMatchObject({ state: 'running', owner: me, alive: true });
  });

  it('leave a job with a live owner alone, and take one whose owner is dead, saying so', async () => {
    const { db } = await newStore();
    const live = enqueueJob(db, 'lookup', {}, { clock });
    const dead = enqueueJob(db, 'lookup', {}, { clock });
    const liveOwner = identityOf(sleeper().pid);
    const deadOne = await deadOwner();
    ownedBy({ db } as Store, live, liveOwner);
    ownedBy({ db } as Store, dead, deadOne);

    const claimed = claimNext(writeSession(db), identityOf(), { clock });
    expect(claimed?.id).toBe(dead);
    expect(claimed?.takenFrom).toEqual(deadOne);
    expect(claimNext(writeSession(db), identityOf(), { clock })).toBeNull();
    expect(getJob(db, live)).toMatchObject({ state: 'running', owner: liveOwner, recoveries: 0 });
    expect(getJob(db, dead)).toMatchObject({ state: 'running', owner: identityOf(), recoveries: 1 });
    expect(() => claimJob(writeSession(db), live, identityOf(), { clock })).toThrow(
      expect.objectContaining({ code: 'busy' }),
    );
  });

  it('a job owned by the pid of a live, unrelated process with another start time is recovered and claimed', async () => {
    const { db } = await newStore();
    const reused = enqueueJob(db, 'lookup', {}, { clock });
    const mine = enqueueJob(db, 'lookup', {}, { clock });
    const unrelated = identityOf(sleeper().pid);
    // The owner that had this pid before: same pid and boot, an earlier start.
    ownedBy({ db } as Store, reused, anotherLife(unrelated, -1000));
    ownedBy({ db } as Store, mine, unrelated);

    expect(recoverJobs(db, { clock }).map((r) => r.id)).toEqual([reused]);
    expect(getJob(db, reused)).toMatchObject({ state: 'queued', recoveries: 1 });
    expect(getJob(db, mine)).toMatchObject({ state: 'running', owner: unrelated, alive: true });
    expect(claimNext(writeSession(db), identityOf(), { clock })?.id).toBe(reused);
    expect(claimNext(writeSession(db), identityOf(), { clock })).toBeNull();
  });

  it('recover only dead owners, including rows without identity and pid-only rows of dead pids', async () => {
    const { db } = await newStore();
    const ids = [1, 2, 3, 4].map(() => enqueueJob(db, 'lookup', {}, { clock }));
    const [noIdentity, pidOnlyDead, pidOnlyLive, noOwner] = ids as [number, number, number, number];
    ownedBy({ db } as Store, noIdentity, { pid: process.pid, bootId: null, startTicks: null });
    ownedBy({ db } as Store, pidOnlyDead, { ...(await deadOwner()), bootId: PID_ONLY, startTicks: null });
    ownedBy({ db } as Store, pidOnlyLive, { pid: process.pid, bootId: PID_ONLY, startTicks: null });
    db.prepare("UPDATE job SET state = 'running' WHERE id = ?").run(noOwner);
    expect(recoverJobs(db, { clock }).map((r) => r.id)).toEqual([noIdentity, pidOnlyDead, noOwner]);
    expect(recoverJobs(db, { clock })).toEqual([]);
  });

  it('give the same answers with the clock a year ahead or a year behind', async () => {
    const answers = [];
    for (const shift of [0, YEAR, -YEAR]) {
      const { db } = await newStore();
      const c = shiftedClock(shift);
      const ids = [1, 2, 3, 4].map(() => enqueueJob(db, 'lookup', {}, { clock: c }));
      const me = identityOf();
      ownedBy({ db } as Store, ids[0] ?? 0, me);
      ownedBy({ db } as Store, ids[1] ?? 0, anotherLife(me));
      ownedBy({ db } as Store, ids[2] ?? 0, { pid: me.pid, bootId: null, startTicks: null });
      const alive = listJobs(db).map((j) => j.alive);
      const recovered = recoverJobs(db, { clock: c }).map((r) => r.id);
      const claimed = [
        claimNext(writeSession(db), me, { clock: c })?.id,
        claimNext(writeSession(db), me, { clock: c })?.id,
        claimNext(writeSession(db), me, { clock: c })?.id,
      ];
      answers.push({ alive, recovered, claimed });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]).toEqual({ alive: [true, false, false, null], recovered: [2, 3], claimed: [2, 3, 4] });
  });
});

describe('state changes are compare-and-set', () => {
  it('only the owner reports progress or finishes; a loser changes nothing', async () => {
    const { db } = await newStore();
    const id = enqueueJob(db, 'lookup', {}, { clock });
    const me = identityOf();
    claimJob(writeSession(db), id, me, { clock });
    const stranger = anotherLife(me);
    expect(reportProgress(db, id, stranger, { done: 5, total: 10 }, { clock })).toBe(false);
    expect(finishJob(db, id, stranger, { state: 'done' }, { clock })).toBe(false);
    expect(getJob(db, id)).toMatchObject({ state: 'running', progress: { done: 0, total: null } });
    expect(reportProgress(db, id, me, { done: 5, total: 10 }, { clock })).toBe(true);
    expect(finishJob(db, id, me, { state: 'done' }, { clock })).toBe(true);
    expect(finishJob(db, id, me, { state: 'failed', error: 'late' }, { clock })).toBe(false);
    expect(getJob(db, id)).toMatchObject({ state: 'done', error: null, progress: { done: 5, total: 10 } });
  });

  it('cancel a queued job, or a running one, which stops at its next step without writing', async () => {
    const { db } = await newStore();
    const queued = enqueueJob(db, 'count', {}, { clock });
    expect(cancelJob(db, queued, { clock })).toEqual({ id: queued, was: 'queued' });
    expect(() => cancelJob(db, queued, { clock })).toThrow(BrickWorkError);
    expect(() => cancelJob(db, 999, { clock })).toThrow(expect.objectContaining({ code: 'not-found' }));

    db.exec('CREATE TABLE effect (n INTEGER)');
    const running = enqueueJob(db, 'count', {}, { clock });
    const runner = new JobRunner({
      session: writeSession(db),
      handlers: {
        count(_job, ctx) {
          for (let n = 1; n <= 10; n++) {
            if (n === 4) cancelJob(db, running, { clock }); // staff press Cancel meanwhile
            if (!ctx.step(() => db.prepare('INSERT INTO effect VALUES (?)').run(n), { done: n, total: 10 })) return;
          }
          ctx.complete();
        },
      },
    });
    const result = await runner.runJob(running);
    expect(result.outcome).toBe('stopped');
    expect(db.prepare('SELECT n FROM effect').pluck().all()).toEqual([1, 2, 3]);
    expect(getJob(db, running)).toMatchObject({ state: 'cancelled', progress: { done: 3, total: 10 } });
  });

  it('a job that throws ends failed with its plain message', async () => {
    const { db } = await newStore();
    const id = enqueueJob(db, 'boom', {}, { clock });
    const runner = new JobRunner({
      session: writeSession(db),
      handlers: {
        boom() {
          throw new BrickWorkError('parse-error', 'parts.csv line 3: the number is missing');
        },
      },
    });
    expect(await runner.runNext()).toMatchObject({
      outcome: 'failed',
      error: { code: 'parse-error', message: 'parts.csv line 3: the number is missing' },
    });
    expect(getJob(db, id)).toMatchObject({ state: 'failed', error: 'parts.csv line 3: the number is missing' });
  });

  it('a deferred job waits for its day before it is claimed again', async () => {
    const { db } = await newStore();
    const id = enqueueJob(db, 'lookup', {}, { clock });
    const today = new Date('2026-03-01T12:00:00Z');
    const runner = new JobRunner({
      session: writeSession(db),
      clock: { now: () => today },
      handlers: { lookup: (_j, ctx) => void ctx.defer('2026-03-02', 'the day’s BrickLink budget is used up') },
    });
    expect(await runner.runNext()).toMatchObject({ outcome: 'deferred' });
    expect(getJob(db, id)).toMatchObject({ state: 'queued', notBeforeDay: '2026-03-02' });
    expect(await runner.runNext()).toBeNull();
    const tomorrow = new JobRunner({
      session: writeSession(db),
      clock: { now: () => new Date('2026-03-02T00:00:01Z') },
      handlers: { lookup: (_j, ctx) => void ctx.complete() },
    });
    expect(await tomorrow.runNext()).toMatchObject({ outcome: 'done' });
  });

  it("recovery (what the core does at start) puts a dead owner's running job back in the queue, and says whose it was", async () => {
    const { db } = await newStore();
    const id = enqueueJob(db, 'lookup', {}, { clock });
    const dead = await deadOwner();
    ownedBy({ db } as Store, id, dead);
    expect(recoverJobs(db, { clock })).toEqual([
      expect.objectContaining({ id, kind: 'lookup', deadOwner: expect.objectContaining({ pid: dead.pid }) }),
    ]);
    expect(getJob(db, id)).toMatchObject({ state: 'queued', recoveries: 1 });
  });
});
