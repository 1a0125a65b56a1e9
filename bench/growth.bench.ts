/**
 * SPEC §12, issue 61 §1: cost as the store grows. The calls staff make all day, timed on a store of 10,000,
 * 100,000 and 1,000,000 saved lines, on a SQLite file and on a PostgreSQL server: each call's p99 at a
 * million lines within twice its p99 at ten thousand. And four desks placing lines at once on the server
 * store of a million lines, p99 within 50 ms.
 *
 * The store grows as issue 61's probe grew it: ten daily orders of a thousand lines, then inventories of
 * 100,000 lines (`growStore`), so that the lines grow a hundredfold and the orders do not (the lists of
 * every order are the lists bench's, at 10,000 orders). Making each store is timed and printed, never counted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallName } from '../src/api/contract.ts';
import type { StoreDb } from '../src/store/db.ts';
import { openStore } from '../src/store/open.ts';
import { growStore, loadGrownCatalogue, ORDER_LINES } from '../test/helpers/grown-store.ts';
import { startPostgres, type PostgresServer } from '../test/helpers/postgres.ts';
import { serviceFor } from '../test/helpers/service.ts';
import { partsCsv } from './data.ts';
import { BAR_MS, DESK_RUNS, DESKS, desksRuns, LINES_PER_DESK } from './postgres.bench.ts';
import { collectGarbage, median, percentile, type BenchRow } from './report.ts';

const SIZES = [10_000, 100_000, 1_000_000] as const;
/** The inventories the store grows by, past its ten daily orders. */
const INVENTORY_LINES = 100_000;
/** Hand placements timed at each size: the p99 of 200 is their second slowest. */
const PLACEMENTS = 200;
/** Calls of each other kind timed at each size: as many, so that a p99 is not the slowest of them (of 60 it is). */
const SAMPLES = PLACEMENTS;
/** A call whose median is under this many ms is timed `CHEAP_SAMPLES` times in all. */
const CHEAP_MS = 2;
const CHEAP_SAMPLES = 1_000;
const MAX_RATIO = 2;

type Service = ReturnType<typeof serviceFor>;
export type Engine = 'SQLite' | 'PostgreSQL';

/** One call's times at one size. */
type Times = Record<string, number[]>;

interface AtSize {
  readonly lines: number;
  readonly bytes: number;
  readonly madeMs: number;
  readonly times: Times;
  readonly others: number;
}

async function ok<T>(answer: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>) {
  const a = await answer;
  if (!a.ok) throw new Error(a.error.message);
  return a.value;
}

/** Times `run` `n` times (after one untimed call: its statements prepared, its code compiled). */
async function timed(n: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  await run(-1);
  collectGarbage();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return times;
}

/** What the calls name at this size: lines of the newest order to place, two daily orders, a line to suggest for. */
function named(db: StoreDb) {
  const newest = db.prepare('SELECT max(id) FROM document').pluck().get() as number;
  // The newest lines first (an inventory just grown, or the daily orders): the first of each pair giving a
  // number the catalogue lacks, whose memory places the other. Read once, untimed.
  const toPlace = db
    .prepare(
      `SELECT id FROM order_line WHERE item_no IS NULL AND given_no LIKE 'u%' AND position % 2 = 1
        ORDER BY id DESC LIMIT ${PLACEMENTS + 1}`,
    )
    .pluck()
    .all() as number[];
  const daily = db
    .prepare(
      "SELECT d.order_id FROM document d JOIN document_tally t ON t.document_id = d.id WHERE d.state = 'imported' AND t.lines = ? ORDER BY d.id LIMIT 2",
    )
    .pluck()
    .all(ORDER_LINES) as number[];
  const unplaced = db
    .prepare('SELECT id FROM order_line WHERE document_id = ? AND item_no IS NULL AND given_no IS NULL LIMIT 1')
    .pluck()
    .get(newest) as number;
  const parts = db
    .prepare("SELECT item_no FROM catalogue_item WHERE item_type = 'P' LIMIT 500")
    .pluck()
    .all() as string[];
  if (toPlace.length <= PLACEMENTS || daily.length < 2) throw new Error('the grown store has too few lines to place');
  return { toPlace, left: daily[0] ?? 0, right: daily[1] ?? 0, unplaced, parts };
}

/** Every call of the row at this size, each timed. */
async function measure(service: Service, db: StoreDb): Promise<{ times: Times; others: number }> {
  const n = named(db);
  const times: Times = {};
  let others = 0;
  times['lines.place'] = await timed(PLACEMENTS, async (i) => {
    const lineId = n.toPlace[i + 1] ?? 0;
    const placed = await ok(
      service.call('lines.place', {
        lineId,
        type: 'P',
        no: n.parts[lineId % n.parts.length] ?? '3001',
        colourId: null,
        seen: null,
      }),
    );
    if (i >= 0) others += placed.others.placed;
  });
  times['history.undo'] = [];
  times['history.redo'] = [];
  for (let i = -1; i < SAMPLES; i++) {
    const state = await ok(service.call('history.state', {}));
    const step = state.undo?.id ?? 0;
    let t = performance.now();
    await ok(service.call('history.undo', { expectedStep: step }));
    if (i >= 0) times['history.undo'].push(performance.now() - t);
    t = performance.now();
    await ok(service.call('history.redo', { expectedStep: step }));
    if (i >= 0) times['history.redo'].push(performance.now() - t);
  }
  const calls: [string, CallName, object][] = [
    ['lines.list', 'lines.list', { orderId: n.left }],
    ['orders.list', 'orders.list', {}],
    ['documents.list', 'documents.list', {}],
    ['export.summary', 'export.summary', {}],
    [
      'compare.run',
      'compare.run',
      { left: { kind: 'order', orderId: n.left }, right: { kind: 'order', orderId: n.right }, first: 100 },
    ],
    ['lines.suggest', 'lines.suggest', { lineId: n.unplaced }],
  ];
  for (const [label, name, args] of calls) {
    const call = () => ok(service.call(name, args as never));
    const first = await timed(SAMPLES, call);
    // A call of a millisecond or less: its p99 of 200 is the third slowest, one scheduling hiccup of the
    // machine (a server process, a timer) the size of the call; of 1,000 it is the tenth.
    times[label] = median(first) > CHEAP_MS ? first : [...first, ...(await timed(CHEAP_SAMPLES - SAMPLES, call))];
  }
  return { times, others };
}

/** What each call is, as the row names it. */
const CALLS: Record<string, string> = {
  'lines.place': 'a hand placement (its memory placing the other line of its number)',
  'history.undo': 'Undo of that placement',
  'history.redo': 'Redo of it',
  'lines.list': `lines.list of an order of ${ORDER_LINES.toLocaleString('en')} lines`,
  'orders.list': 'orders.list',
  'documents.list': 'documents.list of every document',
  'export.summary': 'export.summary',
  'compare.run': `Compare of two orders of ${ORDER_LINES.toLocaleString('en')} lines`,
  'lines.suggest': 'a suggestion (lines.suggest)',
};

function sizeOnDisk(db: StoreDb, file: string | null): number {
  if (file === null) return Number(db.prepare('SELECT pg_database_size(current_database())').pluck().get());
  return [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

/**
 * The store at each size, grown in place, and what the calls measured there. `settle`: after each growth,
 * before measuring (a server's checkpoint of what the growth wrote).
 */
async function atEachSize(
  location: string,
  file: string | null,
  parts: string,
  settle: () => void = () => {},
): Promise<AtSize[]> {
  const store = await openStore(location);
  try {
    await loadGrownCatalogue(store.db, location, parts);
    const service = serviceFor(store.db, location, { desk: 'front' });
    const out: AtSize[] = [];
    for (const size of SIZES) {
      const made = await growStore(store.db, location, size, size === SIZES[0] ? ORDER_LINES : INVENTORY_LINES);
      settle();
      const { times, others } = await measure(service, store.db);
      out.push({ lines: made.lines, bytes: sizeOnDisk(store.db, file), madeMs: made.ms, times, others });
    }
    return out;
  } finally {
    store.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const ms = (v: number) => v.toFixed(1);

/** A row a call: its p99 at a million lines against its p99 at ten thousand. */
function rowsOf(engine: Engine, sizes: readonly AtSize[], ranOn: string): BenchRow[] {
  const first = sizes[0];
  const last = sizes.at(-1);
  if (first === undefined || last === undefined) throw new Error('no sizes measured');
  const made = sizes.map(
    (s) => `${s.lines.toLocaleString('en')} lines in ${(s.madeMs / 1000).toFixed(1)} s (${mb(s.bytes)})`,
  );
  return Object.entries(CALLS).map(([call, label], i) => ({
    name: `cost as the store grows, ${engine}: ${label}, p99 at ${last.lines.toLocaleString('en')} lines`,
    ranOn,
    measuredMs: percentile(last.times[call] ?? [], 0.99),
    baselineName: `its p99 at ${first.lines.toLocaleString('en')} lines`,
    baselineMs: percentile(first.times[call] ?? [], 0.99),
    maxRatio: MAX_RATIO,
    ...(call === 'lines.place'
      ? {
          check: {
            what: 'each placement placed the other line of its number',
            ok: sizes.every((s) => s.others === PLACEMENTS),
            detail: sizes.map((s) => `${s.others} of ${PLACEMENTS}`).join(', '),
          },
        }
      : {}),
    details: [
      `p50 / p99: ${sizes
        .map(
          (s) =>
            `${s.lines.toLocaleString('en')} lines ${ms(median(s.times[call] ?? []))} / ${ms(percentile(s.times[call] ?? [], 0.99))} ms (${mb(s.bytes)} on disk)`,
        )
        .join('; ')}`,
      ...(i === 0 ? [`the store grown in place, not counted: ${made.join('; ')}`] : []),
    ],
  }));
}

/** Four desks placing lines at once on a copy of the server store of a million lines (issue 61 §1). */
async function desksAtAMillion(server: PostgresServer, dir: string, base: string, lines: number): Promise<BenchRow> {
  const { runs, p99s, p99, chosen } = await desksRuns(server, dir, base);
  return {
    name: `cost as the store grows, PostgreSQL: ${DESKS} desks placing lines by hand at once at ${lines.toLocaleString('en')} lines, p99 per call (p50 ${percentile(chosen.times, 0.5).toFixed(1)} ms)`,
    ranOn: `${DESKS} processes, each placing ${LINES_PER_DESK} lines of one order as the desks row does, on a copy of the grown store; the median of ${DESK_RUNS} runs' p99 (${p99s.map(ms).join(', ')} ms)`,
    measuredMs: p99,
    baselineName: 'the 50 ms bar',
    baselineMs: BAR_MS,
    maxRatio: 1,
    check: {
      what: 'every line placed exactly once, the tally right (every run)',
      ok: runs.every((r) => r.ok),
      detail: runs.find((r) => !r.ok)?.detail ?? chosen.detail,
    },
  };
}

/**
 * The rows, each given to `print` as it is measured (a run of both engines takes a while): the SQLite
 * file's, then the server store's and its four desks' (`engines`).
 */
export async function benchGrowth(engines: readonly Engine[], print: (row: BenchRow) => void): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-growth-'));
  const parts = partsCsv();
  const shape = `${parts.ranOn} and 60 BrickLink colours as its catalogue; ten orders of ${ORDER_LINES.toLocaleString('en')} lines, then inventories of ${INVENTORY_LINES.toLocaleString('en')}; each call through the contract's service, ${PLACEMENTS} hand placements and ${SAMPLES} of each other call per size (${CHEAP_SAMPLES.toLocaleString('en')} of one whose median is under ${CHEAP_MS} ms), after one untimed`;
  try {
    if (engines.includes('SQLite')) {
      const file = path.join(dir, 'brick-work.sqlite');
      const sizes = await atEachSize(file, file, parts.text);
      for (const row of rowsOf('SQLite', sizes, `a SQLite file (synchronous=FULL) grown in place: ${shape}`))
        print(row);
    }
    if (!engines.includes('PostgreSQL')) return;
    const server = await startPostgres({ durable: true });
    try {
      const name = 'growth';
      server.createDatabase(name);
      const sizes = await atEachSize(server.url(name), null, parts.text, () => server.sql('postgres', 'CHECKPOINT'));
      const ranOn = `a server on loopback that flushes each commit, grown in place: ${shape}`;
      for (const row of rowsOf('PostgreSQL', sizes, ranOn)) print(row);
      print(await desksAtAMillion(server, dir, name, sizes.at(-1)?.lines ?? 0));
    } finally {
      server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
