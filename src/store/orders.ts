import type { Database } from 'better-sqlite3';
import { BrickWorkError } from '../errors.ts';

export interface OrderRow {
  readonly id: number;
  readonly reference: string;
  readonly counterparty: string | null;
  readonly counterpartyRole: 'seller' | 'buyer' | null;
  readonly currency: string;
  readonly orderDate: string | null;
  readonly createdAt: string;
}

/** An order with the counts of its saved lines (lines of documents that are imported, not undone). */
export interface OrderSummary extends OrderRow {
  readonly documents: number;
  readonly lines: number;
  readonly placed: number;
  readonly unplaced: number;
  readonly totalQuantity: number;
  /** Σ quantity × unit price, in ten-thousandths. */
  readonly totalValueE4: number;
  /** 'undone' when every document of the order was taken back (or its import undone): shown as undone, not exported. */
  readonly state: 'open' | 'undone';
  /** When an undone order's last document was taken back; null for an open order. */
  readonly undoneAt: string | null;
}

const ORDER_COLUMNS = `o.id, o.reference, o.counterparty, o.counterparty_role AS counterpartyRole, o.currency,
  o.order_date AS orderDate, o.created_at AS createdAt`;

export function getOrder(db: Database, id: number): OrderRow {
  const row = db.prepare(`SELECT ${ORDER_COLUMNS} FROM shop_order o WHERE o.id = ?`).get(id) as OrderRow | undefined;
  if (row === undefined) throw new BrickWorkError('not-found', `There is no order ${id}.`);
  return row;
}

const SUMMARY = `SELECT ${ORDER_COLUMNS},
        count(DISTINCT d.id) AS documents,
        count(l.id) AS lines,
        count(l.item_no) AS placed,
        count(l.id) - count(l.item_no) AS unplaced,
        coalesce(sum(l.quantity), 0) AS totalQuantity,
        coalesce(sum(l.quantity * coalesce(l.unit_price_e4, 0)), 0) AS totalValueE4,
        CASE WHEN count(d.id) = 0 AND EXISTS (SELECT 1 FROM document x WHERE x.order_id = o.id) THEN 'undone' ELSE 'open' END AS state,
        CASE WHEN count(d.id) = 0 THEN (SELECT max(x.undone_at) FROM document x WHERE x.order_id = o.id) END AS undoneAt
   FROM shop_order o
   LEFT JOIN document d ON d.order_id = o.id AND d.state = 'imported'
   LEFT JOIN order_line l ON l.document_id = d.id`;

/** Every order with its counts; `savedOnly` leaves out orders without saved lines (as the summary export does). */
export function listOrders(db: Database, options: { savedOnly?: boolean } = {}): OrderSummary[] {
  return db
    .prepare(`${SUMMARY} GROUP BY o.id ${options.savedOnly ? 'HAVING count(l.id) > 0' : ''} ORDER BY o.id`)
    .all() as OrderSummary[];
}

/** One order with its counts, without counting every other order's lines. */
export function orderSummary(db: Database, id: number): OrderSummary {
  const row = db.prepare(`${SUMMARY} WHERE o.id = ? GROUP BY o.id`).get(id) as OrderSummary | undefined;
  if (row === undefined) throw new BrickWorkError('not-found', `There is no order ${id}.`);
  return row;
}
