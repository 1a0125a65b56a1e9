/**
 * Opens a store on a PostgreSQL server (SPEC §14, ADR 0027): an empty database becomes a store at 4.2;
 * one of ours is upgraded along its own chain (`upgrades.ts`); anything else is refused untouched, as a
 * SQLite file of another application is.
 */
import { declaredIndexSql, type TableName } from '../schema/tables-4.2.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { storeName } from '../../vocabulary/store-location.ts';
import { APP_VERSION } from '../../platform/version.ts';
import { APPLICATION_ID, formatApplicationId } from '../application-id.ts';
import {
  compareVersions,
  formatVersion,
  fromUserVersion,
  toUserVersion,
  type SchemaVersion,
} from '../schema-version.ts';
import { TABLES_WITH_ID } from '../schema/tables-4.2.ts';
import { CURRENT_SCHEMA } from '../upgrades/index.ts';
import { PostgresDatabase, type PostgresConnectOptions } from './database.ts';
import {
  HAND_PLACEMENT_TEACHING,
  JOB_OWNER_DESK,
  PICK_MARK,
  SCHEMA_4_2,
  STOCK_LOT,
  STOCK_ORDER,
  UNDO_STEP_DESK,
} from './schema-4.2.ts';
import { POSTGRES_UPGRADES, type PostgresUpgrade } from './upgrades.ts';

/** The oldest server brick-work's statements are written for (nondeterministic collations, PL/pgSQL's forms). */
export const OLDEST_SERVER = 130000;
/** The schema a store on a server is made at: none is older, and none older is upgraded. */
export const SERVER_BORN_AT: SchemaVersion = { major: 4, minor: 2 };
const BORN_AT = SERVER_BORN_AT;

export interface ServerStoreOptions extends PostgresConnectOptions {
  readonly readOnly?: boolean;
  /** The upgrade chain (tests give their own); the build's own by default. */
  readonly upgrades?: readonly PostgresUpgrade[];
  /** The schema this build reads and writes; the build's own by default. */
  readonly current?: SchemaVersion;
}

export interface OpenedServerStore {
  readonly db: PostgresDatabase;
  readonly created: boolean;
  /**
   * Why this desk can't write the store, when a read-write open found so (a standby, a database set
   * read-only, a login without write rights): it was opened for reading instead (SPEC §8, §14); null otherwise.
   */
  readonly unwritable: string | null;
  /** The steps this open ran, `4.2 → 4.3`, … (none on a current store). */
  readonly upgraded: readonly string[];
}

/**
 * A read-only open of a database with nothing in it: the caller reads it as an empty store, as a SQLite
 * path with no file yet (SPEC §14); said in words for any caller that does not.
 */
export class EmptyServerDatabase extends BrickWorkError {
  constructor(url: string) {
    super(
      'needs-upgrade',
      `The database ${storeName(url)} is empty: open it read-write once (any brick-work command that writes, ` +
        'or the app) to make it a brick-work store.',
    );
  }
}

type Found =
  | { readonly kind: 'empty' }
  | { readonly kind: 'foreign'; readonly applicationId: number | null }
  | { readonly kind: 'store'; readonly version: SchemaVersion };

export function openServerStore(url: string, options: ServerStoreOptions = {}): OpenedServerStore {
  const current = options.current ?? CURRENT_SCHEMA;
  const upgrades = options.upgrades ?? POSTGRES_UPGRADES;
  const db = PostgresDatabase.connect(url, { ...options, tablesWithId: TABLES_WITH_ID });
  try {
    refuseOldServer(db, url);
    let found = look(db);
    refuse(url, found, current);
    if (options.readOnly) {
      if (found.kind === 'empty') throw new EmptyServerDatabase(url);
      if (found.kind === 'store' && compareVersions(found.version, current) < 0) {
        throw new BrickWorkError(
          'needs-upgrade',
          `this store is schema ${formatVersion(found.version)}; open it read-write once to upgrade it to ${formatVersion(current)}`,
        );
      }
      db.exec('SET default_transaction_read_only = on');
      return { db, created: false, unwritable: null, upgraded: [] };
    }
    // A store this desk can't write opens for reading, as a read-only file does (SPEC §8): asked before
    // anything writes, so that the app starts without recovery and the job runner, and says why.
    const unwritable = whyUnwritable(db, found);
    if (unwritable !== null) {
      if (found.kind === 'empty') {
        throw new BrickWorkError(
          'read-only-store',
          `The database ${storeName(url)} is empty, and ${unwritable}: brick-work can't make its store there. ` +
            "Nothing was changed; ask whoever runs the server to give brick-work's login its rights (see docs/several-desks.md).",
        );
      }
      if (found.kind === 'store' && compareVersions(found.version, current) < 0) {
        throw new BrickWorkError(
          'needs-upgrade',
          `this store is schema ${formatVersion(found.version)} and needs upgrading to ${formatVersion(current)}, ` +
            `which this desk can't do: ${unwritable}. Nothing was changed; ask whoever runs the server.`,
        );
      }
      db.exec('SET default_transaction_read_only = on');
      return { db, created: false, unwritable, upgraded: [] };
    }
    let created = false;
    let upgraded: string[] = [];
    if (found.kind === 'empty' || (found.kind === 'store' && compareVersions(found.version, current) < 0)) {
      // Under the writer lock, looked at again: two desks opening a new store at once make it once.
      db.transaction(() => {
        found = look(db);
        refuse(url, found, current);
        if (found.kind === 'empty') {
          db.exec(SCHEMA_4_2);
          db.exec(
            'CREATE TABLE brick_work_meta (one bigint PRIMARY KEY CHECK (one = 1), application_id bigint NOT NULL, ' +
              'schema_version bigint NOT NULL)',
          );
          db.prepare('INSERT INTO brick_work_meta (one, application_id, schema_version) VALUES (1, ?, ?)').run(
            APPLICATION_ID,
            toUserVersion(BORN_AT),
          );
          created = true;
          found = { kind: 'store', version: BORN_AT };
        }
        upgraded = runUpgrades(db, found.kind === 'store' ? found.version : BORN_AT, current, upgrades);
      }).immediate();
    }
    ensureServerIndexes(db);
    return { db, created, unwritable: null, upgraded };
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Tables declared in 4.2 after stores of it existed on servers, by name, with what makes them. */
const LATE_SERVER_TABLES: readonly (readonly [string, string])[] = [
  ['undo_step_desk', UNDO_STEP_DESK],
  ['job_owner_desk', JOB_OWNER_DESK],
  ['hand_placement_teaching', HAND_PLACEMENT_TEACHING],
  ['stock_order', STOCK_ORDER],
  ['stock_lot', STOCK_LOT],
  ['pick_mark', PICK_MARK],
];

/** Indexes declared in 4.2 after stores of it existed on servers, by table (issue 61 §1's answer each read by an index). */
const LATE_SERVER_INDEXES: readonly (readonly [TableName, string])[] = [
  ['element_code', 'element_code_by_item'],
  ['document', 'document_by_file'],
  ['order_line', 'order_line_movable_by_number'],
  ['order_line', 'order_line_movable_by_name'],
  ['order_line', 'order_line_by_given_colour'],
  ['order_line', 'order_line_by_colour_name'],
  ['undo_step', 'undo_step_by_state'],
  ['undo_change', 'undo_change_by_row'],
  ['colour_placement', 'colour_placement_by_colour'],
  ['order_line', 'order_line_by_document_item'],
  ['catalogue_item', 'catalogue_item_by_category'],
];

/**
 * Indexes and tables added to schema 4.2 after stores of it existed on servers (as `ensureLateTables` does for a
 * file). Only the tables' owner may add one; a desk whose login is not is slower at those reads, no more.
 */
function ensureServerIndexes(db: PostgresDatabase): void {
  // Asked first, in one read: a table or index made again (IF NOT EXISTS) still waits for the other desks' writes.
  const made = new Set(
    db
      .prepare(
        `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()
         UNION ALL SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`,
      )
      .pluck()
      .all() as string[],
  );
  const late = [
    ...LATE_SERVER_TABLES.filter(([table]) => !made.has(table)).map(([, sql]) => sql),
    ...LATE_SERVER_INDEXES.filter(([, index]) => !made.has(index)).map(([table, index]) =>
      declaredIndexSql(table, index, { ifNotExists: true }),
    ),
  ];
  for (const sql of late) {
    try {
      db.exec(sql);
    } catch {
      // Not the owner, or another desk makes it just now: the reads it speeds work without it.
    }
  }
}

/**
 * Whether the database at `url` holds nothing at all (no table, view or sequence): what a new store is
 * made in, and what `store copy` copies into. Read without changing anything.
 */
export function serverDatabaseIsEmpty(url: string): boolean {
  const found = lookAtServer(url);
  found.db.close();
  return found.kind === 'empty';
}

/**
 * Why this desk can't write the store at all, in words for the banner; null when it can. A standby, or a
 * database set read-only, takes no write (`transaction_read_only`); a login may lack the right to make
 * tables (an empty database) or to change the store's tables. A right lost while a desk is open is met
 * at the write instead (`read-only-store`, server-refusals.ts).
 */
function whyUnwritable(db: PostgresDatabase, found: Found): string | null {
  const state = db
    .prepare(
      `SELECT current_setting('transaction_read_only') = 'on' AS read_only, pg_is_in_recovery() AS standby,
              current_user AS login, has_schema_privilege(current_schema(), 'CREATE') AS may_create`,
    )
    .get() as { read_only: number; standby: number; login: string; may_create: number };
  if (state.standby === 1) return 'the server is a standby, which takes no writes';
  if (state.read_only === 1) return 'the database is set read-only on the server (default_transaction_read_only)';
  if (found.kind === 'empty')
    return state.may_create === 1 ? null : `the login ${state.login} may not make tables in it`;
  // Each right asked on its own: given several, has_table_privilege answers whether any is held.
  const tables = db
    .prepare(
      `SELECT c.relname AS name, has_table_privilege(c.oid, 'INSERT') AND has_table_privilege(c.oid, 'UPDATE')
                AND has_table_privilege(c.oid, 'DELETE') AS writable
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
        ORDER BY c.relname`,
    )
    .all() as { name: string; writable: number }[];
  const denied = tables.filter((t) => t.writable !== 1).map((t) => t.name);
  if (denied.length === 0) return null;
  // A login that may change none of them is a reading login: table names would tell staff nothing.
  if (denied.length === tables.length) return `the login ${state.login} may only read it`;
  const named = denied.slice(0, 3).join(', ') + (denied.length > 3 ? ` and ${denied.length - 3} more` : '');
  return `the login ${state.login} may not change some of its tables (${named})`;
}

function refuseOldServer(db: PostgresDatabase, url: string): void {
  const version = Number(db.prepare('SHOW server_version_num').pluck().get());
  if (version < OLDEST_SERVER) {
    const said = String(db.prepare('SHOW server_version').pluck().get());
    throw new BrickWorkError(
      'store-too-old',
      `The shop's server (${storeName(url)}) runs PostgreSQL ${said}; brick-work ${APP_VERSION} needs PostgreSQL ` +
        `${OLDEST_SERVER / 10000} or newer. Nothing was changed; ask whoever runs the server to upgrade it.`,
    );
  }
}

/** What the database holds, read without changing it. */
function look(db: PostgresDatabase): Found {
  // Both asked in one statement, so under one snapshot: asked apart, another desk's new store could be
  // committed in between and look like another application's tables. Read from pg_class, not with
  // to_regclass, which answers from the session's catalogue cache (an advisory lock does not refresh it).
  const seen = db
    .prepare(
      `SELECT bool_or(c.relname = 'brick_work_meta') AS meta, count(*) AS objects
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'm', 'p', 'S')`,
    )
    .get() as { meta: number | null; objects: number };
  if (seen.meta === 1) {
    const row = db.prepare('SELECT application_id, schema_version FROM brick_work_meta').get() as
      { application_id: number; schema_version: number } | undefined;
    if (row === undefined) return { kind: 'foreign', applicationId: null };
    if (row.application_id !== APPLICATION_ID) return { kind: 'foreign', applicationId: row.application_id };
    return { kind: 'store', version: fromUserVersion(row.schema_version) };
  }
  return seen.objects === 0 ? { kind: 'empty' } : { kind: 'foreign', applicationId: null };
}

/** The refusal of a database that is not a brick-work store (another application's tables or mark). */
export function foreignDatabase(url: string, applicationId: number | null): BrickWorkError {
  return new BrickWorkError(
    'not-a-store',
    `The database ${storeName(url)} is not a brick-work store: ` +
      (applicationId === null
        ? 'it holds tables of another application.'
        : `it is marked as another application's (application id ${formatApplicationId(applicationId)}, ` +
          `not ${formatApplicationId(APPLICATION_ID)} "BRKW").`) +
      ' It was left untouched; give brick-work an empty database of its own.',
  );
}

/**
 * What a server's database holds, looked at without changing it (`store info`), whatever its version;
 * the caller closes the connection given back.
 */
export function lookAtServer(url: string): Found & { readonly db: PostgresDatabase } {
  const db = PostgresDatabase.connect(url, { tablesWithId: TABLES_WITH_ID });
  try {
    db.exec('SET default_transaction_read_only = on');
    return { ...look(db), db };
  } catch (e) {
    db.close();
    throw e;
  }
}

function refuse(url: string, found: Found, current: SchemaVersion): void {
  const where = storeName(url);
  if (found.kind === 'foreign') throw foreignDatabase(url, found.applicationId);
  if (found.kind === 'store' && compareVersions(found.version, current) > 0) {
    throw new BrickWorkError(
      'store-too-new',
      `This store is schema ${formatVersion(found.version)}, newer than brick-work ${APP_VERSION} can read ` +
        `(schema ${formatVersion(current)}). Open it with the newer brick-work that wrote it. The database was left untouched.`,
    );
  }
  if (found.kind === 'store' && compareVersions(found.version, BORN_AT) < 0) {
    throw new BrickWorkError(
      'store-too-old',
      `The database ${where} says it is schema ${formatVersion(found.version)}, but a store on a server begins at ` +
        `${formatVersion(BORN_AT)}. It was left untouched.`,
    );
  }
}

/** Every step from `from` to `current`, in order, inside the caller's transaction. */
function runUpgrades(
  db: PostgresDatabase,
  from: SchemaVersion,
  current: SchemaVersion,
  upgrades: readonly PostgresUpgrade[],
): string[] {
  const ran: string[] = [];
  let at = from;
  while (compareVersions(at, current) < 0) {
    const step = upgrades.find((u) => formatVersion(at) === u.from);
    if (step === undefined) throw new Error(`no upgrade of a server store from ${formatVersion(at)}`);
    step.up(db);
    at = parseStep(step.to);
    db.prepare('UPDATE brick_work_meta SET schema_version = ?').run(toUserVersion(at));
    ran.push(`${step.from} → ${step.to}`);
  }
  return ran;
}

function parseStep(text: string): SchemaVersion {
  const [major, minor] = text.split('.').map(Number);
  return { major: major ?? 0, minor: minor ?? 0 };
}
