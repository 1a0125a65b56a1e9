/**
 * The soak's look-up job: worker processes (test/workers/lookup-worker.ts) run the job — claims, the
 * day's budget, the run's limit, deferral to the next UTC day — against the BrickLink stand-in, a real
 * HTTP server on 127.0.0.1 in this process that answers each call after a pause, so calls are in
 * flight when the harness kills a worker (mostly mid-call). Staff (the harness) also cancel a running
 * look-up and start it again, start another run when one has used its limit, and move the day on when
 * the budget is used up. Checks, per round: no number asked twice beyond what SPEC §4 allows (a call
 * cut short — its worker killed, or its job cancelled, while that number was being asked — may be asked
 * again); the stand-in never got more calls on one day than the day's limit; every number answered,
 * found items in the catalogue and their lines placed; no two runs of the job at once; no live owner
 * that lost the job other than by a cancel.
 */
import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { SYSTEM_CLOCK, type Clock } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { isBrickWorkError } from '../../src/vocabulary/errors.ts';
import { LOOKUP_JOB_KIND, enqueueLookup, lookupHasWork, pendingLookups } from '../../src/catalogue/lookup-job.ts';
import { cancelJob, getJob } from '../../src/jobs/queue.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';
import { CREDENTIALS_ENV, startStandIn } from './bricklink-stand-in.ts';
import { csv } from './documents.ts';
import { integrityOf, jobHistory, ownersLost, staleReasons, worse, type KindResult } from './soak-checks.ts';
import {
  crashOf,
  lastLine,
  rand,
  sleep,
  sleepUntil,
  startWorker,
  type SoakProcess,
  type WorkerBundles,
} from './soak-workers.ts';

export interface LookupSoakOptions {
  readonly dir: string;
  readonly kills: number;
  readonly bundles: WorkerBundles;
  /** Distinct numbers each round's lines name (120); a third of them BrickLink does not know. */
  readonly numbers?: number;
  /** The day's budget (`daily-call-limit`, 70): below a round's numbers, so each round spans days. */
  readonly dailyLimit?: number;
  /** Worker processes at once (2): they race for the job. */
  readonly workers?: number;
  /** The chance that a call is struck: its worker killed at a random moment of it (or just after). */
  readonly killChance?: number;
  /** Give up a round when nothing moves for this long (ms): no call, no change of the job's state or day. */
  readonly roundDeadlineMs?: number;
  readonly onKill?: () => void;
}

interface JobRow {
  id: number;
  state: string;
  payload: string;
  not_before_day: string | null;
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export async function soakLookup(o: LookupSoakOptions): Promise<KindResult> {
  const t0 = performance.now();
  const dir = path.join(o.dir, 'lookup');
  fs.mkdirSync(dir, { recursive: true });
  const storePath = path.join(dir, 'brick-work.sqlite');
  const m = o.numbers ?? 120;
  const limit = o.dailyLimit ?? 70;
  const workers = o.workers ?? 2;

  /** What BrickLink knows, filled in round by round (the stand-in reads it at each request). */
  const known: Record<string, { name: string }> = {};
  const standIn = await startStandIn(known, { delayMs: [5, 40], stopWithTest: false });
  const store = await openStore(storePath);
  const db = store.db;
  setSetting(db, 'daily-call-limit', String(limit));

  const problems: string[] = [];
  const all: SoakProcess[] = [];
  let kills = 0;
  let cancels = 0;
  let doubles = 0;
  let lost = 0;
  let days = 0;
  // Kills follow the work, not the clock (a loaded machine starts workers slowly): each call is struck
  // with some chance, at a random moment from its sending to a little past how long calls take here —
  // mostly while it is in flight, sometimes while its answer is being recorded or the next one counted.
  let callMs = 25;
  let scheduled = 0;
  const strike = (w: SoakProcess, line: string) => {
    const p = line.split(' ');
    if (p[0] === 'answer') {
      const asked = lastLine(w, 'ask ');
      if (asked !== undefined)
        callMs = 0.9 * callMs + 0.1 * (Number(BigInt(p[3] ?? 0) - BigInt(asked.split(' ')[3] ?? 0)) / 1e6);
      return;
    }
    if (p[0] !== 'ask' || kills + scheduled >= o.kills || Math.random() >= (o.killChance ?? 0.25)) return;
    scheduled += 1;
    const delay = rand([0, 1.5 * callMs]);
    void sleepUntil(BigInt(p[3] ?? 0) + BigInt(Math.round(delay * 1e6))).then(() => {
      scheduled -= 1;
      if (w.kill()) {
        kills += 1;
        o.onKill?.();
      }
    });
  };
  const latestJob = db.prepare(
    `SELECT id, state, payload, not_before_day FROM job WHERE kind = ? ORDER BY id DESC LIMIT 1`,
  );
  const budgetOf = db.prepare('SELECT calls FROM call_budget WHERE day = ?').pluck();

  try {
    for (let round = 0; kills < o.kills; round++) {
      const prefix = `LK${round}N`;
      const numbers = Array.from({ length: m }, (_, i) => `${prefix}${i}`);
      numbers.forEach((no, i) => {
        if (i % 3 !== 0) known[`P ${no}`] = { name: `Looked Up Part ${round} ${i}` };
      });
      // An order whose lines name them (some twice), all unplaced.
      const rows = numbers.flatMap((no, i) =>
        i % 4 === 0
          ? [
              [no, '', '', 1, '0.10'],
              [no, '', '', 2, '0.20'],
            ]
          : [[no, '', '', 1, '0.10']],
      );
      confirmImport(
        writeSession(db),
        {
          file: {
            name: `lookup-${round}.csv`,
            content: new TextEncoder().encode(csv(['number', 'name', 'colour', 'quantity', 'price'], rows)),
          },
        },
        SYSTEM_CLOCK,
      );
      let day = addDays('2031-01-01', round * 10);
      const clockOn = (d: string): Clock => ({ now: () => new Date(`${d}T00:00:01.000Z`) });
      const runLimit = round % 3 === 1 ? 40 : null;
      enqueueLookup(db, clockOn(day), { limit: runLimit });
      const first = all.length;
      const live = new Set<SoakProcess>();
      let mark = standIn.requests.length;
      // Staff cancel the running look-up (and start it again) in every other round.
      let cancelled = round % 2 === 1;
      // A round fails when it stops moving, not when it is slow: a loaded machine starts workers slowly,
      // but a stalled job answers nothing and changes nothing for the whole of roundDeadlineMs.
      const stallMs = o.roundDeadlineMs ?? 120_000;
      let deadline = performance.now() + stallMs;
      let progress = '';

      const endDay = async () => {
        await sleep(60); // calls a killed worker had sent arrive
        const received = standIn.requests.slice(mark).filter((r) => r.startsWith('PART/')).length;
        const counted = (budgetOf.get(day) as number | undefined) ?? 0;
        if (received > limit || counted > limit) {
          doubles += 1;
          problems.push(
            `look-up round ${round}, ${day}: BrickLink got ${received} calls and the budget counted ${counted}, over the day's ${limit}`,
          );
        }
        mark = standIn.requests.length;
        days += 1;
      };

      for (;;) {
        await sleep(10);
        const job = latestJob.get(LOOKUP_JOB_KIND) as JobRow;
        const now = `${job.id} ${job.state} ${job.not_before_day} ${standIn.requests.length}`;
        if (now !== progress) {
          progress = now;
          deadline = performance.now() + stallMs;
        }
        if (performance.now() > deadline) {
          lost += 1;
          problems.push(
            `look-up round ${round}: nothing moved for ${stallMs} ms (day ${day}, job ${job.id} ${job.state}, not before ${job.not_before_day ?? '-'}, ${live.size} workers)\n${jobHistory(db, job.id)}`,
          );
          for (const w of live) w.kill();
          await Promise.all([...live].map((w) => w.closed));
          break;
        }
        if (job.state === 'done' && live.size === 0) {
          await endDay();
          break;
        }
        if (job.state === 'failed') {
          lost += 1;
          problems.push(`look-up round ${round}: the job failed\n${jobHistory(db, job.id)}`);
          for (const w of live) w.kill();
          await Promise.all([...live].map((w) => w.closed));
          break;
        }
        const open = job.state === 'queued' || job.state === 'running';
        const today = job.not_before_day === null || job.not_before_day <= day;
        const hasWork = lookupHasWork(JSON.parse(job.payload));
        const view = getJob(db, job.id);
        const ownerAlive = job.state === 'running' && view?.alive === true;
        if (open && today && hasWork && !ownerAlive) {
          while (live.size < workers) {
            const w = startWorker(o.bundles, 'lookup-worker', [storePath, day, standIn.url], CREDENTIALS_ENV);
            all.push(w);
            live.add(w);
            void w.closed.then(() => live.delete(w));
            w.onLine((line) => strike(w, line));
          }
        }
        const running = [...live].filter(
          (w) => w.alive() && lastLine(w, 'start ', 'end ', 'lost ')?.startsWith('start '),
        );
        if (!cancelled && running.length > 0 && Math.random() < 0.02) {
          // Staff cancel the running look-up and start it again.
          try {
            cancelJob(db, job.id, { clock: clockOn(day) });
            enqueueLookup(db, clockOn(day), { limit: runLimit });
            cancelled = true;
            cancels += 1;
          } catch (e) {
            if (!isBrickWorkError(e)) throw e;
          }
        }
        if (job.state === 'cancelled' && live.size === 0) {
          // A cancel whose restart was refused (the store busy a moment): staff start it again.
          try {
            enqueueLookup(db, clockOn(day), { limit: runLimit });
          } catch (e) {
            if (!isBrickWorkError(e)) throw e;
          }
          continue;
        }
        if (live.size === 0 && open && !(today && hasWork && !ownerAlive)) {
          if (!today && job.not_before_day !== null) {
            // The day's budget is used up: the day ends, and the job goes on the next.
            await endDay();
            day = job.not_before_day;
          } else if (!hasWork) {
            // This run used its limit: staff start another.
            enqueueLookup(db, clockOn(day), { limit: runLimit });
          }
        }
      }

      // Every number asked at most once, plus once for each call of it cut short.
      const workersOfRound = all.slice(first);
      const cutShort = new Map<string, number>();
      for (const w of workersOfRound) {
        let asking: string | null = null;
        for (const line of w.lines) {
          const [what, , no] = line.split(' ');
          if (what === 'ask') asking = no ?? null;
          if (what === 'lost' && asking !== null) cutShort.set(asking, (cutShort.get(asking) ?? 0) + 1);
          if (what === 'start' || what === 'lost') asking = null;
        }
        if (w.killed && asking !== null) cutShort.set(asking, (cutShort.get(asking) ?? 0) + 1);
      }
      const asks = new Map<string, number>();
      for (const r of standIn.requests)
        if (r.startsWith(`PART/${prefix}`)) asks.set(r.slice(5), (asks.get(r.slice(5)) ?? 0) + 1);
      for (const no of numbers) {
        const n = asks.get(no) ?? 0;
        const allowed = 1 + (cutShort.get(no) ?? 0);
        if (n > allowed) {
          doubles += 1;
          problems.push(`look-up round ${round}: ${no} was asked ${n} times; calls of it cut short: ${allowed - 1}`);
        }
      }
      // Every number answered; what BrickLink has is in the catalogue.
      const left = pendingLookups(db).filter((p) => p.no.startsWith(prefix));
      if (left.length > 0) {
        lost += left.length;
        problems.push(`look-up round ${round}: ${left.length} numbers never answered, e.g. ${left[0]?.no}`);
      }
      const foundCount = db
        .prepare("SELECT count(*) FROM catalogue_item WHERE item_no LIKE ? AND source = 'bricklink-api'")
        .pluck()
        .get(`${prefix}%`) as number;
      const wanted = numbers.filter((_, i) => i % 3 !== 0).length;
      if (foundCount !== wanted) {
        lost += Math.abs(wanted - foundCount);
        problems.push(
          `look-up round ${round}: ${foundCount} of the ${wanted} items BrickLink has are in the catalogue`,
        );
      }
      // No two runs of one job at once.
      const spans = new Map<number, { w: SoakProcess; start: bigint; end: bigint }[]>();
      for (const w of workersOfRound) {
        let open: { id: number; start: bigint } | null = null;
        for (const line of w.lines) {
          const p = line.split(' ');
          if (p[0] === 'start') open = { id: Number(p[1]), start: BigInt(p[2] ?? 0) };
          else if ((p[0] === 'end' || p[0] === 'lost') && open !== null) {
            const list = spans.get(open.id) ?? [];
            list.push({ w, start: open.start, end: BigInt(p[2] ?? 0) });
            spans.set(open.id, list);
            open = null;
          }
        }
        if (open !== null) {
          const list = spans.get(open.id) ?? [];
          list.push({ w, start: open.start, end: w.death ?? open.start });
          spans.set(open.id, list);
        }
      }
      for (const [id, list] of spans) {
        list.sort((a, b) => (a.start < b.start ? -1 : 1));
        for (let i = 1; i < list.length; i++) {
          const prev = list[i - 1];
          const cur = list[i];
          if (prev && cur && cur.start < prev.end) {
            doubles += 1;
            problems.push(
              `look-up job ${id}: worker #${cur.w.n} ran it while worker #${prev.w.n} still did\n${jobHistory(db, id)}`,
            );
          }
        }
      }
    }
  } finally {
    await standIn.close();
  }

  const ownerLost = ownersLost(db, all, 'look-up job');
  const s = staleReasons(db);
  if (s.count > 0) problems.push(`look-up: ${s.count} stale reasons, e.g. ${s.examples.join('; ')}`);
  const integrity = integrityOf(db);
  if (integrity !== 'ok') problems.push(`look-up: integrity ${integrity}`);
  store.close();
  for (const w of all) {
    const crash = crashOf(w);
    if (crash) problems.push(crash);
  }
  problems.push(...ownerLost);
  return {
    kind: 'look-up',
    kills,
    runs: all.reduce((n, w) => n + w.lines.filter((l) => l.startsWith('start ')).length, 0),
    doubleRuns: doubles,
    lostWork: lost,
    staleReasons: s.count,
    ownerLost: ownerLost.length,
    integrity: worse('ok', integrity),
    problems,
    notes: `${all.length} workers, ${standIn.requests.length} calls to the stand-in over ${days} days, ${cancels} cancels`,
    ms: performance.now() - t0,
  };
}
