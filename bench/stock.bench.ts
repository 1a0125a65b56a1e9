/**
 * Issue 65 §5 (SPEC §12, §16): a pick list for a 500-line order against a 50,000-lot stock, on a SQLite
 * file and on a PostgreSQL server, p99 within 100 ms. The store is made through the contract (a catalogue
 * load, the stock's import, the order's import) and that is timed and printed, never counted; the call is
 * timed as the screens make it (after one untimed call: its statements prepared).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallName } from '../src/api/contract.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../src/clock.ts';
import { identityOf } from '../src/identity/owner.ts';
import { openStore } from '../src/store/open.ts';
import { bytes, files } from '../test/helpers/catalogue-files.ts';
import { csv, file, inventoryXml } from '../test/helpers/documents.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres } from '../test/helpers/postgres.ts';
import { serviceFor } from '../test/helpers/service.ts';
import { collectGarbage, median, percentile, type BenchRow } from './report.ts';

const BAR_MS = 100;
const PARTS = 2_500;
const COLOURS = 20;
/** Every part in every colour: 50,000 lots. */
const LOTS = PARTS * COLOURS;
const ORDER_LINES = 500;
const SAMPLES = 100;

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
): Promise<{ service: Service; orderId: number; madeMs: number; close(): void }> {
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
  return { service, orderId: order.order.id, madeMs: performance.now() - t, close: () => store.close() };
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

/** The rows of one engine: each list's p99 against the bar, its p50 beside it. */
async function rowsOn(engine: string, location: string, ranOn: string): Promise<BenchRow[]> {
  const made = await madeStore(location);
  try {
    const { service, orderId } = made;
    const calls: [string, CallName, object][] = [
      [`pick.list of a ${ORDER_LINES}-line order`, 'pick.list', { orderId }],
      // putAway.list (issue 65 §3) is not on main yet (branch i65-putaway): its row goes here, as
      // [`putAway.list of a ${ORDER_LINES}-line order`, 'putAway.list', { orderId }], once it is.
    ];
    const rows: BenchRow[] = [];
    for (const [label, name, args] of calls) {
      const { times, answer } = await timed(service, name, args);
      const pick = answer as { entries: unknown[]; missing: unknown[]; unplaced: unknown[] };
      rows.push({
        name: `stock lists, ${engine}: ${label} against a ${LOTS.toLocaleString('en')}-lot stock, p99 per call`,
        ranOn,
        measuredMs: percentile(times, 0.99),
        baselineName: `the ${BAR_MS} ms bar`,
        baselineMs: BAR_MS,
        maxRatio: 1,
        details: [
          `p50 ${median(times).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms over ${SAMPLES} calls after one untimed; ` +
            `${pick.entries.length} stops, ${pick.missing.length} missing, ${pick.unplaced.length} unplaced`,
          `the store made through the contract (catalogue, stock import, order import), not counted: ${(made.madeMs / 1000).toFixed(1)} s`,
        ],
      });
    }
    return rows;
  } finally {
    made.close();
  }
}

export async function benchStock(print: (row: BenchRow) => void): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-stock-'));
  const shape = `${PARTS.toLocaleString('en')} parts in ${COLOURS} colours, each a lot of the stock in natural-order bins; an order of ${ORDER_LINES} lines over them (one in fifty the stock lacks)`;
  try {
    for (const row of await rowsOn('SQLite', path.join(dir, 'brick-work.sqlite'), `a SQLite file: ${shape}`))
      print(row);
    if (!hasPostgres()) {
      console.log(`stock lists on PostgreSQL: skipped, ${NEEDS_POSTGRES}\n`);
      return;
    }
    const server = await startPostgres({ durable: true });
    try {
      server.createDatabase('stock');
      for (const row of await rowsOn('PostgreSQL', server.url('stock'), `a server on loopback: ${shape}`)) print(row);
    } finally {
      server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
