/**
 * A store as brick-work 0.9.0 builds before colour placements wrote it (commit aec44fc, "today's main"
 * when issue 9 was filed): schema 4.2 without the tables added to 4.2 since, and without the fix-up
 * marker. Its 4.2 step is copied here verbatim, frozen, so the tests keep meaning what they meant.
 */
import Database from 'better-sqlite3';
import { APPLICATION_ID } from '../../src/store/application-id.ts';
import { BASELINE } from '../../src/store/upgrades/index.ts';

const EARLY_STEP_4_2_SQL = `
      ALTER TABLE job_owner ADD COLUMN boot_id TEXT;
      ALTER TABLE job_owner ADD COLUMN start_ticks INTEGER;
      ALTER TABLE order_line ADD COLUMN unplaced_reason TEXT;

      CREATE TABLE hand_placement (
        id INTEGER PRIMARY KEY,
        given_type TEXT NOT NULL,
        given_no TEXT COLLATE NOCASE,
        name_key TEXT,
        item_type TEXT NOT NULL,
        item_no TEXT NOT NULL,
        colour_id INTEGER,
        created_at TEXT NOT NULL,
        FOREIGN KEY (item_type, item_no) REFERENCES catalogue_item (item_type, item_no),
        CHECK ((given_no IS NULL) <> (name_key IS NULL))
      );
      CREATE UNIQUE INDEX hand_placement_by_number ON hand_placement (given_type, given_no)
        WHERE given_no IS NOT NULL;
      CREATE UNIQUE INDEX hand_placement_by_name ON hand_placement (given_type, name_key)
        WHERE given_no IS NULL;

      CREATE TABLE lookup_answer (
        item_type TEXT NOT NULL,
        item_no TEXT NOT NULL COLLATE NOCASE,
        found INTEGER NOT NULL CHECK (found IN (0, 1)),
        answered_at TEXT NOT NULL,
        PRIMARY KEY (item_type, item_no)
      ) WITHOUT ROWID;

      CREATE TABLE job_event (
        id INTEGER PRIMARY KEY,
        job_id INTEGER NOT NULL REFERENCES job (id),
        event TEXT NOT NULL CHECK (event IN ('recovered', 'taken-over')),
        detail TEXT NOT NULL DEFAULT '{}',
        at TEXT NOT NULL
      );
      CREATE INDEX job_event_by_job ON job_event (job_id, id);

      CREATE TABLE undo_step_catalogue (
        step_id INTEGER PRIMARY KEY REFERENCES undo_step (id),
        generation INTEGER NOT NULL
      );

      CREATE TABLE setting (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `;

/** An early 0.9.0 store at `file`, empty, WAL; the connection stays open for the test to fill it. */
export function buildEarly090Store(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.transaction(() => {
    db.pragma(`application_id = ${APPLICATION_ID}`);
    BASELINE.create(db);
    db.exec(EARLY_STEP_4_2_SQL);
    db.pragma('user_version = 402');
  })();
  return db;
}
