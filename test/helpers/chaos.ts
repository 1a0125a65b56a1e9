/**
 * The job fault-injection harness, shared by the test suite and `npm run soak`: worker processes
 * claim and run `chaos` jobs from one store while the harness kills them with SIGKILL at random
 * moments (mid-job) and starts new ones, until every job has ended. Then it reads back what happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { enqueueJob } from '../../src/jobs/queue.ts';
import { openStore } from '../../src/store/open.ts';
import { REPO_ROOT } from './cli.ts';

export interface ChaosOptions {
  readonly dir: string;
  readonly jobs: number;
  readonly workers: number;
  readonly kills: number;
  readonly steps: number;
  readonly stepMs: number;
  /** Random pause between kills, in ms. */
  readonly killEveryMs: readonly [number, number];
  /** Start the first workers together, behind a barrier, so that they race for the first jobs. */
  readonly barrier?: boolean;
  readonly onKill?: (n: number) => void;
}

export interface ChaosReport {
  /** Workers killed with SIGKILL: each one once, and only while it was alive. */
  readonly kills: number;
  readonly spawned: number;
  /** Workers that ended on their own (nothing left to claim). */
  readonly naturalExits: number;
  readonly states: Record<string, number>;
  /** job id → how many times its effect was committed */
  readonly effects: Map<number, number>;
  /** job id → its runs, each [start, end] in CLOCK_MONOTONIC ns (end: its `end` line or its process's death) */
  readonly runs: Map<number, { pid: number; start: bigint; end: bigint; finished: boolean }[]>;
  readonly integrity: string;
  readonly ms: number;
}

const WORKER = path.join(REPO_ROOT, 'test', 'workers', 'job-worker.ts');

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const t0 = performance.now();
  const storePath = path.join(o.dir, 'brick-work.sqlite');
  const store = await openStore(storePath);
  store.db.exec('CREATE TABLE chaos_effect (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, pid INTEGER NOT NULL)');
  store.db.transaction(() => {
    for (let i = 0; i < o.jobs; i++)
      enqueueJob(store.db, 'chaos', { steps: o.steps, stepMs: o.stepMs }, { clock: SYSTEM_CLOCK });
  })();
  const remaining = store.db.prepare("SELECT count(*) FROM job WHERE state IN ('queued', 'running')").pluck();

  const goFile = path.join(o.dir, 'go');
  // Workers are known by the order they were started in, never by pid: pids are reused over a long
  // soak, and a killed worker stays in the process table until its exit is handled.
  interface Worker {
    readonly n: number;
    readonly child: ChildProcess;
    readonly log: string;
    /** When it was killed, or ended on its own: recorded once, at the first of the two. */
    death: bigint | null;
    killed: boolean;
  }
  const live = new Map<number, Worker>();
  const all: Worker[] = [];
  let spawned = 0;
  let kills = 0;
  let naturalExits = 0;

  const start = (barrier: boolean) => {
    const n = spawned++;
    const log = path.join(o.dir, `worker-${n}.log`);
    fs.writeFileSync(log, '');
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, storePath, log, ...(barrier ? [goFile] : [])], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const w: Worker = { n, child, log, death: null, killed: false };
    live.set(n, w);
    all.push(w);
    child.once('exit', () => {
      if (w.death === null) {
        w.death = process.hrtime.bigint();
        naturalExits += 1;
      }
      live.delete(n);
    });
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const midJob = (log: string) => {
    const text = fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
    return text.length > 0 && text.at(-1)?.startsWith('start ') === true;
  };

  for (let i = 0; i < o.workers; i++) start(o.barrier ?? false);
  if (o.barrier) {
    await sleep(50);
    fs.writeFileSync(goFile, 'go');
  }

  let nextKill = performance.now() + rand(o.killEveryMs);
  while ((remaining.get() as number) > 0 || live.size > 0) {
    await sleep(5);
    if ((remaining.get() as number) === 0) {
      await sleep(20);
      continue;
    }
    if (kills < o.kills && performance.now() >= nextKill) {
      // Only workers not yet killed, still running, and in the middle of a job.
      const victims = [...live.values()].filter(
        (w) => !w.killed && w.death === null && w.child.exitCode === null && midJob(w.log),
      );
      const victim = victims[Math.floor(Math.random() * victims.length)];
      if (victim) {
        const at = process.hrtime.bigint();
        if (victim.child.kill('SIGKILL')) {
          victim.killed = true;
          victim.death = at;
          kills += 1;
          o.onKill?.(kills);
        }
        nextKill = performance.now() + rand(o.killEveryMs);
      }
    }
    // Keep the pool full while there is work; workers also leave on their own when nothing is claimable.
    while (live.size < o.workers && (remaining.get() as number) > 0) start(false);
  }
  store.close();

  const db = new Database(storePath, { readonly: true });
  const states = Object.fromEntries(
    (db.prepare('SELECT state, count(*) AS n FROM job GROUP BY state').all() as { state: string; n: number }[]).map(
      (r) => [r.state, r.n],
    ),
  );
  const effects = new Map<number, number>();
  for (const r of db.prepare('SELECT job_id, count(*) AS n FROM chaos_effect GROUP BY job_id').all() as {
    job_id: number;
    n: number;
  }[]) {
    effects.set(r.job_id, r.n);
  }
  const integrity = db.pragma('integrity_check', { simple: true }) as string;
  db.close();

  const runs = new Map<number, { pid: number; start: bigint; end: bigint; finished: boolean }[]>();
  for (const w of all) {
    const open = new Map<number, { pid: number; start: bigint }>();
    for (const line of fs.readFileSync(w.log, 'utf8').split('\n').filter(Boolean)) {
      const [what, job, pid, at] = line.split(' ');
      const id = Number(job);
      if (what === 'start') {
        open.set(id, { pid: Number(pid), start: BigInt(at ?? 0) });
      } else {
        const s = open.get(id);
        open.delete(id);
        if (s) push(runs, id, { ...s, end: BigInt(at ?? 0), finished: true });
      }
    }
    // A run with no `end` was cut short: it lasted until its process died.
    for (const [id, s] of open) push(runs, id, { ...s, end: maxBig(w.death ?? s.start, s.start), finished: false });
  }
  return { kills, spawned, naturalExits, states, effects, runs, integrity, ms: performance.now() - t0 };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function rand([lo, hi]: readonly [number, number]): number {
  return lo + Math.random() * (hi - lo);
}

/** Pairs of runs of one job whose times overlap. */
export function overlaps(report: ChaosReport): string[] {
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
