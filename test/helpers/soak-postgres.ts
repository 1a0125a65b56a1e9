/**
 * The soak's PostgreSQL kind (issue 29, SPEC §14): "desks" — processes (test/workers/desk-worker.ts),
 * each with its own connection, so its own server session — share one store on a real server and
 * claim and run `chaos` jobs (with one runner for the desk's life, as the app's runner thread), import
 * documents, place lines by hand, undo and redo, all at once, while the harness, at random moments,
 * kills a desk with SIGKILL (and starts another) or cuts its connection from the server's side
 * (`pg_terminate_backend`: the desk gets `store-unreachable` and goes on, as a new session). A round
 * with two desks, then one with four, each on a database of its own; the faults (SIGKILLs plus cuts)
 * are shared between them.
 *
 * Checks, every 25 faults while the desks work and in full after each round (once a last desk has run
 * every job left): no job's effect committed twice, nor by a session that was not the job's owner, nor
 * by a job that is not done; every job done, its effect there exactly once; no claim in the name of a
 * session cut before it; every document whole or absent, no key twice, every row what the undo history
 * says, nothing a desk saw committed missing (`DocumentChecks`, shared with the imports kind); tallies
 * right and the store's rules kept (`integrityOf`: PostgreSQL enforces its keys itself); no live owner
 * lost its job (a cut session's desk losing its job is the design); no desk crashed (an exit code, or a
 * signal the harness did not send), ended before the round's end, met an error that is not a refusal in
 * words, or failed to connect again after a cut. A round in which no desk says anything for a minute
 * stops, said as stalled, with each desk's last line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { enqueueJob } from '../../src/jobs/queue.ts';
import type { StoreDb } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { ownersLost, type KindResult } from './soak-checks.ts';
import { addSoakCatalogue, DocumentChecks, writeSoakDocuments } from './soak-imports.ts';
import {
  crashOf,
  lastLine,
  pick,
  rand,
  sleep,
  startWorker,
  type SoakProcess,
  type WorkerBundles,
} from './soak-workers.ts';
import { insertColour } from './store-builder.ts';

export interface PostgresSoakOptions {
  readonly dir: string;
  /** Faults in all: SIGKILLs of desks plus cut connections, shared between the rounds. */
  readonly kills: number;
  readonly bundles: WorkerBundles;
  /** Desks at once, one round each (2, then 4). */
  readonly desks?: readonly number[];
  /** Random pause between faults, ms. */
  readonly faultEveryMs?: readonly [number, number];
  /** Lines of each CSV file (about), and of each ORDER of the two order files; how many CSV files. */
  readonly documentLines?: { readonly csvLines: number; readonly orderLines: number; readonly csvFiles?: number };
  /** Give up after this long (ms): a failure. */
  readonly deadlineMs?: number;
  readonly onKill?: () => void;
}

/** Refusals a desk may meet, all in words and with nothing written: anything else is a failure. */
const EXPECTED_REFUSALS = new Set([
  'store-unreachable', // its connection was cut (it connects again by itself)
  'step-moved', // another desk of its name moved the history between its look and its Undo or Redo
  'step-conflict', // a desk of another name built on the step it would undo or redo (SPEC §8)
  'duplicate-document', // another desk imported that file first
  'none', // no job to claim just now
]);

/** Desk names the soak's desks take in turn. */
const DESK_NAMES = 3;

/** No desk's line for this long is a stalled round (a desk at work says something every few ms). */
const STALL_MS = 60_000;

/** A chaos job: six committed steps, up to 30 ms apart (a cut mid-job mostly lands between two). */
const payload = (key: number) => ({ key, steps: 6, stepMs: 30 });

export async function soakPostgres(o: PostgresSoakOptions): Promise<KindResult> {
  const t0 = performance.now();
  const dir = path.join(o.dir, 'postgres');
  const docs = path.join(dir, 'docs');
  const documents = writeSoakDocuments(docs, o.documentLines ?? { csvLines: 120, orderLines: 60, csvFiles: 40 });
  const found = new DocumentChecks('postgres', documents);
  const rounds = o.desks ?? [2, 4];
  const deadline = performance.now() + (o.deadlineMs ?? 20 * 60_000);
  const totals = { sigkills: 0, cuts: 0, runs: 0, jobs: 0, doubles: 0, lost: 0, ownerLost: 0, desks: 0, wrongDesk: 0 };
  /** Refusals by code, and operations done by kind ("import", "place", … and "job" for a job run's end). */
  const refusals = new Map<string, number>();
  const done = new Map<string, number>();
  const server = await startPostgres();
  try {
    for (const [i, desks] of rounds.entries()) {
      // The faults shared out in whole numbers: the last round takes what is left.
      const faults =
        i === rounds.length - 1 ? o.kills - totals.sigkills - totals.cuts : Math.round(o.kills / rounds.length);
      await round({ o, server, dir, docs, found, desks, faults, deadline, totals, refusals, done });
    }
  } finally {
    server.close();
  }
  const counted = (m: Map<string, number>) => [...m].map(([what, n]) => `${n} ${what}`).join(', ') || 'nothing';
  return {
    kind: 'postgres',
    kills: totals.sigkills + totals.cuts,
    runs: totals.runs,
    doubleRuns: totals.doubles + found.doubles,
    lostWork: totals.lost + found.lost,
    staleReasons: found.stale,
    ownerLost: totals.ownerLost,
    integrity: found.integrity,
    problems: found.problems,
    notes:
      `rounds of ${rounds.join(' and ')} desks: ${totals.sigkills} SIGKILLs and ${totals.cuts} cut connections, ` +
      `${totals.desks} desks of ${DESK_NAMES} names, ${totals.jobs} jobs; committed ${counted(done)}; refused ${counted(refusals)}; ` +
      `${totals.wrongDesk} steps undone or redone by a desk that did not make them`,
    ms: performance.now() - t0,
  };
}

interface Round {
  readonly o: PostgresSoakOptions;
  readonly server: PostgresServer;
  readonly dir: string;
  readonly docs: string;
  readonly found: DocumentChecks;
  readonly desks: number;
  readonly faults: number;
  readonly deadline: number;
  readonly totals: Record<
    'sigkills' | 'cuts' | 'runs' | 'jobs' | 'doubles' | 'lost' | 'ownerLost' | 'desks' | 'wrongDesk',
    number
  >;
  readonly refusals: Map<string, number>;
  readonly done: Map<string, number>;
}

/** A session's start in whole microseconds, as `connectionOwner` names it (ADR 0027 §5). */
const MICROSECONDS =
  "(extract(epoch FROM date_trunc('second', backend_start))::int8 * 1000000 + extract(microseconds FROM backend_start)::int8 % 1000000)";

async function round(r: Round): Promise<void> {
  const { o, found, totals } = r;
  const problems = found.problems;
  const label = `${r.desks} desks`;
  const name = `soak_desks_${r.desks}`;
  r.server.createDatabase(name);
  const url = r.server.url(name);
  const stopFile = path.join(r.dir, `stop-${r.desks}`);

  const store = await openStore(url);
  const db = store.db;
  addSoakCatalogue(db);
  insertColour(db, { id: 5, name: 'Red' });
  // Each job's effect with who wrote it: the owner its runner acted for, and the session it wrote in.
  db.exec(
    `CREATE TABLE chaos_effect (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, job_id bigint NOT NULL,
       key bigint NOT NULL, owner_pid bigint, owner_start bigint, session_pid bigint, session_start bigint)`,
  );
  let keys = 0;
  const enqueue = (n: number) =>
    db.transaction(() => {
      for (let i = 0; i < n; i++) enqueueJob(db, 'chaos', payload(keys++), { clock: SYSTEM_CLOCK });
    })();
  enqueue(r.desks * 4);
  const remaining = db.prepare("SELECT count(*) FROM job WHERE state IN ('queued', 'running')").pluck();
  const cut = db.prepare(
    `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
      WHERE application_name LIKE 'brick-work %' AND datname = current_database() AND pid = ? AND ${MICROSECONDS} = ?`,
  );

  const all: SoakProcess[] = [];
  const deskOf = new Map<SoakProcess, string>();
  const live = new Set<SoakProcess>();
  /** When each session the harness cut was cut (wall clock, and CLOCK_MONOTONIC as the desks' lines), by `PID START`; and how many cuts each desk had. */
  const cutAt = new Map<string, number>();
  const cutAtNs = new Map<string, bigint>();
  const cutsOf = new Map<SoakProcess, number>();
  /** When each desk that ended on its own was seen gone (wall clock). */
  const exitedAt = new Map<SoakProcess, number>();
  const start = (mode: 'mix' | 'drain' = 'mix') => {
    // Three desk names among the desks: some share a history (an app and its CLI), others have their own.
    const desk = `desk-${all.length % DESK_NAMES}`;
    const w = startWorker(o.bundles, 'desk-worker', [url, r.docs, stopFile, ...(mode === 'drain' ? ['drain'] : [])], {
      BRICK_WORK_DESK: desk,
    });
    deskOf.set(w, desk);
    all.push(w);
    live.add(w);
    w.onLine(() => (lastSaid = performance.now()));
    void w.closed.then(() => {
      live.delete(w);
      if (w.killed) return;
      exitedAt.set(w, Date.now());
      // A desk ends on its own only at the stop file (or, draining, when no job is left); a crash is
      // reported with the others below, a quiet end here, with what it did last.
      if (!stopping && crashOf(w) === null)
        problems.push(
          `postgres (${label}): desk #${w.n} ended on its own (code ${w.code}) before the round's end; its last lines:\n    ` +
            w.lines.slice(-6).join('\n    '),
        );
    });
    return w;
  };
  /**
   * Keeps the round's desks at work. Counted by `alive()`, which a SIGKILL turns false at once: `live`
   * loses a desk only when its exit is seen, and on a loaded machine a second fault can land first — a
   * count of `live` then started no replacement for either, and the round went on with no desk at all.
   */
  const topUp = () => {
    while ([...live].filter((w) => w.alive()).length < r.desks) start();
  };
  let stopping = false;
  /** When a desk last printed a line: desks at work say something every few ms. */
  let lastSaid = performance.now();
  // At work: in the middle of an operation or a job's run (`start`, then `end`, `lost` or `ran`).
  const doing = (w: SoakProcess) => lastLine(w, 'begin ', 'done ', 'refused ', 'start ', 'end ', 'lost ', 'ran ') ?? '';
  const atWork = (w: SoakProcess) => /^(begin|start) /.test(doing(w));
  const midJob = (w: SoakProcess) => doing(w).startsWith('start ');

  let faults = 0;
  /** Cuts asked for and cuts made: a harness that finds no session to cut would soak SIGKILLs alone, unsaid. */
  let cutsTried = 0;
  let cutsMade = 0;
  const light = (when: string) => found.check(db, `${label}, ${when}`, false);
  for (let i = 0; i < r.desks; i++) start();
  while (faults < r.faults) {
    await sleep(rand(o.faultEveryMs ?? [200, 700]));
    if (performance.now() > r.deadline) {
      problems.push(`postgres (${label}): the deadline passed after ${faults} of ${r.faults} faults`);
      break;
    }
    // A round where nothing moves would otherwise spin to the deadline and say only that.
    if (performance.now() - lastSaid > STALL_MS) {
      const desks = [...live].map((w) => `desk #${w.n} (${w.alive() ? 'alive' : 'ended'}): ${w.lines.at(-1) ?? '-'}`);
      problems.push(
        `postgres (${label}): no desk said anything for ${STALL_MS / 1000} s, after ${faults} of ${r.faults} faults; ` +
          `${live.size} desks: ${desks.join('; ') || 'none'}`,
      );
      break;
    }
    // Desks that crash are reported below; a round of nothing but crashes would never reach its faults.
    if (all.filter((w) => crashOf(w) !== null).length >= 3) {
      problems.push(`postgres (${label}): desks crashed; the round stopped after ${faults} of ${r.faults} faults`);
      break;
    }
    if ((remaining.get() as number) < r.desks * 2) enqueue(r.desks * 4);
    topUp();
    const ready = [...live].filter((w) => w.alive() && w.lines.includes('ready'));
    const kill = Math.random() < 0.5;
    // Half the cuts go to a desk running a job: its runner must stop at its next write, as a new session.
    const victim =
      (!kill && Math.random() < 0.5 ? pick(ready.filter(midJob)) : undefined) ??
      pick(ready.filter(atWork)) ??
      pick(ready);
    if (victim === undefined) continue;
    if (kill) {
      if (!victim.kill()) continue;
      totals.sigkills += 1;
    } else {
      // Its session as it last said; gone already (cut, and not yet said again) is no cut.
      const me = lastLine(victim, 'me ')?.split(' ');
      const session = `${me?.[1]} ${me?.[2]}`;
      const wall = Date.now();
      const ns = process.hrtime.bigint();
      cutsTried += 1;
      if ((cut.get(Number(me?.[1]), Number(me?.[2])) as { cut: number } | undefined)?.cut !== 1) continue;
      cutsMade += 1;
      cutAt.set(session, wall);
      cutAtNs.set(session, ns);
      cutsOf.set(victim, (cutsOf.get(victim) ?? 0) + 1);
      totals.cuts += 1;
    }
    faults += 1;
    o.onKill?.();
    topUp();
    if (faults % 25 === 0) light(`after ${faults} faults`);
  }
  if (cutsTried >= 2 && cutsMade === 0)
    problems.push(`postgres (${label}): none of ${cutsTried} cuts found its desk's session on the server`);
  stopping = true;
  fs.writeFileSync(stopFile, 'stop');
  await Promise.all(all.map((w) => w.closed));
  // A last desk runs every job left (those of killed desks and cut sessions, taken over), then ends.
  const drain = start('drain');
  await drain.closed;

  const endedAt = (w: SoakProcess, owner: string): number | null => {
    const ends = [cutAt.get(owner), w.killedAtWall ?? exitedAt.get(w)].filter((t): t is number => t !== undefined);
    return ends.length === 0 ? null : Math.min(...ends);
  };
  found.check(db, `after the round of ${label}`, true);
  found.committed(db, all);
  // Each desk undoes and redoes only its own steps: every step a desk's Undo or Redo committed is that desk's.
  const stepDesk = db.prepare('SELECT desk FROM undo_step_desk WHERE step_id = ?').pluck();
  for (const w of all)
    for (const line of w.lines) {
      const [what, op, step] = line.split(' ');
      if (what !== 'done' || (op !== 'undo' && op !== 'redo')) continue;
      const made = stepDesk.get(Number(step?.split('@')[0])) as string | undefined;
      // A step since dropped (its desk wrote anew after undoing it) is gone with its row.
      if (made !== undefined && made !== deskOf.get(w)) {
        totals.wrongDesk += 1;
        problems.push(
          `desk #${w.n} (${deskOf.get(w)}, ${label}) ${op === 'undo' ? 'undid' : 'redid'} step ${step} of ${made}`,
        );
      }
    }
  const jobs = jobChecks(db, label, keys);
  problems.push(...jobs.problems);
  totals.doubles += jobs.doubles;
  totals.lost += jobs.lost;
  const lostOwners = ownersLost(db, all, `chaos job (${label})`, {
    endedAt,
    // A desk whose session was cut finds its job no longer its own: that is the design, not a loss.
    excused: (_w, line) => cutAt.has(line.split(' ').slice(2, 4).join(' ')),
  });
  problems.push(...lostOwners);
  totals.ownerLost += lostOwners.length;
  for (const w of all) {
    const crash = crashOf(w);
    if (crash) problems.push(crash);
    // A cut fails at most the operation under way; the next connects again. More is a desk that doesn't.
    const unreachable = w.lines.flatMap((l, i) => (/^refused \S+ \S+ store-unreachable /.test(l) ? [i] : []));
    const cuts = cutsOf.get(w) ?? 0;
    const surplus = unreachable[cuts];
    if (surplus !== undefined)
      problems.push(
        `desk #${w.n} (${label}): ${unreachable.length} operations refused as store-unreachable, though its connection ` +
          `was cut ${cuts} times: it did not connect again; before the first too many:\n    ` +
          w.lines.slice(Math.max(0, surplus - 8), surplus + 1).join('\n    '),
      );
    let claimBegan = 0n;
    for (const line of w.lines) {
      const p = line.split(' ');
      if (p[0] === 'begin' && p[1] === 'job') claimBegan = BigInt(p[3] ?? 0);
      // A claim recorded in the name of a session cut (a second and more) before the claim began: the
      // runner named a dead session its owner — the next claim takes the job from it, and so on.
      const cutBefore = p[0] === 'start' ? cutAtNs.get(`${p[2]} ${p[3]}`) : undefined;
      if (cutBefore !== undefined && cutBefore < claimBegan - 1_000_000_000n)
        problems.push(
          `desk #${w.n} (${label}): claimed job ${p[1]} as session ${p[2]} ${p[3]}, which had been cut ` +
            `${Number(claimBegan - cutBefore) / 1e9} s before: a claim in a dead session's name`,
        );
      if (p[0] === 'refused') {
        const code = p[3] ?? '?';
        r.refusals.set(code, (r.refusals.get(code) ?? 0) + 1);
        if (!EXPECTED_REFUSALS.has(code)) problems.push(`desk #${w.n} (${label}): ${line}`);
      }
      // A run that failed, or stopped on anything but its cut connection, met an error not in the design.
      if (p[0] === 'ran' && (p[2] === 'failed' || (p[3] !== '-' && p[3] !== 'store-unreachable')))
        problems.push(`desk #${w.n} (${label}): ${line}`);
      // Runs: each operation begun, a job's counted by its runs (`start`), not its claim.
      if ((p[0] === 'begin' && p[1] !== 'job') || p[0] === 'start') totals.runs += 1;
      const op = p[0] === 'done' && p[1] !== 'job' ? p[1] : p[0] === 'end' ? 'job' : null;
      if (op) r.done.set(op, (r.done.get(op) ?? 0) + 1);
    }
  }
  totals.jobs += keys;
  totals.desks += all.length;
  store.close();
}

/**
 * Every job done, and its effect committed exactly once, by the session that owned the job when it was
 * done, for the owner its runner acted as; no effect of a job that is not done.
 */
function jobChecks(db: StoreDb, label: string, jobs: number): { doubles: number; lost: number; problems: string[] } {
  const problems: string[] = [];
  let doubles = 0;
  let lost = 0;
  const rows = db
    .prepare(
      `SELECT j.id, j.state, o.pid, o.start_ticks AS start,
              (SELECT count(*) FROM chaos_effect e WHERE e.job_id = j.id) AS effects,
              (SELECT count(*) FROM chaos_effect e WHERE e.job_id = j.id
                  AND (e.session_pid IS DISTINCT FROM o.pid OR e.session_start IS DISTINCT FROM o.start_ticks
                       OR e.owner_pid IS DISTINCT FROM o.pid OR e.owner_start IS DISTINCT FROM o.start_ticks)) AS strangers
         FROM job j LEFT JOIN job_owner o ON o.job_id = j.id ORDER BY j.id`,
    )
    .all() as {
    id: number;
    state: string;
    pid: number | null;
    start: number | null;
    effects: number;
    strangers: number;
  }[];
  if (rows.length !== jobs) problems.push(`postgres (${label}): ${rows.length} jobs in the store, ${jobs} enqueued`);
  for (const j of rows) {
    const what = `postgres (${label}): chaos job ${j.id}`;
    if (j.state !== 'done') {
      lost += 1;
      problems.push(`${what} is ${j.state}, not done`);
      if (j.effects > 0) {
        doubles += j.effects;
        problems.push(`${what}: its effect committed ${j.effects} times, though it is not done`);
      }
      continue;
    }
    if (j.effects === 0) {
      lost += 1;
      problems.push(`${what} is done, and its effect is not in the store`);
    } else if (j.effects > 1) {
      doubles += 1;
      problems.push(`${what}: its effect committed ${j.effects} times`);
    }
    if (j.strangers > 0) {
      doubles += j.strangers;
      const by = db
        .prepare('SELECT owner_pid, owner_start, session_pid, session_start FROM chaos_effect WHERE job_id = ?')
        .all(j.id);
      problems.push(
        `${what}: its effect written outside its owner's compare-and-set — owner ${j.pid} ${j.start}, written as ${JSON.stringify(by)}`,
      );
    }
  }
  return { doubles, lost, problems };
}
