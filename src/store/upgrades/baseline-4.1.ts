import type { StoreDb } from '../db.ts';

/**
 * Schema 4.1: what brick-work 0.8.x wrote. Frozen: a new store is this baseline plus every step of
 * `UPGRADES`, so that a new file and an upgraded one are the same schema. Never edit it; add a step.
 *
 * Conventions: ids are INTEGER PRIMARY KEY; times are ISO-8601 UTC text; money is an integer of
 * ten-thousandths (`*_e4`), never a float; JSON columns are TEXT.
 */
export const BASELINE_4_1_SQL = `
CREATE TABLE category (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  source TEXT NOT NULL
);

CREATE TABLE colour (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  source TEXT NOT NULL
);
CREATE INDEX colour_by_name_key ON colour (name_key);

CREATE TABLE catalogue_item (
  item_type TEXT NOT NULL CHECK (item_type IN ('P', 'S', 'M', 'B', 'G', 'C', 'I', 'O')),
  item_no TEXT NOT NULL COLLATE NOCASE,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  category_id INTEGER,
  source TEXT NOT NULL,
  PRIMARY KEY (item_type, item_no)
) WITHOUT ROWID;
CREATE INDEX catalogue_item_by_name_key ON catalogue_item (name_key);

CREATE TABLE shop_order (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL,
  counterparty TEXT,
  counterparty_role TEXT CHECK (counterparty_role IN ('seller', 'buyer')),
  currency TEXT NOT NULL,
  order_date TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE document (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES shop_order (id),
  doc_key TEXT NOT NULL,
  file_name TEXT NOT NULL,
  format TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('imported', 'undone')),
  reference TEXT,
  counterparty TEXT,
  currency TEXT,
  imported_at TEXT NOT NULL,
  undone_at TEXT
);
CREATE INDEX document_by_order ON document (order_id);
CREATE INDEX document_by_key ON document (doc_key);
CREATE UNIQUE INDEX document_key_imported_once ON document (doc_key) WHERE state = 'imported';

CREATE TABLE order_line (
  id INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES document (id),
  position INTEGER NOT NULL CHECK (position >= 1),
  given_type TEXT,
  given_no TEXT,
  given_name TEXT,
  given_colour_id INTEGER,
  given_colour_name TEXT,
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  unit_price_e4 INTEGER,
  condition TEXT CHECK (condition IN ('N', 'U')),
  remarks TEXT,
  item_type TEXT,
  item_no TEXT,
  colour_id INTEGER,
  placed_by TEXT CHECK (placed_by IN ('number', 'remembered', 'name', 'hand')),
  UNIQUE (document_id, position),
  FOREIGN KEY (item_type, item_no) REFERENCES catalogue_item (item_type, item_no),
  CHECK ((item_type IS NULL) = (item_no IS NULL)),
  CHECK ((item_no IS NULL) = (placed_by IS NULL))
);
CREATE INDEX order_line_unplaced ON order_line (document_id) WHERE item_no IS NULL;

CREATE TABLE job (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  payload TEXT NOT NULL DEFAULT '{}',
  progress_done INTEGER NOT NULL DEFAULT 0,
  progress_total INTEGER,
  error TEXT,
  not_before_day TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX job_by_state ON job (state, id);

CREATE TABLE job_owner (
  job_id INTEGER PRIMARY KEY REFERENCES job (id),
  pid INTEGER NOT NULL,
  claimed_at TEXT NOT NULL
);

CREATE TABLE undo_step (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  label TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('done', 'undone')),
  created_at TEXT NOT NULL
);

CREATE TABLE undo_change (
  id INTEGER PRIMARY KEY,
  step_id INTEGER NOT NULL REFERENCES undo_step (id),
  table_name TEXT NOT NULL,
  row_id INTEGER NOT NULL,
  before TEXT,
  after TEXT
);
CREATE INDEX undo_change_by_step ON undo_change (step_id, id);

CREATE TABLE call_budget (
  day TEXT PRIMARY KEY,
  calls INTEGER NOT NULL DEFAULT 0 CHECK (calls >= 0)
) WITHOUT ROWID;
`;

export function createBaseline41(db: StoreDb): void {
  db.exec(BASELINE_4_1_SQL);
}
