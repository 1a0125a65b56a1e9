import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallName } from '../src/api/contract.ts';
import { openStore } from '../src/store/open.ts';
import { benchCore, untilSuggestionsReady } from './answers.bench.ts';
import { median, percentile, type BenchRow } from './report.ts';

const BAR_MS = 100;
const ORDERS = 10_000;
const LINES_PER_DOCUMENT = 50;
const CALLS = 15;

/**
 * SPEC §11: the screens answer within 100 ms — also in a busy shop's store, a year or two of orders
 * (10,000 orders, 500,000 saved lines). The lists the Orders screen opens on and refreshes after every
 * write (orders.list, documents.list) and the summary export are timed as the screens call them (the
 * core as the app starts it, once its threads are up), p95 over repeated calls. Their time must not grow
 * with the saved lines: the counts come from each document's tally, not from its lines.
 */
export async function benchLists(): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-lists-'));
  try {
    const storePath = path.join(dir, 'brick-work.sqlite');
    const lines = await busyStore(storePath);
    const core = await benchCore(storePath);
    try {
      const ranOn = `a store of ${ORDERS.toLocaleString('en')} orders and ${lines.toLocaleString('en')} lines (made at run time)`;
      const calls: [string, CallName, object][] = [
        ['orders.list (the Orders screen)', 'orders.list', {}],
        ["documents.list of every document (the CLI's documents)", 'documents.list', {}],
        ['export.summary (the summary CSV)', 'export.summary', {}],
      ];
      const rows: BenchRow[] = [];
      await untilSuggestionsReady(core);
      for (const [label, name, args] of calls) {
        const times: number[] = [];
        await core.service.call(name, args); // its statements prepared once, as after the app's first screen
        for (let i = 0; i < CALLS; i++) {
          const t = performance.now();
          const r = (await core.service.call(name, args)) as { ok: boolean };
          times.push(performance.now() - t);
          if (!r.ok) throw new Error(`${name} was refused: ${JSON.stringify(r)}`);
        }
        rows.push({
          name: `${label}, p95 per call`,
          ranOn,
          measuredMs: percentile(
            [...times].sort((a, b) => a - b),
            0.95,
          ),
          baselineName: "SPEC §11's bar for a screen's answer",
          baselineMs: BAR_MS,
          maxRatio: 1,
          details: [`median ${median(times).toFixed(1)} ms over ${CALLS} calls, once the app's threads are up`],
        });
      }
      return rows;
    } finally {
      await core.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The store of a busy shop, written with plain SQL for speed (the store's own triggers and checks
 * apply): every order one document of 50 lines, four in five lines placed, one document in twenty undone.
 */
async function busyStore(storePath: string): Promise<number> {
  const store = await openStore(storePath);
  const db = store.db;
  let lines = 0;
  db.transaction(() => {
    const now = '2026-01-01T00:00:00.000Z';
    const item = db.prepare(
      "INSERT INTO catalogue_item (item_type, item_no, name, name_key, source) VALUES ('P', ?, ?, ?, 'bench')",
    );
    for (let i = 0; i < 100; i++) item.run(`${3000 + i}`, `Brick ${i}`, `brick ${i}`);
    const order = db.prepare(
      "INSERT INTO shop_order (reference, counterparty, currency, created_at) VALUES (?, ?, 'USD', ?)",
    );
    const document = db.prepare(
      `INSERT INTO document (order_id, doc_key, file_name, format, state, imported_at, undone_at)
       VALUES (?, ?, ?, 'csv', ?, ?, ?)`,
    );
    const line = db.prepare(
      `INSERT INTO order_line (document_id, position, given_type, given_no, quantity, unit_price_e4,
         item_type, item_no, placed_by, unplaced_reason) VALUES (?, ?, 'P', ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let o = 1; o <= ORDERS; o++) {
      const orderId = Number(order.run(`R-${o}`, `Buyer ${o % 300}`, now).lastInsertRowid);
      const undone = o % 20 === 0;
      const documentId = Number(
        document.run(orderId, `order-${o}`, `order-${o}.csv`, undone ? 'undone' : 'imported', now, undone ? now : null)
          .lastInsertRowid,
      );
      for (let p = 1; p <= LINES_PER_DOCUMENT; p++) {
        const placed = p % 5 !== 0;
        const no = `${3000 + ((o + p) % 100)}`;
        line.run(
          documentId,
          p,
          placed ? no : `${no}x`,
          1 + (p % 7),
          500 + p,
          placed ? 'P' : null,
          placed ? no : null,
          placed ? 'number' : null,
          placed ? null : 'The BrickLink number is not in the catalogue',
        );
        lines++;
      }
    }
  })();
  store.close();
  return lines;
}
