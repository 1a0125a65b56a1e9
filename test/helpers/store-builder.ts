/**
 * Builds stores directly, at schema 4.1 (what 0.8.x wrote) or 4.2, and inserts rows with plain SQL, so
 * that a test can set up any state before (or without) the importers that would normally write it.
 */
import Database from 'better-sqlite3';
import type { StoreDb } from '../../src/store/db.ts';
import { onTestFinished } from 'vitest';
import { foldName } from '../../src/placement/fold.ts';
import { APPLICATION_ID } from '../../src/store/application-id.ts';
import { bumpCatalogueGeneration } from '../../src/store/settings.ts';
import { openStore } from '../../src/store/open.ts';
import { createSchema } from '../../src/store/upgrade-runner.ts';
import { BASELINE } from '../../src/store/upgrades/index.ts';
import { newStoreLocation } from './stores.ts';
import { onServer } from '../../src/store/dialect.ts';

export type Db = StoreDb;
const NOW = '2026-01-01T00:00:00.000Z';

/** A store file at `version`, as the version's own app would have left it. The connection stays open. */
export function buildStore(file: string, version: '4.1' | '4.2'): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.transaction(() => {
    if (version === '4.2') {
      createSchema(db);
    } else {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      BASELINE.create(db);
      db.pragma('user_version = 401');
    }
  })();
  return db;
}

/** A SQLite file with the given header values and one table: another version's store, or another app's file. */
export function buildFileWithHeader(file: string, header: { userVersion: number; applicationId?: number }): void {
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.pragma(`application_id = ${header.applicationId ?? APPLICATION_ID}`);
  db.pragma(`user_version = ${header.userVersion}`);
  db.exec("CREATE TABLE something (x); INSERT INTO something VALUES ('from another version')");
  db.close();
}

export function insertItem(
  db: Db,
  item: { type?: string; no: string; name: string; categoryId?: number | null; source?: string },
): void {
  db.prepare(
    `INSERT INTO catalogue_item (item_type, item_no, name, name_key, category_id, source)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(item.type ?? 'P', item.no, item.name, foldName(item.name), item.categoryId ?? null, item.source ?? 'test');
  // As every writer of the catalogue does, so that caches built from it (suggestions) see the change.
  const hasSettings = tableNames(db).includes('setting');
  if (hasSettings) bumpCatalogueGeneration(db);
}

export function insertColour(db: Db, colour: { id: number; name: string }): void {
  db.prepare('INSERT INTO colour (id, name, name_key, source) VALUES (?, ?, ?, ?)').run(
    colour.id,
    colour.name,
    foldName(colour.name),
    'test',
  );
}

export function insertOrder(
  db: Db,
  order: { reference: string; counterparty?: string | null; currency?: string } = { reference: 'order' },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO shop_order (reference, counterparty, counterparty_role, currency, created_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(
        order.reference,
        order.counterparty ?? null,
        order.counterparty ? 'seller' : null,
        order.currency ?? 'USD',
        NOW,
      ).lastInsertRowid,
  );
}

export function insertDocument(
  db: Db,
  doc: { orderId: number; key: string; state?: 'imported' | 'undone'; format?: string },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO document (order_id, doc_key, file_name, format, state, imported_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(doc.orderId, doc.key, `${doc.key}.csv`, doc.format ?? 'csv', doc.state ?? 'imported', NOW).lastInsertRowid,
  );
}

export interface LineRow {
  documentId: number;
  position: number;
  given: {
    type?: string | null;
    no?: string | null;
    name?: string | null;
    colourId?: number | null;
    colourName?: string | null;
  };
  quantity?: number;
  priceE4?: number | null;
  placed?: { type: string; no: string; colourId?: number | null; by: 'number' | 'remembered' | 'name' | 'hand' } | null;
}

export function insertLine(db: Db, line: LineRow): number {
  const g = line.given;
  const p = line.placed ?? null;
  return Number(
    db
      .prepare(
        `INSERT INTO order_line (document_id, position, given_type, given_no, given_name, given_colour_id,
           given_colour_name, quantity, unit_price_e4, condition, item_type, item_no, colour_id, placed_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'N', ?, ?, ?, ?)`,
      )
      .run(
        line.documentId,
        line.position,
        g.type ?? null,
        g.no ?? null,
        g.name ?? null,
        g.colourId ?? null,
        g.colourName ?? null,
        line.quantity ?? 1,
        line.priceE4 ?? null,
        p?.type ?? null,
        p?.no ?? null,
        p?.colourId ?? null,
        p?.by ?? null,
      ).lastInsertRowid,
  );
}

/** A remembered hand placement (schema 4.2). */
export function insertHandPlacement(
  db: Db,
  hp: {
    givenType?: string;
    givenNo?: string | null;
    name?: string | null;
    item: { type: string; no: string };
    colourId?: number | null;
    /** How it was taught (SPEC §6 step 2): the colour of the line it was taught from, and by which desk. */
    taught?: { colourId: number | null; desk: string };
  },
): void {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO hand_placement (given_type, given_no, name_key, item_type, item_no, colour_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      hp.givenType ?? 'P',
      hp.givenNo ?? null,
      hp.givenNo ? null : foldName(hp.name ?? ''),
      hp.item.type,
      hp.item.no,
      hp.colourId ?? null,
      NOW,
    );
  if (hp.taught !== undefined)
    db.prepare(
      `INSERT INTO hand_placement_teaching (placement_id, item_type, item_no, colour_id, desk, taught_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(Number(lastInsertRowid), hp.item.type, hp.item.no, hp.taught.colourId, hp.taught.desk, NOW);
}

/** A colour placement (schema 4.2): the colour staff chose for a given colour id, or a given colour name. */
export function insertColourPlacement(db: Db, cp: { colourId?: number; colourName?: string; to: number }): void {
  db.prepare(
    'INSERT INTO colour_placement (numbering, given_colour_id, given_name_key, colour_id, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(
    cp.colourId !== undefined ? 'bricklink-id' : 'name',
    cp.colourId ?? null,
    cp.colourId !== undefined ? null : foldName(cp.colourName ?? ''),
    cp.to,
    NOW,
  );
}

export function insertJob(db: Db, job: { kind: string; state?: string; payload?: unknown }): number {
  return Number(
    db
      .prepare('INSERT INTO job (kind, state, payload, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(job.kind, job.state ?? 'queued', JSON.stringify(job.payload ?? {}), NOW, NOW).lastInsertRowid,
  );
}

/** A job owner; `identity` only on 4.2 stores (4.1 has just the pid). */
export function insertJobOwner(
  db: Db,
  owner: { jobId: number; pid: number; identity?: { bootId: string | null; startTicks: number | null } },
): void {
  if (owner.identity) {
    db.prepare('INSERT INTO job_owner (job_id, pid, claimed_at, boot_id, start_ticks) VALUES (?, ?, ?, ?, ?)').run(
      owner.jobId,
      owner.pid,
      NOW,
      owner.identity.bootId,
      owner.identity.startTicks,
    );
  } else {
    db.prepare('INSERT INTO job_owner (job_id, pid, claimed_at) VALUES (?, ?, ?)').run(owner.jobId, owner.pid, NOW);
  }
}

/**
 * The store's tables, by name (SQLite's catalogue of them, or on a server its schema's), without the
 * engine's own: SQLite's `sqlite_*`, and a server store's bookkeeping
 * (`brick_work_meta`, the version other desks watch), which a SQLite file keeps in its header.
 */
export function tableNames(db: Db): string[] {
  const sql = onServer(db)
    ? "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE 'brick\\_work\\_%' ORDER BY 1"
    : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name";
  return db.prepare(sql).pluck().all() as string[];
}

/** Every row of every table except SQLite's own, by table, in rowid (or key) order: for exact comparisons. */
export function dumpRows(db: Db, except: readonly string[] = []): Record<string, unknown[]> {
  const tables = tableNames(db);
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    if (except.includes(t)) continue;
    out[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all();
  }
  return out;
}

/** The schema as `sqlite_master` holds it, whitespace normalised, plus each table's columns. */
export function normalisedSchema(db: Db): unknown {
  const objects = db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    .all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  return objects.map((o) => ({
    ...o,
    sql: o.sql?.replace(/\s+/g, ' ').trim() ?? null,
    columns: o.type === 'table' ? db.prepare(`PRAGMA table_info("${o.name}")`).all() : undefined,
  }));
}

/** A fresh 4.2 store in a temporary folder with a small catalogue (3001, 3003, colour 5 Red), closed when the test ends. */
export async function storeWithCatalogue(): Promise<{ db: Db; dbPath: string }> {
  const dbPath = newStoreLocation();
  const store = await openStore(dbPath);
  onTestFinished(() => store.close());
  insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
  insertItem(store.db, { no: '3003', name: 'Brick 2 x 2' });
  insertColour(store.db, { id: 5, name: 'Red' });
  return { db: store.db, dbPath };
}
