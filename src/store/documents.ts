import type { Database } from 'better-sqlite3';
import { BrickWorkError } from '../errors.ts';

export interface DocumentRow {
  readonly id: number;
  readonly orderId: number;
  readonly key: string;
  readonly fileName: string;
  readonly format: string;
  readonly state: 'imported' | 'undone';
  readonly reference: string | null;
  readonly counterparty: string | null;
  readonly currency: string | null;
  readonly importedAt: string;
  readonly undoneAt: string | null;
  readonly lineCount: number;
  readonly orderReference: string;
}

const COLUMNS = `d.id, d.order_id AS orderId, d.doc_key AS key, d.file_name AS fileName, d.format, d.state,
  d.reference, d.counterparty, d.currency, d.imported_at AS importedAt, d.undone_at AS undoneAt,
  (SELECT count(*) FROM order_line l WHERE l.document_id = d.id) AS lineCount,
  (SELECT o.reference FROM shop_order o WHERE o.id = d.order_id) AS orderReference`;

/** The imported (not undone) document with this key, if any: importing the key again is a duplicate. */
export function importedDocument(db: Database, key: string): DocumentRow | null {
  return (
    (db.prepare(`SELECT ${COLUMNS} FROM document d WHERE d.doc_key = ? AND d.state = 'imported'`).get(key) as
      DocumentRow | undefined) ?? null
  );
}

/** The newest undone document with this key, if any: importing the key again revives it. */
export function undoneDocument(db: Database, key: string): DocumentRow | null {
  return (
    (db
      .prepare(
        `SELECT ${COLUMNS} FROM document d WHERE d.doc_key = ? AND d.state = 'undone' ORDER BY d.id DESC LIMIT 1`,
      )
      .get(key) as DocumentRow | undefined) ?? null
  );
}

export function documentsOfOrder(db: Database, orderId: number): DocumentRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM document d WHERE d.order_id = ? ORDER BY d.id`)
    .all(orderId) as DocumentRow[];
}

export function getDocument(db: Database, id: number): DocumentRow {
  const row = db.prepare(`SELECT ${COLUMNS} FROM document d WHERE d.id = ?`).get(id) as DocumentRow | undefined;
  if (row === undefined) throw new BrickWorkError('not-found', `There is no document ${id}.`);
  return row;
}

/** Every document, or an order's, oldest first. */
export function listDocuments(db: Database, orderId: number | null = null): DocumentRow[] {
  return orderId === null
    ? (db.prepare(`SELECT ${COLUMNS} FROM document d ORDER BY d.id`).all() as DocumentRow[])
    : documentsOfOrder(db, orderId);
}

/** Another document that came from the same file in the same import. */
export interface SameFileDocument {
  readonly id: number;
  readonly key: string;
  readonly orderId: number;
  readonly orderReference: string;
}

/**
 * For each imported document among `ids`, the other documents still imported from the same file in the
 * same import (a BrickLink file with several ORDERs). One import writes every document of its file with
 * the file's name and one `imported_at`, and a revival rewrites both, so these columns tell a file's
 * documents apart without a table of their own.
 */
export function sameFileDocuments(db: Database, ids: readonly number[]): Map<number, SameFileDocument[]> {
  const out = new Map<number, SameFileDocument[]>();
  if (ids.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT d.id AS of, s.id, s.doc_key AS key, s.order_id AS orderId, o.reference AS orderReference
         FROM document d
         JOIN document s ON s.file_name = d.file_name AND s.imported_at = d.imported_at AND s.format = d.format
                        AND s.state = 'imported' AND s.id <> d.id
         JOIN shop_order o ON o.id = s.order_id
        WHERE d.state = 'imported' AND d.id IN (SELECT value FROM json_each(?))
        ORDER BY d.id, s.id`,
    )
    .all(JSON.stringify(ids)) as (SameFileDocument & { of: number })[];
  for (const { of, ...doc } of rows) {
    const list = out.get(of) ?? [];
    list.push(doc);
    out.set(of, list);
  }
  return out;
}
