/**
 * Issue 65 §5 (SPEC §12, §16): a pick list and a put-away list for a 500-line order against a 50,000-lot
 * stock, on a SQLite file and on a PostgreSQL server, p99 within 100 ms each. The store is made through the contract (a catalogue
 * load, the stock's import, the order's import) and that is timed and printed, never counted; the call is
 * timed as the screens make it (after one untimed call: its statements prepared). Then the picking keys
 * on that walk in Chromium through the browser host (the SQLite file): from a key to the screen showing its
 * answer, p99 within 50 ms; beside them, what a mark's call (`pick.mark`) takes on each engine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallName } from '../src/api/contract.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { identityOf } from '../src/identity/owner.ts';
import { openStore } from '../src/store/open.ts';
import { bytes, files } from '../test/helpers/catalogue-files.ts';
import { csv, file, inventoryXml } from '../test/helpers/documents.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres } from '../test/helpers/postgres.ts';
import { serviceFor } from '../test/helpers/service.ts';
import { buildScreens, hasChromium, openApp, openOrderByReference } from '../test/helpers/browser.ts';
import { collectGarbage, median, percentile, type BenchRow } from './report.ts';

const BAR_MS = 100;
const PARTS = 2_500;
const COLOURS = 20;
/** Every part in every colour: 50,000 lots. */
const LOTS = PARTS * COLOURS;
const ORDER_LINES = 500;
const SAMPLES = 100;
/** A picking key is answered at once (SPEC §12). */
const KEY_BAR_MS = 50;
/** Keys of each kind timed in the page: ↓, Space, a number key, and Enter after it. */
const KEY_ROUNDS = 40;

type Service = ReturnType<typeof serviceFor>;

async function ok<T>(answer: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>) {
  const a = await answer;
  if (!a.ok) throw new Error(a.error.message);
  return a.value;
}

const partNo = (i: number) => `${30000 + i}`;
const colourId = (c: number) => c + 1;

/** The stock: each part in each colour, in bins of ten cabinets, several lots a drawer; a lot in twenty used. */
function stockCsv(): string {
  const rows: (string | number)[][] = [];
  for (let p = 0; p < PARTS; p++)
    for (let c = 0; c < COLOURS; c++) {
      const i = p * COLOURS + c;
      rows.push([
        partNo(p),
        colourId(c),
        1 + (i % 40),
        i % 20 === 0 ? 'U' : 'N',
        `${'ABCDEFGHJK'[i % 10]}-${1 + (i % 997)}`,
        `${100_000 + i}`,
      ]);
    }
  return csv(['Part', 'Color ID', 'Qty', 'Condition', 'Bin', 'Lot ID'], rows);
}

/** An order going out: 500 lines over the stock's parts, some more than a lot holds, some the stock lacks. */
function orderXml(): string {
  return inventoryXml(
    Array.from({ length: ORDER_LINES }, (_, i) => ({
      no: i % 50 === 49 ? `${90000 + i}` : partNo((i * 37) % PARTS),
      colour: colourId((i * 7) % COLOURS),
      qty: 1 + (i % 60),
    })),
  );
}

/** A store with the catalogue, the stock and the order, made through the contract; how long that took. */
async function madeStore(
  location: string,
): Promise<{ service: Service; orderId: number; reference: string; madeMs: number; close(): void }> {
  const t = performance.now();
  const store = await openStore(location);
  const items = Array.from({ length: PARTS }, (_, i) => ({ no: partNo(i), name: `Bench part ${i}` }));
  const colours = Array.from({ length: COLOURS }, (_, c) => ({ id: colourId(c), name: `Colour ${colourId(c)}` }));
  await loadCatalogue(
    store.db,
    location,
    [
      { name: 'Parts.txt', content: bytes(files.bricklinkItemsTab(items)) },
      { name: 'colors.txt', content: bytes(files.bricklinkColoursTab(colours)) },
    ],
    { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
  );
  const service = serviceFor(store.db, location, { desk: 'front' });
  const stock = await ok(service.call('stock.import', { file: file('stock.csv', stockCsv()), locationFrom: 'Bin' }));
  if (stock.stock.lots !== LOTS || stock.stock.unplaced !== 0)
    throw new Error(`the stock is ${JSON.stringify(stock.stock)}`);
  const [order] = await ok(service.call('import.confirm', { file: file('order.xml', orderXml()) }));
  if (order === undefined) throw new Error('no order');
  return {
    service,
    orderId: order.order.id,
    reference: order.order.reference,
    madeMs: performance.now() - t,
    close: () => store.close(),
  };
}

/** Times a call `SAMPLES` times after one untimed. */
async function timed(service: Service, name: CallName, args: object): Promise<{ times: number[]; answer: unknown }> {
  const answer = await ok(service.call(name, args as never));
  collectGarbage();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await ok(service.call(name, args as never));
    times.push(performance.now() - t);
  }
  return { times, answer };
}

/**
 * A mark's call as a Space makes it, on `SAMPLES` stops of the walk (each once, after one untimed), each
 * taken back after (untimed): the walk is left unmarked for the keys.
 */
async function markTimes(service: Service, orderId: number): Promise<number[]> {
  const list = await ok(service.call('pick.list', { orderId }));
  const stops = list.entries.slice(0, SAMPLES + 1);
  const times: number[] = [];
  for (const [i, e] of stops.entries()) {
    const t = performance.now();
    await ok(service.call('pick.mark', { orderId, key: e.key, picked: e.take }));
    if (i > 0) times.push(performance.now() - t);
  }
  for (const e of stops) await ok(service.call('pick.unmark', { orderId, key: e.key }));
  return times;
}

/** What one engine measured: its rows, and the mark's call times for the keys' row. */
interface EngineRun {
  readonly rows: BenchRow[];
  readonly marks: number[];
  readonly reference: string;
}

/** The rows of one engine: each list's p99 against the bar, its p50 beside it. */
async function rowsOn(engine: string, location: string, ranOn: string): Promise<EngineRun> {
  const made = await madeStore(location);
  try {
    const { service, orderId } = made;
    const calls: [string, CallName, object][] = [
      [`pick.list of a ${ORDER_LINES}-line order`, 'pick.list', { orderId }],
      // The same order's lines as received: each into its lot, or a new lot with a location suggested.
      [`putAway.list of a ${ORDER_LINES}-line order`, 'putAway.list', { orderId }],
    ];
    const rows: BenchRow[] = [];
    for (const [label, name, args] of calls) {
      const { times, answer } = await timed(service, name, args);
      const list = answer as { entries: unknown[]; missing?: unknown[]; unplaced: unknown[] };
      rows.push({
        name: `stock lists, ${engine}: ${label} against a ${LOTS.toLocaleString('en')}-lot stock, p99 per call`,
        ranOn,
        measuredMs: percentile(times, 0.99),
        baselineName: `the ${BAR_MS} ms bar`,
        baselineMs: BAR_MS,
        maxRatio: 1,
        details: [
          `p50 ${median(times).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms over ${SAMPLES} calls after one untimed; ` +
            `${list.entries.length} entries, ${list.missing === undefined ? '' : `${list.missing.length} missing, `}${list.unplaced.length} unplaced`,
          `the store made through the contract (catalogue, stock import, order import), not counted: ${(made.madeMs / 1000).toFixed(1)} s`,
        ],
      });
    }
    return { rows, marks: await markTimes(service, orderId), reference: made.reference };
  } finally {
    made.close();
  }
}

/**
 * In the page: each key dispatched to the walk, and the time until the screen shows its answer — the
 * selection moved (↓), the stop marked (Space), the number typed shown (a digit), the stop marked in part
 * or whole (Enter after it). A pause between keys, as a worker's hands leave one.
 */
const KEYS_IN_PAGE = (rounds: number) => `(async () => {
  const walk = document.querySelector('[data-testid="pick-walk"]');
  const selected = () => document.querySelector('.pick-row.selected');
  const shown = (done) => new Promise((resolve) => {
    const check = () => (done() ? resolve() : setTimeout(check, 0));
    check();
  });
  const press = async (key, done) => {
    const t0 = performance.now();
    walk.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    await shown(done);
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 60));
    return ms;
  };
  const out = { move: [], mark: [], digit: [], enter: [] };
  for (let i = 0; i < ${rounds}; i++) {
    let row = selected();
    out.move.push(await press('ArrowDown', () => selected() !== row));
    row = selected();
    out.mark.push(await press(' ', () => row.getAttribute('data-state') === 'picked'));
    row = selected();
    out.digit.push(await press('1', () => row.querySelector('[data-testid="pick-typing"]') !== null));
    const before = row.getAttribute('data-state');
    out.enter.push(await press('Enter', () => row.getAttribute('data-state') !== before));
  }
  return out;
})()`;

/** The picking keys on the walk in Chromium through the browser host on the SQLite file; null without Chromium. */
async function keysRow(
  location: string,
  reference: string,
  marks: readonly { engine: string; times: readonly number[] }[],
  ranOn: string,
): Promise<BenchRow | null> {
  if (!hasChromium()) return null;
  // The screens as `npm run serve` builds them, beside the store (the bench's own folder, removed after).
  const screens = path.join(path.dirname(location), 'screens');
  buildScreens(screens);
  const app = await openApp(location, ['--renderer', screens]);
  try {
    const { page } = app;
    await openOrderByReference(page, reference);
    await page.getByTestId('order-pick').click();
    await page.getByTestId('pick-row').first().waitFor();
    await page.getByTestId('pick-walk').and(page.locator(':focus')).waitFor();
    const times = (await page.evaluate(KEYS_IN_PAGE(KEY_ROUNDS))) as Record<
      'move' | 'mark' | 'digit' | 'enter',
      number[]
    >;
    const all = Object.values(times).flat();
    const kinds = [
      ['↓', times.move],
      ['Space', times.mark],
      ['a number key', times.digit],
      ['Enter after it', times.enter],
    ] as const;
    return {
      name: `picking keys in Chromium: ↓, Space and a number key on a ${ORDER_LINES}-line order's walk against a ${LOTS.toLocaleString('en')}-lot stock, p99 from the key to its answer on screen`,
      ranOn: `${ranOn}; Debian Chromium through the browser host, ${all.length} keys 60 ms apart, each mark's call (pick.mark) sent as it is`,
      measuredMs: percentile(all, 0.99),
      baselineName: `the ${KEY_BAR_MS} ms bar`,
      baselineMs: KEY_BAR_MS,
      maxRatio: 1,
      details: [
        kinds
          .map(([kind, ms]) => `${kind}: p50 ${median(ms).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms`)
          .join('; '),
        `a mark's call (pick.mark, one undo step) as the screen sends it, over ${SAMPLES} stops: ` +
          marks
            .map(
              (m) => `${m.engine} p50 ${median(m.times).toFixed(1)} ms, p99 ${percentile(m.times, 0.99).toFixed(1)} ms`,
            )
            .join('; '),
      ],
    };
  } finally {
    await app.close();
  }
}

export async function benchStock(print: (row: BenchRow) => void): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-stock-'));
  const shape = `${PARTS.toLocaleString('en')} parts in ${COLOURS} colours, each a lot of the stock in natural-order bins; an order of ${ORDER_LINES} lines over them (one in fifty the stock lacks)`;
  try {
    const sqlite = path.join(dir, 'brick-work.sqlite');
    const onFile = await rowsOn('SQLite', sqlite, `a SQLite file: ${shape}`);
    for (const row of onFile.rows) print(row);
    const marks = [{ engine: 'SQLite', times: onFile.marks }];
    if (!hasPostgres()) console.log(`stock lists on PostgreSQL: skipped, ${NEEDS_POSTGRES}\n`);
    else {
      const server = await startPostgres({ durable: true });
      try {
        server.createDatabase('stock');
        const onServer = await rowsOn('PostgreSQL', server.url('stock'), `a server on loopback: ${shape}`);
        for (const row of onServer.rows) print(row);
        marks.push({ engine: 'PostgreSQL', times: onServer.marks });
      } finally {
        server.close();
      }
    }
    const keys = await keysRow(sqlite, onFile.reference, marks, `the SQLite file: ${shape}`);
    if (keys === null)
      console.log("picking keys: skipped, Debian's Chromium (its browser) is missing: apt-get install -y chromium\n");
    else print(keys);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
