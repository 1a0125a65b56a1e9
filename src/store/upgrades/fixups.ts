import type { StoreDb } from '../db.ts';
import { placeLines42, unknownColours42 } from './frozen-4.2/placement.ts';
import { LATE_INDEXES_4_2, LATE_TABLES_4_2, makeLateTable } from './step-4.1-to-4.2.ts';

/**
 * One-time repairs of stores that are already at the current schema but were written by an earlier
 * build of it (0.9.0 was not released when 4.2 stores began to exist). Each runs once per store, at the
 * first read-write open, inside the open's write transaction, and a setting marks it done. Not undo
 * steps: they repair what the history itself may hold.
 *
 * FROZEN, like upgrade steps: a fix-up uses only SQL and code frozen with it (`frozen-4.2/`).
 */
export interface Fixup {
  readonly id: string;
  run(db: StoreDb, progress: (message: string) => void): void;
}

/**
 * Early 0.9.0 builds kept a colour in each remembered hand placement and forced it onto every line the
 * memory placed (a 4073 placed by hand in White made every other 4073 White). A memory now holds the
 * item only; a colour is remembered only for a given colour the catalogue does not know (SPEC §8).
 */
const COLOUR_MEMORY: Fixup = {
  id: 'colour-memory-0.9.0',
  run(db, progress) {
    // Tables those builds did not make yet.
    ensureLateTables(db);

    // Lines placed by hand keep their item and colour. Where such a line gave a colour the catalogue
    // does not know, the colour staff chose for it becomes a colour placement (the latest line wins).
    const unknown = unknownColours42(db);
    const handLines = db
      .prepare(
        `SELECT l.given_colour_id AS colourId, l.given_colour_name AS colourName, l.colour_id AS chosen
           FROM order_line l JOIN colour c ON c.id = l.colour_id
          WHERE l.placed_by = 'hand' ORDER BY l.id`,
      )
      .all() as { colourId: number | null; colourName: string | null; chosen: number }[];
    const byId = db
      .prepare("SELECT id FROM colour_placement WHERE numbering = 'bricklink-id' AND given_colour_id = ?")
      .pluck();
    const byName = db
      .prepare("SELECT id FROM colour_placement WHERE numbering = 'name' AND given_name_key = ?")
      .pluck();
    const insert = db.prepare(
      'INSERT INTO colour_placement (numbering, given_colour_id, given_name_key, colour_id, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const update = db.prepare('UPDATE colour_placement SET colour_id = ? WHERE id = ?');
    const now = new Date().toISOString();
    for (const line of handLines) {
      const key = unknown(line);
      if (key === null) continue;
      const existing = (key.numbering === 'bricklink-id' ? byId.get(key.id) : byName.get(key.key)) as
        number | undefined;
      if (existing !== undefined) update.run(line.chosen, existing);
      else if (key.numbering === 'bricklink-id') insert.run('bricklink-id', key.id, null, line.chosen, now);
      else insert.run('name', null, key.key, line.chosen, now);
    }

    // The old memory colour is never read again; clear it so that nothing can.
    db.prepare('UPDATE hand_placement SET colour_id = NULL WHERE colour_id IS NOT NULL').run();

    // Undo and redo place a step's lines again when the step was last written under another catalogue
    // generation: mark every step written so far so, so that undoing or redoing one of them (a revival
    // whose lines carry a forced colour, say) places its lines under the new rule, never the old colour.
    db.prepare('UPDATE undo_step_catalogue SET generation = -1').run();

    // Every saved line placed by a memory is placed again under the new rule: its own colour, checked;
    // and so is every saved unplaced line, which the new colour placements may place, as a hand placement would.
    placeLines42(
      db,
      `(placed_by = 'remembered' OR item_no IS NULL) AND document_id IN (SELECT id FROM document WHERE state = 'imported')`,
      (done, total) => progress(`placing remembered lines again ${done}/${total}`),
    );
  },
};

/** Builds that did not name desks yet: the table that names each undo step's desk (SPEC §8). */
const UNDO_DESK: Fixup = {
  id: 'undo-desk-0.9.0',
  run(db) {
    ensureLateTables(db);
  },
};

export const FIXUPS: readonly Fixup[] = [COLOUR_MEMORY, UNDO_DESK];

/**
 * Makes the tables and indexes added to the current schema after some stores of it were written
 * (`LATE_TABLES_4_2`, `LATE_INDEXES_4_2`) where they are missing. Idempotent; run at every read-write open
 * of a current store that is not `settled`, so that one appended later still reaches stores whose fix-ups
 * have all run.
 */
export function ensureLateTables(db: StoreDb): void {
  const ifMissing = (sql: string) =>
    sql.replace(/^CREATE (UNIQUE INDEX|INDEX|TABLE|TRIGGER) /, 'CREATE $1 IF NOT EXISTS ');
  const has = db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?").pluck();
  for (const t of LATE_TABLES_4_2) {
    if (has.get(t.name) === undefined) makeLateTable(db, t);
    else db.exec(t.indexes.map(ifMissing).join(';\n'));
  }
  db.exec(LATE_INDEXES_4_2.map(ifMissing).join(';\n'));
}

/** The name of the table, index or trigger a late statement makes. */
const madeBy = (sql: string) =>
  /^CREATE (?:UNIQUE INDEX|INDEX|TABLE|TRIGGER) (?:IF NOT EXISTS )?"?(\w+)/.exec(sql)?.[1];

/**
 * Whether a current store needs nothing of `ensureLateTables` and `runPendingFixups`: every late table and
 * its indexes and triggers there, every fix-up done. Read without the write lock, so that opening a
 * settled store never waits for another process's long write (a catalogue load's merge).
 */
export function settled(db: StoreDb): boolean {
  const has = db.prepare('SELECT 1 FROM main.sqlite_master WHERE name = ?').pluck();
  for (const t of LATE_TABLES_4_2) {
    if (has.get(t.name) === undefined) return false;
    for (const sql of t.indexes) {
      const name = madeBy(sql);
      if (name === undefined || has.get(name) === undefined) return false;
    }
  }
  for (const sql of LATE_INDEXES_4_2) {
    const name = madeBy(sql);
    if (name === undefined || has.get(name) === undefined) return false;
  }
  const done = db.prepare('SELECT 1 FROM setting WHERE key = ?').pluck();
  return FIXUPS.every((f) => done.get(marker(f)) !== undefined);
}

const marker = (f: Fixup) => `fixup.${f.id}`;

/** Marks every fix-up done without running it: for a store this build made, or upgraded itself just now. */
export function markFixupsDone(db: StoreDb): void {
  const set = db.prepare("INSERT INTO setting (key, value) VALUES (?, 'done') ON CONFLICT (key) DO NOTHING");
  for (const f of FIXUPS) set.run(marker(f));
}

/** Runs the fix-ups a store has not had yet. The caller holds the write transaction. Returns the ids run. */
export function runPendingFixups(db: StoreDb, progress: (message: string) => void): string[] {
  const done = db.prepare('SELECT 1 FROM setting WHERE key = ?').pluck();
  const mark = db.prepare("INSERT INTO setting (key, value) VALUES (?, 'done')");
  const ran: string[] = [];
  for (const f of FIXUPS) {
    if (done.get(marker(f)) !== undefined) continue;
    progress(`repairing the store: ${f.id}`);
    f.run(db, progress);
    mark.run(marker(f));
    ran.push(f.id);
  }
  return ran;
}

/**
 * A read-only connection can't repair a store of an earlier 0.9.0 build, but it can read it: the tables
 * that build did not make yet are stood in for by empty TEMP tables of the same shape (SQLite looks in
 * `temp` first), so every query sees them as empty — or, for a tally, by a TEMP view that counts what
 * the tally would hold. Nothing is written to the file.
 */
export function standInForMissingTables(db: StoreDb): void {
  const has = db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?").pluck();
  for (const t of LATE_TABLES_4_2) {
    if (has.get(t.name) === undefined) db.exec(t.standIn ?? t.table.replace(/^CREATE TABLE /, 'CREATE TEMP TABLE '));
  }
}
