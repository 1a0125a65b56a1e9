import { placeUnplacedLines } from '../../placement/place-lines.ts';
import type { UpgradeStep } from './types.ts';

/**
 * Schema 4.2 (ADR 0023): process identity for job owners, the reason a line is unplaced, and the new
 * tables 0.9.0's features need. Additive only. Until 0.9.0 ships, later work may add tables here, but
 * the three ADR columns never change.
 */
export const STEP_4_1_TO_4_2: UpgradeStep = {
  from: '4.1',
  to: '4.2',
  up(db, progress) {
    db.exec(`
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
    `);
    // 4.1 kept no reasons: run the placement rule on every line it left unplaced, placing those it
    // now can and giving the others their reason (SPEC §2).
    placeUnplacedLines(db, (done, total) => progress(`placing lines ${done}/${total}`));
  },
};
