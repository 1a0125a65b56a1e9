import type { Database } from 'better-sqlite3';

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
}

const COLUMNS = `d.id, d.order_id AS orderId, d.doc_key AS key, d.file_name AS fileName, d.format, d.state,
  d.reference, d.counterparty, d.currency, d.imported_at AS importedAt, d.undone_at AS undoneAt,
  (SELECT count(*) FROM order_line l WHERE l.document_id = d.id) AS lineCount`;

/** The imported (not undone) document with this key, if any: importing the key again is a duplicate. */
export function importedDocument(db: Database, key: string): DocumentRow | null {
  return (db.prepare(`SELECT ${COLUMNS} FROM document d WHERE d.doc_key = ? AND d.state = 'imported'`).get(key) as DocumentRow | undefined) ?? null;
}

/** The newest undone document with this key, if any: importing the key again revives it. */
export function undoneDocument(db: Database, key: string): DocumentRow | null {
  return (
    (db.prepare(`SELECT ${COLUMNS} FROM document d WHERE d.doc_key = ? AND d.state = 'undone' ORDER BY d.id DESC LIMIT 1`).get(key) as
      | DocumentRow
      | undefined) ?? null
  );
}

export function documentsOfOrder(db: Database, orderId: number): DocumentRow[] {
  return db.prepare(`SELECT ${COLUMNS} FROM document d WHERE d.order_id = ? ORDER BY d.id`).all(orderId) as DocumentRow[];
}
