import type { ReadableDb } from './db.ts';
import { idsOfJson } from './dialect.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';

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
  coalesce((SELECT t.lines FROM document_tally t WHERE t.document_id = d.id), 0) AS lineCount,
  (SELECT o.reference FROM shop_order o WHERE o.id = d.order_id) AS orderReference`;

/**
 * A row of COLUMNS, by position. Rows are read as arrays and made into objects of one shape here: for
 * every document of a busy shop (ten thousand) about a third faster than SQLite's row objects.
 */
function documentOf(r: readonly unknown[]): DocumentRow {
  return {
    id: r[0] as number,
    orderId: r[1] as number,
    key: r[2] as string,
    fileName: r[3] as string,
    format: r[4] as string,
    state: r[5] as DocumentRow['state'],
    reference: r[6] as string | null,
    counterparty: r[7] as string | null,
    currency: r[8] as string | null,
    importedAt: r[9] as string,
    undoneAt: r[10] as string | null,
    lineCount: r[11] as number,
    orderReference: r[12] as string,
  };
}

function oneDocument(db: ReadableDb, where: string, ...params: unknown[]): DocumentRow | null {
  const row = db
    .prepare(`SELECT ${COLUMNS} FROM document d ${where}`)
    .raw()
    .get(...params) as unknown[] | undefined;
  return row === undefined ? null : documentOf(row);
}

function documents(db: ReadableDb, where: string, ...params: unknown[]): DocumentRow[] {
  return (
    db
      .prepare(`SELECT ${COLUMNS} FROM document d ${where}`)
      .raw()
      .all(...params) as unknown[][]
  ).map(documentOf);
}

/** The imported (not undone) document with this key, if any: importing the key again is a duplicate. */
export function importedDocument(db: ReadableDb, key: string): DocumentRow | null {
  return oneDocument(db, "WHERE d.doc_key = ? AND d.state = 'imported'", key);
}

/** The newest undone document with this key, if any: importing the key again revives it. */
export function undoneDocument(db: ReadableDb, key: string): DocumentRow | null {
  return oneDocument(db, "WHERE d.doc_key = ? AND d.state = 'undone' ORDER BY d.id DESC LIMIT 1", key);
}

export function documentsOfOrder(db: ReadableDb, orderId: number): DocumentRow[] {
  return documents(db, 'WHERE d.order_id = ? ORDER BY d.id', orderId);
}

export function getDocument(db: ReadableDb, id: number): DocumentRow {
  const row = oneDocument(db, 'WHERE d.id = ?', id);
  if (row === null) throw new BrickWorkError('not-found', `There is no document ${id}.`);
  return row;
}

/** Every document, or an order's, oldest first. */
export function listDocuments(db: ReadableDb, orderId: number | null = null): DocumentRow[] {
  return orderId === null ? documents(db, 'ORDER BY d.id') : documentsOfOrder(db, orderId);
}

/** Another document that came from the same file in the same import. */
export interface SameFileDocument {
  readonly id: number;
  readonly key: string;
  readonly orderId: number;
  readonly orderReference: string;
}

/** `sameFileDocuments` of the imported documents among `rows`: what a list of documents shows beside each. */
export function sameFileOfImported(db: ReadableDb, rows: readonly DocumentRow[]): Map<number, SameFileDocument[]> {
  return sameFileDocuments(
    db,
    rows.filter((d) => d.state === 'imported').map((d) => d.id),
  );
}

/**
 * For each imported document among `ids`, the other documents still imported from the same file in the
 * same import (a BrickLink file with several ORDERs). One import writes every document of its file with
 * the file's name and one `imported_at`, and a revival rewrites both, so these columns tell a file's
 * documents apart without a table of their own.
 */
export function sameFileDocuments(db: ReadableDb, ids: readonly number[]): Map<number, SameFileDocument[]> {
  const out = new Map<number, SameFileDocument[]>();
  if (ids.length === 0) return out;
  // Every imported document of the imports that `ids` came from, looked up by file and time (an index):
  // never a read of every document, which grows with the shop (issue 61 §1).
  const rows = db
    .prepare(
      `SELECT DISTINCT s.id, s.doc_key AS key, s.order_id AS orderId, o.reference AS orderReference,
              s.file_name AS fileName, s.imported_at AS importedAt, s.format
         FROM document w
         JOIN document s ON s.file_name = w.file_name AND s.imported_at = w.imported_at AND s.format = w.format
                        AND s.state = 'imported'
         JOIN shop_order o ON o.id = s.order_id
        WHERE w.id IN (${idsOfJson(db)}) AND w.state = 'imported'
        ORDER BY s.id`,
    )
    .all(JSON.stringify(ids)) as (SameFileDocument & { fileName: string; importedAt: string; format: string })[];
  const byImport = new Map<string, SameFileDocument[]>();
  for (const { fileName, importedAt, format, ...doc } of rows) {
    const key = JSON.stringify([fileName, importedAt, format]);
    const group = byImport.get(key);
    if (group === undefined) byImport.set(key, [doc]);
    else group.push(doc);
  }
  const wanted = new Set(ids);
  for (const group of byImport.values()) {
    if (group.length < 2) continue;
    for (const d of group)
      if (wanted.has(d.id))
        out.set(
          d.id,
          group.filter((s) => s.id !== d.id),
        );
  }
  return out;
}
