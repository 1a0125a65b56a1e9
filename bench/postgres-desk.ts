/**
 * One desk of the PostgreSQL bench rows (`postgres.bench.ts`), a process of its own on one server store:
 * it opens the store as a desk does (`openStore(url)`), says `ready`, waits for `go` on stdin, then works
 * as fast as it can and prints what it did as one JSON line.
 *
 *   place URL WORK_FILE   places by hand each line of its share ({ first, warm, lines: [[lineId, itemNo], …] }):
 *                         its `first` lines before it says `ready` (a fresh process's first calls load and
 *                         compile its code); after `go` its `warm` lines untimed, with the other desks (the
 *                         optimizing compiler's first seconds), then its `lines`, timing each call:
 *                         { first: [ms…], times: [ms…], others: n } (others: lines placed besides)
 *   claim URL             claims jobs from the queue until none is left, finishing each as it goes:
 *                         { ran: [jobId…] }
 *   during URL WORK_FILE  (a SQLite file's path as well) places by hand, after `go`, each line of its share's
 *                         `lines` until `stop` comes on stdin or they run out, noting each call's start (epoch
 *                         ms) and length, a call refused store-busy too: { calls: [[startMs, ms], …], refused, ranOut, others }
 */
import fs from 'node:fs';
import { writeSession } from '../src/store/session.ts';
import readline from 'node:readline';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { isBrickWorkError } from '../src/vocabulary/errors.ts';
import { placeByHand } from '../src/hand/placement.ts';
import { claimNext, finishJob } from '../src/jobs/queue.ts';
import { openStore } from '../src/store/open.ts';
import { connectionOwner } from '../src/store/owners.ts';

const [mode, url, workFile] = process.argv.slice(2);
if ((mode !== 'place' && mode !== 'claim' && mode !== 'during') || url === undefined)
  throw new Error('usage: postgres-desk place|claim|during URL [WORK_FILE]');

const store = await openStore(url);
const db = store.db;
type Share = [lineId: number, itemNo: string][];
const work =
  mode === 'place' || mode === 'during'
    ? (JSON.parse(fs.readFileSync(workFile ?? '', 'utf8')) as { first: Share; warm: Share; lines: Share })
    : null;
let others = 0;
/** Places each line of `share` by hand on its item, timing each call. */
const place = (share: Share): number[] =>
  share.map(([lineId, no]) => {
    const t = performance.now();
    // As a desk's screen calls it: naming what it showed (the line unplaced), so another desk's fix is not overwritten.
    const placed = placeByHand(writeSession(db), lineId, { type: 'P', no, colourId: null }, SYSTEM_CLOCK, [], null);
    const ms = performance.now() - t;
    others += placed.others.placed + placed.others.moved;
    return ms;
  });
const first = work === null ? [] : place(work.first);

process.stdout.write('ready\n');
let stopped = false;
await new Promise<void>((resolve) => {
  const input = readline.createInterface({ input: process.stdin });
  input.on('line', (line) => {
    if (line.trim() === 'go') {
      if (mode !== 'during') {
        input.close();
        process.stdin.destroy(); // nothing more to read: it must not keep the process alive
      }
      resolve();
    } else if (line.trim() === 'stop') {
      stopped = true;
      input.close();
      process.stdin.destroy();
    }
  });
});

if (mode === 'during' && work !== null) {
  // As a desk's staff do while another desk loads the catalogue: one line after another, each call timed.
  // A call refused after the busy timeout (store-busy) is timed as well, and counted.
  const calls: [number, number][] = [];
  let refused = 0;
  for (let at = 0; at < work.lines.length && !stopped; at++) {
    const start = performance.timeOrigin + performance.now();
    try {
      place([work.lines[at] as Share[number]]);
    } catch (e) {
      if (!isBrickWorkError(e) || e.code !== 'store-busy') throw e;
      refused += 1;
    }
    calls.push([start, performance.timeOrigin + performance.now() - start]);
    // `stop` is read between calls.
    await new Promise((r) => setImmediate(r));
  }
  process.stdout.write(`${JSON.stringify({ calls, refused, ranOut: !stopped, others })}\n`);
  process.stdin.destroy();
} else if (work !== null) {
  // With the other desks, untimed: the optimizing compiler's first seconds of a desk's work (on a shop's
  // desks each compiles on its own computer; here four desks and the server share two cores).
  place(work.warm);
  const times = place(work.lines);
  process.stdout.write(`${JSON.stringify({ first, times, others })}\n`);
} else {
  const me = connectionOwner(db);
  const ran: number[] = [];
  for (;;) {
    const job = claimNext(writeSession(db), me, { clock: SYSTEM_CLOCK, kinds: ['bench'] });
    if (job === null) break;
    ran.push(job.id);
    if (!finishJob(db, job.id, me, { state: 'done' }, { clock: SYSTEM_CLOCK }))
      throw new Error(`job ${job.id} was taken from this desk while it ran`);
  }
  process.stdout.write(`${JSON.stringify({ ran })}\n`);
}
store.close();
