/**
 * The job fault-injection harness, shared by the test suite and `npm run soak`: worker processes
 * (test/workers/job-worker.ts) claim and run `chaos` jobs from one store while the harness kills them
 * with SIGKILL at random moments (mid-job) and starts new ones, until every job has ended. Meanwhile
 * staff (the harness) cancel jobs their live owners are running and start the same work again as a new
 * job, and an app starting up (the harness again) recovers dead owners' jobs. Then it reads back what
 * happened: each piece of work committed exactly once, no two runs of a job at once, no live owner
 * that lost its job other than by a cancel, the store intact.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { cancelJob, enqueueJob, recoverJobs } from '../../src/jobs/queue.ts';
import { openStore } from '../../src/store/open.ts';
import { ownersLost, type KindResult } from './soak-checks.ts';
import {
  buildWorkers,
  crashOf,
  lastLine,
  pick,
  rand,
  sleep,
  startWorker,
  type Mutation,
  type SoakProcess,
  type WorkerBundles,
} from './soak-workers.ts';

export interface ChaosOptions {
  readonly dir: string;
  readonly jobs: number;
  readonly workers: number;
  readonly kills: number;
  readonly steps: number;
  readonly stepMs: number;
  /** Random pause between kills (and cancels), in ms. */
  readonly killEveryMs: readonly [number, number];
  /** Start the first workers together, behind a barrier, so that they race for the first jobs. */
  readonly barrier?: boolean;
  readonly onKill?: (n: number) => void;
  /** Cancel this many jobs while their live owners run them, each time enqueueing the same work again. */
  readonly cancels?: number;
  /** Recover dead owners' jobs this often (ms), as the app and the browser host do at their start. */
  readonly recoverEveryMs?: number;
  /** Workers bundled already (`buildWorkers`); else they are bundled into `dir`, with `mutation` if given. */
  readonly bundles?: WorkerBundles;
  readonly mutation?: Mutation;
  /** Keep enqueueing more work (`jobs` at a time) until every kill is done, not only `jobs` jobs. */
  readonly untilKilled?: boolean;
  /** Give up after this long (ms): whatever is still running is killed and reported. */
  readonly deadlineMs?: number;
}

export interface ChaosRun {
  readonly pid: number;
  /** The worker's number (order of start). */
  readonly worker: number;
  readonly start: bigint;
  /** Its `end` or `lost` line, or its process's death. */
  readonly end: bigint;
  readonly finished: boolean;
  /** How it found the job no longer its own, if it did. */
  readonly lost: 'step' | 'complete' | null;
}

export interface ChaosReport {
  /** Pieces of work enqueued (keys 0 … jobs-1), each once. */
  readonly jobs: number;
  /** Workers killed with SIGKILL: each one once, and only while it was alive. */
  readonly kills: number;
  readonly spawned: number;
  /** Workers that ended on their own (nothing left to claim). */
  readonly naturalExits: number;
  /** Running jobs cancelled (and their work enqueued again as a new job). */
  readonly cancels: number;
  /** Jobs the harness's recoveries put back to `queued`. */
  readonly recovered: number;
  readonly states: Record<string, number>;
  /** work key (0 … jobs-1) → how many times its effect was committed */
  readonly effects: Map<number, number>;
  /** Effects committed by jobs that are not `done` (a cancelled job that went on writing). */
  readonly effectsOfUnfinished: number;
  /** job id → its runs, each [start, end] in CLOCK_MONOTONIC ns */
  readonly runs: Map<number, ChaosRun[]>;
  /** A live owner lost its job other than by a cancel (or a job was taken from a live owner): each with the job's history. */
  readonly ownerLost: string[];
  /** Workers that ended on their own with an error. */
  readonly crashes: string[];
  /** Set when the deadline passed first. */
  readonly timedOut: boolean;
  readonly integrity: string;
  readonly ms: number;
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const bundles = o.bundles ?? (await buildWorkers(path.join(o.dir, 'workers'), o.mutation ?? null));
  const t0 = performance.now();
  const storePath = path.join(o.dir, 'brick-work.sqlite');
  const store = await openStore(storePath);
  const db = store.db;
  db.exec(
    'CREATE TABLE chaos_effect (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, key INTEGER NOT NULL, pid INTEGER NOT NULL)',
  );
  const payload = (key: number) => ({ key, steps: o.steps, stepMs: o.stepMs });
  let keys = 0;
  const enqueueWork = (n: number) =>
    db.transaction(() => {
      for (let i = 0; i < n; i++) enqueueJob(db, 'chaos', payload(keys++), { clock: SYSTEM_CLOCK });
    })();
  enqueueWork(o.jobs);
  const remaining = db.prepare("SELECT count(*) FROM job WHERE state IN ('queued', 'running')").pluck();
  const payloadOf = db.prepare('SELECT payload FROM job WHERE id = ?').pluck();

  const goFile = path.join(o.dir, 'go');
  const live = new Map<number, SoakProcess>();
  const all: SoakProcess[] = [];
  let kills = 0;
  let cancels = 0;
  let recovered = 0;
  const wantedCancels = o.cancels ?? 0;

  const start = (barrier: boolean) => {
    const w = startWorker(bundles, 'job-worker', [storePath, ...(barrier ? [goFile] : [])]);
    live.set(w.n, w);
    all.push(w);
    void w.closed.then(() => live.delete(w.n));
  };
  const midJob = (w: SoakProcess) => lastLine(w, 'start ', 'end ', 'lost ')?.startsWith('start ') === true;

  for (let i = 0; i < o.workers; i++) start(o.barrier ?? false);
  if (o.barrier) {
    await Promise.all([...live.values()].map((w) => w.waitFor(/^ready$/)));
    fs.writeFileSync(goFile, 'go');
  }

  const deadline = o.deadlineMs === undefined ? Infinity : performance.now() + o.deadlineMs;
  let timedOut = false;
  let nextEvent = performance.now() + rand(o.killEveryMs);
  let nextRecovery = performance.now() + (o.recoverEveryMs ?? Infinity);
  while ((remaining.get() as number) > 0 || live.size > 0) {
    await sleep(5);
    if (performance.now() > deadline) {
      timedOut = true;
      for (const w of live.values()) w.kill();
      await Promise.all(all.map((w) => w.closed));
      break;
    }
    if (o.untilKilled && kills < o.kills && (remaining.get() as number) < o.workers * 8) enqueueWork(o.jobs);
    if ((remaining.get() as number) === 0) {
      await sleep(20);
      continue;
    }
    if (performance.now() >= nextRecovery) {
      recovered += recoverJobs(db, { clock: SYSTEM_CLOCK }).length;
      nextRecovery = performance.now() + (o.recoverEveryMs ?? Infinity);
    }
    const eventsLeft = o.kills - kills + (wantedCancels - cancels);
    if (eventsLeft > 0 && performance.now() >= nextEvent) {
      // Only workers still running, not yet killed, and in the middle of a job.
      const busy = [...live.values()].filter((w) => w.alive() && midJob(w));
      const victim = pick(busy);
      if (victim) {
        const cancel = cancels < wantedCancels && Math.random() < (wantedCancels - cancels) / eventsLeft;
        if (cancel) {
          // Staff cancel the job this live worker runs, then start the same work again.
          const id = Number(lastLine(victim, 'start ')?.split(' ')[1]);
          try {
            cancelJob(db, id, { clock: SYSTEM_CLOCK });
            const again = JSON.parse(payloadOf.get(id) as string) as { key: number };
            enqueueJob(db, 'chaos', payload(again.key), { clock: SYSTEM_CLOCK });
            cancels += 1;
          } catch (e) {
            // It ended meanwhile: nothing to cancel.
            if (!isBrickWorkError(e)) throw e;
          }
        } else {
          if (victim.kill()) {
            kills += 1;
            o.onKill?.(kills);
          }
        }
        nextEvent = performance.now() + rand(o.killEveryMs);
      }
    }
    // Keep the pool full while there is work; workers also leave on their own when nothing is claimable.
    while (live.size < o.workers && (remaining.get() as number) > 0) start(false);
  }
  await Promise.all(all.map((w) => w.closed));
  store.close();

  const ro = new Database(storePath, { readonly: true });
  try {
    const states = Object.fromEntries(
      (ro.prepare('SELECT state, count(*) AS n FROM job GROUP BY state').all() as { state: string; n: number }[]).map(
        (r) => [r.state, r.n],
      ),
    );
    const effects = new Map<number, number>();
    for (const r of ro.prepare('SELECT key, count(*) AS n FROM chaos_effect GROUP BY key').all() as {
      key: number;
      n: number;
    }[]) {
      effects.set(r.key, r.n);
    }
    const effectsOfUnfinished = ro
      .prepare("SELECT count(*) FROM chaos_effect e JOIN job j ON j.id = e.job_id WHERE j.state <> 'done'")
      .pluck()
      .get() as number;
    const integrity = ro.pragma('integrity_check', { simple: true }) as string;

    const runs = new Map<number, ChaosRun[]>();
    for (const w of all) {
      const open = new Map<number, { pid: number; start: bigint }>();
      for (const line of w.lines) {
        const [what, job, pid, at, how] = line.split(' ');
        const id = Number(job);
        if (what === 'start') {
          open.set(id, { pid: Number(pid), start: BigInt(at ?? 0) });
        } else if (what === 'end' || what === 'lost') {
          const s = open.get(id);
          open.delete(id);
          const lost = what === 'lost' ? (how as 'step' | 'complete') : null;
          if (s) push(runs, id, { ...s, worker: w.n, end: BigInt(at ?? 0), finished: what === 'end', lost });
        }
      }
      // A run with no `end` was cut short: it lasted until its process died.
      for (const [id, s] of open)
        push(runs, id, { ...s, worker: w.n, end: maxBig(w.death ?? s.start, s.start), finished: false, lost: null });
    }

    const ownerLost = ownersLost(ro, all, 'chaos job');

    return {
      jobs: keys,
      kills,
      spawned: all.length,
      naturalExits: all.filter((w) => !w.killed).length,
      cancels,
      recovered,
      states,
      effects,
      effectsOfUnfinished,
      runs,
      ownerLost,
      crashes: all.flatMap((w) => crashOf(w) ?? []),
      timedOut,
      integrity,
      ms: performance.now() - t0,
    };
  } finally {
    ro.close();
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** Pairs of runs of one job whose times overlap. */
export function overlaps(report: Pick<ChaosReport, 'runs'>): string[] {
  const found: string[] = [];
  for (const [id, list] of report.runs) {
    const sorted = [...list].sort((a, b) => (a.start < b.start ? -1 : 1));
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1];
      const cur = sorted[i];
      if (prev && cur && cur.start < prev.end)
        found.push(`job ${id}: run by ${cur.pid} started before the run by ${prev.pid} ended`);
    }
  }
  return found;
}

/** The chaos run as a row of the soak's table, with what went wrong spelled out. */
export function chaosResult(report: ChaosReport): KindResult {
  const jobs = report.jobs;
  const doubled = [...report.effects].filter(([, n]) => n > 1);
  const over = overlaps(report);
  const missing = jobs - report.effects.size;
  const stuck = (report.states['queued'] ?? 0) + (report.states['running'] ?? 0) + (report.states['failed'] ?? 0);
  const problems = [
    ...doubled.map(([key, n]) => `chaos work ${key}: committed ${n} times`),
    ...over,
    ...(report.effectsOfUnfinished > 0
      ? [`${report.effectsOfUnfinished} effects committed by jobs that are not done (cancelled, yet they wrote)`]
      : []),
    ...(missing > 0 ? [`${missing} pieces of chaos work never committed`] : []),
    ...(stuck > 0 ? [`chaos jobs left unfinished: ${JSON.stringify(report.states)}`] : []),
    ...report.ownerLost,
    ...report.crashes,
    ...(report.timedOut ? ['chaos: the deadline passed before every job had ended'] : []),
  ];
  return {
    kind: 'chaos',
    kills: report.kills,
    runs: [...report.runs.values()].reduce((n, l) => n + l.length, 0),
    doubleRuns: doubled.length + over.length + report.effectsOfUnfinished,
    lostWork: missing + stuck,
    staleReasons: null,
    ownerLost: report.ownerLost.length,
    integrity: report.integrity,
    problems,
    notes:
      `${report.jobs} jobs, ${report.spawned} workers (${report.naturalExits} ended on their own), ` +
      `${report.cancels} cancels, ${report.recovered} recovered by an app start`,
    ms: report.ms,
  };
}
