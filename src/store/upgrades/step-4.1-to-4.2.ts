/**
 * The 4.1 → 4.2 upgrade step. FROZEN: it uses only SQL and code frozen with it (`frozen-4.2/`), never
 * today's modules (the placement rule, the store's queries), so that it writes the same rows on a store
 * upgraded next year as on one upgraded today (test/store/upgrades/step-4.1-to-4.2.test.ts checks its
 * imports). Tables and indexes may still be appended to 4.2 (LATE_TABLES_4_2, LATE_INDEXES_4_2) until 0.9.0 ships.
 */
import type { StoreDb } from '../db.ts';
import { placeLines42 } from './frozen-4.2/placement.ts';
import type { UpgradeStep } from './types.ts';

/** document_tally's triggers: a line counted into its document's tally, and taken out of it. */
const COUNT_NEW_LINE = `INSERT INTO document_tally (document_id, lines, placed, quantity, value_e4)
          VALUES (NEW.document_id, 1, NEW.item_no IS NOT NULL, NEW.quantity, NEW.quantity * coalesce(NEW.unit_price_e4, 0))
          ON CONFLICT (document_id) DO UPDATE SET lines = lines + 1, placed = placed + excluded.placed,
            quantity = quantity + excluded.quantity, value_e4 = value_e4 + excluded.value_e4;`;
const UNCOUNT_OLD_LINE = `UPDATE document_tally SET lines = lines - 1, placed = placed - (OLD.item_no IS NOT NULL),
            quantity = quantity - OLD.quantity, value_e4 = value_e4 - OLD.quantity * coalesce(OLD.unit_price_e4, 0)
          WHERE document_id = OLD.document_id;`;

export interface LateTable {
  readonly name: string;
  readonly table: string;
  /** Rows the table starts with when it is made in a store that has data (a tally of existing rows). */
  readonly fill?: string;
  /** Indexes and triggers, made after the fill. */
  readonly indexes: readonly string[];
  /** What a read-only open of a store without the table reads in its place (default: an empty TEMP table). */
  readonly standIn?: string;
}

/**
 * Tables added to 4.2 after the first 0.9.0 builds had already written 4.2 stores. A new or upgraded
 * store gets them from the step below; a store of those earlier builds gets them from the 0.9.0 fix-up
 * (`fixups.ts`, at its next read-write open); a read-only open shows them empty, or counted
 * where the table is a tally (`standIn`, `open.ts`).
 */
export const LATE_TABLES_4_2: readonly LateTable[] = [
  {
    // A colour staff chose for a given colour the catalogue does not know (SPEC §8), keyed by the
    // document's colour numbering: a BrickLink colour id, or a folded colour name for lines without one.
    name: 'colour_placement',
    table: `CREATE TABLE colour_placement (
        id INTEGER PRIMARY KEY,
        numbering TEXT NOT NULL CHECK (numbering IN ('bricklink-id', 'name')),
        given_colour_id INTEGER,
        given_name_key TEXT,
        colour_id INTEGER NOT NULL REFERENCES colour (id),
        created_at TEXT NOT NULL,
        CHECK ((numbering = 'bricklink-id') = (given_colour_id IS NOT NULL)),
        CHECK ((numbering = 'name') = (given_name_key IS NOT NULL))
      )`,
    indexes: [
      "CREATE UNIQUE INDEX colour_placement_by_id ON colour_placement (given_colour_id) WHERE numbering = 'bricklink-id'",
      "CREATE UNIQUE INDEX colour_placement_by_name ON colour_placement (given_name_key) WHERE numbering = 'name'",
    ],
  },
  {
    // A colour's RGB as its catalogue file gives it (BrickLink's colour lists do), for the swatch staff
    // see beside its name; a colour without one is shown by name alone.
    name: 'colour_swatch',
    table: `CREATE TABLE colour_swatch (
        colour_id INTEGER PRIMARY KEY REFERENCES colour (id),
        rgb TEXT NOT NULL CHECK (length(rgb) = 6 AND rgb NOT GLOB '*[^0-9A-F]*')
      )`,
    indexes: [],
  },
  {
    // A name staff placed by hand on an item, when it differs from the item's own: an extra name of the
    // item for suggestions (SPEC §7, §8). `name_key` is the name folded as catalogue names are.
    name: 'taught_name',
    table: `CREATE TABLE taught_name (
        id INTEGER PRIMARY KEY,
        item_type TEXT NOT NULL,
        item_no TEXT NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        created_at TEXT NOT NULL,
        FOREIGN KEY (item_type, item_no) REFERENCES catalogue_item (item_type, item_no)
      )`,
    indexes: [
      'CREATE UNIQUE INDEX taught_name_once ON taught_name (item_type, item_no, name_key)',
      // Every change of the taught names (an undo's too) moves a counter, so that any process's
      // suggestion index knows it is stale; ids alone could come back with another name.
      ...['INSERT', 'DELETE', 'UPDATE'].map(
        (event) => `CREATE TRIGGER taught_name_${event.toLowerCase()} AFTER ${event} ON taught_name BEGIN
          INSERT INTO setting (key, value) VALUES ('taught.generation', '1')
            ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
        END`,
      ),
    ],
  },
  {
    // Each document's line counts, kept by triggers in the same statement as every write of its lines
    // (imports, revivals, placement, undo and redo, the upgrade itself), so that the order list and the
    // summary read one row per document instead of every saved line (SPEC §11: a screen answers in
    // 100 ms, also with a busy shop's half a million lines). Derived data: never an undo step's row.
    name: 'document_tally',
    table: `CREATE TABLE document_tally (
        document_id INTEGER PRIMARY KEY,
        lines INTEGER NOT NULL,
        placed INTEGER NOT NULL,
        quantity INTEGER NOT NULL,
        value_e4 INTEGER NOT NULL
      )`,
    fill: `INSERT INTO document_tally (document_id, lines, placed, quantity, value_e4)
        SELECT document_id, count(*), count(item_no), sum(quantity), sum(quantity * coalesce(unit_price_e4, 0))
          FROM order_line GROUP BY document_id`,
    indexes: [
      `CREATE TRIGGER document_tally_line_insert AFTER INSERT ON order_line BEGIN
        ${COUNT_NEW_LINE}
      END`,
      `CREATE TRIGGER document_tally_line_delete AFTER DELETE ON order_line BEGIN
        ${UNCOUNT_OLD_LINE}
      END`,
      // Only the columns counted, and only when a count changes: moving a placed line to another item
      // (the most common update) costs nothing.
      `CREATE TRIGGER document_tally_line_update AFTER UPDATE OF document_id, item_no, quantity, unit_price_e4 ON order_line
        WHEN OLD.document_id IS NOT NEW.document_id OR (OLD.item_no IS NULL) IS NOT (NEW.item_no IS NULL)
          OR OLD.quantity IS NOT NEW.quantity OR OLD.unit_price_e4 IS NOT NEW.unit_price_e4
      BEGIN
        ${UNCOUNT_OLD_LINE}
        ${COUNT_NEW_LINE}
      END`,
      `CREATE TRIGGER document_tally_document_delete AFTER DELETE ON document BEGIN
        DELETE FROM document_tally WHERE document_id = OLD.id;
      END`,
    ],
    // An early 0.9.0 store opened read-only: the same counts, counted from the lines each time.
    standIn: `CREATE TEMP VIEW document_tally AS
        SELECT document_id, count(*) AS lines, count(item_no) AS placed, sum(quantity) AS quantity,
               sum(quantity * coalesce(unit_price_e4, 0)) AS value_e4
          FROM order_line GROUP BY document_id`,
  },
  {
    // LEGO's element ids (SPEC §5, §6): an element is a part in a colour. BrickLink's codes download gives
    // BrickLink's number and colour *name*; Rebrickable's elements.csv its own part number and colour id.
    // Both kept as given and read through the other tables at placement, so a later load of either
    // side (or of the colour table) needs no rewrite. An id may be listed for more than one part.
    name: 'element_code',
    table: `CREATE TABLE element_code (
        element_id TEXT NOT NULL,
        numbering TEXT NOT NULL CHECK (numbering IN ('bricklink', 'rebrickable')),
        item_no TEXT NOT NULL COLLATE NOCASE,
        colour TEXT NOT NULL,
        source TEXT NOT NULL,
        PRIMARY KEY (element_id, numbering, item_no, colour)
      ) WITHOUT ROWID`,
    // By number: the element tables read as a translation between numberings (SPEC §5 "An item's numbers").
    // Added after 4.2 stores existed: `ensureLateTables` makes it in those at their next read-write open.
    indexes: ['CREATE INDEX element_code_by_item ON element_code (item_no, numbering)'],
  },
  {
    // Numbers other numberings give a part (SPEC §5): a Rebrickable part number beside the BrickLink
    // and LDraw numbers Rebrickable cross-references it to. Read both ways, whichever numbering the
    // catalogue speaks.
    name: 'part_number',
    table: `CREATE TABLE part_number (
        rebrickable_no TEXT NOT NULL COLLATE NOCASE,
        numbering TEXT NOT NULL CHECK (numbering IN ('bricklink', 'ldraw')),
        item_no TEXT NOT NULL COLLATE NOCASE,
        source TEXT NOT NULL,
        PRIMARY KEY (rebrickable_no, numbering, item_no)
      ) WITHOUT ROWID`,
    indexes: ['CREATE INDEX part_number_by_item ON part_number (numbering, item_no)'],
  },
  {
    // The colour table (SPEC §5, §6): a colour in Rebrickable's, LDraw's or LEGO's ids, or a folded name in
    // any vocabulary, and BrickLink's id for it; NULL when BrickLink has none (or two colours claim it).
    name: 'colour_translation',
    table: `CREATE TABLE colour_translation (
        numbering TEXT NOT NULL CHECK (numbering IN ('rebrickable', 'ldraw', 'lego', 'name')),
        key TEXT NOT NULL,
        bricklink_id INTEGER,
        source TEXT NOT NULL,
        PRIMARY KEY (numbering, key)
      ) WITHOUT ROWID`,
    indexes: [],
  },
  {
    // Rebrickable's part relationships (SPEC §5, §7): alternates, moulds, prints, patterns, sub-parts,
    // pairs, in Rebrickable's numbering. They lead suggestions; they never place a line by themselves.
    name: 'part_relationship',
    table: `CREATE TABLE part_relationship (
        rel_type TEXT NOT NULL CHECK (rel_type IN ('A', 'M', 'P', 'T', 'B', 'R')),
        child_no TEXT NOT NULL COLLATE NOCASE,
        parent_no TEXT NOT NULL COLLATE NOCASE,
        source TEXT NOT NULL,
        PRIMARY KEY (child_no, rel_type, parent_no)
      ) WITHOUT ROWID`,
    indexes: ['CREATE INDEX part_relationship_by_parent ON part_relationship (parent_no, rel_type)'],
  },
  {
    // The desk that made each undo step (SPEC §8): Undo and Redo on a desk take back and put back that
    // desk's steps. A step without a row was made before desks were named, by no desk in particular.
    name: 'undo_step_desk',
    table: `CREATE TABLE undo_step_desk (
        step_id INTEGER PRIMARY KEY REFERENCES undo_step (id),
        desk TEXT NOT NULL
      )`,
    indexes: [],
  },
  {
    // The desk whose brick-work claimed each job (SPEC §14): words name it, also once that desk is gone
    // (its server session, the owner's identity, says nothing after). Who owns a job stays job_owner's.
    name: 'job_owner_desk',
    table: `CREATE TABLE job_owner_desk (
        job_id INTEGER PRIMARY KEY REFERENCES job (id),
        desk TEXT NOT NULL
      )`,
    indexes: [],
  },
  {
    // How each remembered hand placement was taught (SPEC §6 step 2, §8): the colour of the line it was
    // taught from (NULL: none), by which desk, when. A row per teaching, the newest the memory's; an undo
    // takes one back with its step. A memory without one was taught by an earlier build, in no known colour.
    name: 'hand_placement_teaching',
    table: `CREATE TABLE hand_placement_teaching (
        id INTEGER PRIMARY KEY,
        placement_id INTEGER NOT NULL,
        item_type TEXT NOT NULL,
        item_no TEXT NOT NULL,
        colour_id INTEGER,
        desk TEXT NOT NULL,
        taught_at TEXT NOT NULL
      )`,
    indexes: ['CREATE INDEX hand_placement_teaching_by_placement ON hand_placement_teaching (placement_id, id)'],
  },
  {
    // Which order is the shop's stock (SPEC §16): one per store, made by its first stock import.
    name: 'stock_order',
    table: `CREATE TABLE stock_order (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        order_id INTEGER NOT NULL REFERENCES shop_order (id),
        UNIQUE (order_id)
      )`,
    indexes: [],
  },
  {
    // What a stock lot keeps beyond its line (SPEC §16): its location as given, and BrickLink's lot id.
    // Written with the lines and kept, as they are, when their import is undone: no undo step's row.
    name: 'stock_lot',
    table: `CREATE TABLE stock_lot (
        line_id INTEGER PRIMARY KEY REFERENCES order_line (id),
        location TEXT,
        lot_id TEXT
      )`,
    indexes: [],
  },
  {
    // How much of each entry of an order's pick list is picked (SPEC §16): one row an entry, whichever
    // desk marked it last (two desks never add up); an undo step's row. Its unique key leads with the
    // order: the index an order's marks are read by.
    name: 'pick_mark',
    table: `CREATE TABLE pick_mark (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES shop_order (id),
        entry_key TEXT NOT NULL,
        picked INTEGER NOT NULL CHECK (picked >= 0),
        desk TEXT NOT NULL,
        marked_at TEXT NOT NULL,
        UNIQUE (order_id, entry_key)
      )`,
    indexes: [],
  },
];

/**
 * Indexes added to 4.2's tables after stores of it existed (issue 61 §1): every read a call makes per line
 * or per call is a look-up, at a million lines as at a thousand. A new or upgraded store gets them from the
 * step below; a store of an earlier build from `ensureLateTables`, at its next read-write open.
 */
export const LATE_INDEXES_4_2: readonly string[] = [
  // A document's companions of the same import.
  'CREATE INDEX document_by_file ON document (file_name, imported_at)',
  // The lines a hand placement's memories may place at once (`hand-candidates.ts`): by the number given,
  // folded as it is compared; by the colour id given; and the few that a fold in code picks from.
  `CREATE INDEX order_line_movable_by_number ON order_line (trim(given_no) COLLATE NOCASE)
     WHERE item_no IS NULL OR placed_by = 'remembered'`,
  `CREATE INDEX order_line_movable_by_name ON order_line (given_type)
     WHERE nullif(trim(given_no), '') IS NULL AND given_name IS NOT NULL AND (item_no IS NULL OR placed_by = 'remembered')`,
  'CREATE INDEX order_line_by_given_colour ON order_line (given_colour_id)',
  `CREATE INDEX order_line_by_colour_name ON order_line (given_colour_name)
     WHERE coalesce(given_colour_id, 0) = 0 AND given_colour_name IS NOT NULL`,
  // A desk's Undo and Redo, and the redo list a new step drops; the steps that changed a row.
  'CREATE INDEX undo_step_by_state ON undo_step (state, id)',
  'CREATE INDEX undo_change_by_row ON undo_change (table_name, row_id)',
  // A colour's memories: what SQLite's foreign-key check of a colour the catalogue writes looks for.
  'CREATE INDEX colour_placement_by_colour ON colour_placement (colour_id)',
  // A document's lines of one item and colour: the stock's lots a pick or put-away list asks for (SPEC §16).
  'CREATE INDEX order_line_by_document_item ON order_line (document_id, item_type, item_no, colour_id)',
  // A category's items: a put-away list's suggestion for a new lot from its category's stock lots (SPEC §16).
  'CREATE INDEX catalogue_item_by_category ON catalogue_item (category_id)',
];

/** Makes a late table in a store: the table, its first rows, then its indexes and triggers. */
export function makeLateTable(db: StoreDb, t: LateTable): void {
  db.exec(t.table);
  if (t.fill !== undefined) db.exec(t.fill);
  for (const sql of t.indexes) db.exec(sql);
}

/**
 * Schema 4.2 (ADR 0023): process identity for job owners, the reason a line is unplaced, and the new
 * tables 0.9.0's features need. Additive only. Until 0.9.0 ships, later work may add tables here, but
 * the three ADR columns never change.
 *
 * FROZEN: like the 4.1 baseline, this step uses only its own SQL and code frozen with it
 * (`frozen-4.2/`), never the live placement rule, so that what it writes never changes with later builds.
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
    // hand_placement.colour_id above is never read: a remembered placement holds the item only (SPEC §8).
    // Early 0.9.0 builds wrote colours into it; the column stays (nothing is dropped) and is left NULL.
    for (const t of LATE_TABLES_4_2) makeLateTable(db, t);
    // 4.1 kept no reasons: run the placement rule on every line it left unplaced, placing those it
    // now can and giving the others their reason (SPEC §2).
    placeLines42(db, 'item_no IS NULL', (done, total) => progress(`placing lines ${done}/${total}`));
    for (const sql of LATE_INDEXES_4_2) db.exec(sql);
  },
};
