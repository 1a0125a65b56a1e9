/**
 * Schema 4.2, the one this build reads and writes, declared once: every table of the store, parents
 * before children (the order a copy fills them in). A PostgreSQL store is born from it
 * (`../postgres/schema-4.2.ts`); a SQLite store is made by its frozen steps (`../upgrades/`), which
 * test/store/schema/sqlite-declared.test.ts checks against it. A change here is a change of the schema: it needs
 * a step on both engines, never an edit of one already shipped.
 *
 * Conventions: ids are integers; times are ISO-8601 UTC text; money is an integer of ten-thousandths
 * (`*_e4`), never a float; JSON columns are text.
 */
import { integer, table, text, type IndexDeclaration, type TableDeclaration } from './shape.ts';

const notNull = true;
const primaryKey = true;
/** An id the store allocates, or an undo gives back. */
const ID = integer({ primaryKey, identity: true });
const ITEM_TYPES = "item_type IN ('P', 'S', 'M', 'B', 'G', 'C', 'I', 'O')";
/** An item's key, and a key of the other tables that names one. */
const ITEM_KEY = ['item_type', 'item_no'];
const itemKey = { columns: ITEM_KEY, table: 'catalogue_item', to: ITEM_KEY };

export const TABLES_4_2 = [
  // Ids are the catalogue's (BrickLink's), never allocated here.
  table('category', {
    id: integer({ primaryKey }),
    name: text({ notNull }),
    source: text({ notNull }),
  }),
  table(
    'colour',
    {
      id: integer({ primaryKey }),
      name: text({ notNull }),
      name_key: text({ notNull }),
      source: text({ notNull }),
    },
    { indexes: [{ name: 'colour_by_name_key', columns: ['name_key'] }] },
  ),
  table(
    'catalogue_item',
    {
      item_type: text({ notNull, check: ITEM_TYPES }),
      item_no: text({ notNull, nocase: 'both' }),
      name: text({ notNull }),
      name_key: text({ notNull }),
      category_id: integer(),
      source: text({ notNull }),
    },
    {
      primaryKey: ITEM_KEY,
      withoutRowid: true,
      indexes: [
        { name: 'catalogue_item_by_name_key', columns: ['name_key'] },
        // A category's items: where a put-away list suggests a new lot's bin from its category's lots (SPEC §16).
        { name: 'catalogue_item_by_category', columns: ['category_id'] },
      ],
    },
  ),
  table('shop_order', {
    id: ID,
    reference: text({ notNull }),
    counterparty: text(),
    counterparty_role: text({ check: "counterparty_role IN ('seller', 'buyer')" }),
    currency: text({ notNull }),
    order_date: text(),
    created_at: text({ notNull }),
  }),
  table(
    'document',
    {
      id: ID,
      order_id: integer({ notNull, references: ['shop_order', 'id'] }),
      doc_key: text({ notNull }),
      file_name: text({ notNull }),
      format: text({ notNull }),
      state: text({ notNull, check: "state IN ('imported', 'undone')" }),
      reference: text(),
      counterparty: text(),
      currency: text(),
      imported_at: text({ notNull }),
      undone_at: text(),
    },
    {
      indexes: [
        { name: 'document_by_order', columns: ['order_id'] },
        { name: 'document_by_key', columns: ['doc_key'] },
        { name: 'document_key_imported_once', columns: ['doc_key'], unique: true, where: "state = 'imported'" },
        // A document's companions of the same import (issue 61 §1: no read of every document for them).
        { name: 'document_by_file', columns: ['file_name', 'imported_at'] },
      ],
    },
  ),
  table(
    'order_line',
    {
      id: ID,
      document_id: integer({ notNull, references: ['document', 'id'] }),
      position: integer({ notNull, check: 'position >= 1' }),
      given_type: text(),
      given_no: text(),
      given_name: text(),
      given_colour_id: integer(),
      given_colour_name: text(),
      quantity: integer({ notNull, check: 'quantity >= 0' }),
      unit_price_e4: integer(),
      condition: text({ check: "condition IN ('N', 'U')" }),
      remarks: text(),
      item_type: text(),
      item_no: text({ nocase: 'server only' }),
      colour_id: integer(),
      placed_by: text({ check: "placed_by IN ('number', 'remembered', 'name', 'hand')" }),
      unplaced_reason: text(),
    },
    {
      unique: [['document_id', 'position']],
      foreignKeys: [itemKey],
      checks: ['(item_type IS NULL) = (item_no IS NULL)', '(item_no IS NULL) = (placed_by IS NULL)'],
      indexes: [
        { name: 'order_line_unplaced', columns: ['document_id'], where: 'item_no IS NULL' },
        // The lines a hand placement's memories may place at once (issue 61 §1, `hand-candidates.ts`): by the
        // number given, folded as it is compared; by a given colour id; and the few a fold in code picks from
        // (a name without a number, a colour by name without an id), so none of them reads every line.
        {
          name: 'order_line_movable_by_number',
          columns: ['given_no'],
          keys: ['trim(given_no) COLLATE NOCASE'],
          where: "item_no IS NULL OR placed_by = 'remembered'",
        },
        {
          name: 'order_line_movable_by_name',
          columns: ['given_type'],
          where:
            "nullif(trim(given_no), '') IS NULL AND given_name IS NOT NULL AND (item_no IS NULL OR placed_by = 'remembered')",
        },
        { name: 'order_line_by_given_colour', columns: ['given_colour_id'] },
        {
          name: 'order_line_by_colour_name',
          columns: ['given_colour_name'],
          where: 'coalesce(given_colour_id, 0) = 0 AND given_colour_name IS NOT NULL',
        },
        // A document's lines of one item and colour: the stock's lots a pick or put-away list asks for (SPEC §16).
        { name: 'order_line_by_document_item', columns: ['document_id', 'item_type', 'item_no', 'colour_id'] },
      ],
    },
  ),
  table(
    'job',
    {
      id: ID,
      kind: text({ notNull }),
      state: text({ notNull, check: "state IN ('queued', 'running', 'done', 'failed', 'cancelled')" }),
      payload: text({ notNull, default: "'{}'" }),
      progress_done: integer({ notNull, default: '0' }),
      progress_total: integer(),
      error: text(),
      not_before_day: text(),
      created_at: text({ notNull }),
      updated_at: text({ notNull }),
      finished_at: text(),
    },
    { indexes: [{ name: 'job_by_state', columns: ['state', 'id'] }] },
  ),
  // The process that claimed a job (ADR 0023): its pid, and what tells it from a later one of that pid.
  table('job_owner', {
    job_id: integer({ primaryKey, references: ['job', 'id'] }),
    pid: integer({ notNull }),
    claimed_at: text({ notNull }),
    boot_id: text(),
    start_ticks: integer(),
  }),
  table(
    'undo_step',
    {
      id: ID,
      kind: text({ notNull }),
      label: text({ notNull }),
      state: text({ notNull, check: "state IN ('done', 'undone')" }),
      created_at: text({ notNull }),
    },
    // A desk's Undo and Redo, and the redo list a new step drops, by state (issue 61 §1).
    { indexes: [{ name: 'undo_step_by_state', columns: ['state', 'id'] }] },
  ),
  table(
    'undo_change',
    {
      id: ID,
      step_id: integer({ notNull, references: ['undo_step', 'id'] }),
      table_name: text({ notNull }),
      row_id: integer({ notNull }),
      before: text(),
      after: text(),
    },
    {
      indexes: [
        { name: 'undo_change_by_step', columns: ['step_id', 'id'] },
        // The steps that changed a row: who last changed a line, in a refusal's words (issue 61 §1).
        { name: 'undo_change_by_row', columns: ['table_name', 'row_id'] },
      ],
    },
  ),
  table(
    'call_budget',
    {
      day: text({ primaryKey }),
      calls: integer({ notNull, default: '0', check: 'calls >= 0' }),
    },
    { withoutRowid: true },
  ),
  // What staff placed by hand, remembered by the given number, or by the folded name where none was given
  // (SPEC §8). colour_id is never read: early 0.9.0 builds wrote colours into it; it stays, left NULL.
  table(
    'hand_placement',
    {
      id: ID,
      given_type: text({ notNull }),
      given_no: text({ nocase: 'both' }),
      name_key: text(),
      item_type: text({ notNull }),
      item_no: text({ notNull, nocase: 'server only' }),
      colour_id: integer(),
      created_at: text({ notNull }),
    },
    {
      foreignKeys: [itemKey],
      checks: ['(given_no IS NULL) <> (name_key IS NULL)'],
      indexes: [
        {
          name: 'hand_placement_by_number',
          columns: ['given_type', 'given_no'],
          unique: true,
          where: 'given_no IS NOT NULL',
        },
        {
          name: 'hand_placement_by_name',
          columns: ['given_type', 'name_key'],
          unique: true,
          where: 'given_no IS NULL',
        },
      ],
    },
  ),
  table(
    'lookup_answer',
    {
      item_type: text({ notNull }),
      item_no: text({ notNull, nocase: 'both' }),
      found: integer({ notNull, check: 'found IN (0, 1)' }),
      answered_at: text({ notNull }),
    },
    { primaryKey: ITEM_KEY, withoutRowid: true },
  ),
  table(
    'job_event',
    {
      id: ID,
      job_id: integer({ notNull, references: ['job', 'id'] }),
      event: text({ notNull, check: "event IN ('recovered', 'taken-over')" }),
      detail: text({ notNull, default: "'{}'" }),
      at: text({ notNull }),
    },
    { indexes: [{ name: 'job_event_by_job', columns: ['job_id', 'id'] }] },
  ),
  table('undo_step_catalogue', {
    step_id: integer({ primaryKey, references: ['undo_step', 'id'] }),
    generation: integer({ notNull }),
  }),
  // The desk that made each undo step (SPEC §8): Undo and Redo on a desk take back and put back that
  // desk's steps. A step without a row was made before desks were named, by no desk in particular.
  table('undo_step_desk', {
    step_id: integer({ primaryKey, references: ['undo_step', 'id'] }),
    desk: text({ notNull }),
  }),
  // The desk whose brick-work claimed each job (SPEC §14): words name it, also once that desk is gone.
  table('job_owner_desk', {
    job_id: integer({ primaryKey, references: ['job', 'id'] }),
    desk: text({ notNull }),
  }),
  table('setting', { key: text({ primaryKey }), value: text({ notNull }) }, { withoutRowid: true }),
  // A colour staff chose for a given colour the catalogue does not know (SPEC §8), keyed by the
  // document's colour numbering: a BrickLink colour id, or a folded colour name for lines without one.
  table(
    'colour_placement',
    {
      id: ID,
      numbering: text({ notNull, check: "numbering IN ('bricklink-id', 'name')" }),
      given_colour_id: integer(),
      given_name_key: text(),
      colour_id: integer({ notNull, references: ['colour', 'id'] }),
      created_at: text({ notNull }),
    },
    {
      checks: [
        "(numbering = 'bricklink-id') = (given_colour_id IS NOT NULL)",
        "(numbering = 'name') = (given_name_key IS NOT NULL)",
      ],
      indexes: [
        {
          name: 'colour_placement_by_id',
          columns: ['given_colour_id'],
          unique: true,
          where: "numbering = 'bricklink-id'",
        },
        { name: 'colour_placement_by_name', columns: ['given_name_key'], unique: true, where: "numbering = 'name'" },
        { name: 'colour_placement_by_colour', columns: ['colour_id'] },
      ],
    },
  ),
  // A colour's RGB as its catalogue file gives it, for the swatch staff see beside its name.
  table('colour_swatch', {
    colour_id: integer({ primaryKey, references: ['colour', 'id'] }),
    rgb: text({
      notNull,
      check: {
        sqlite: "length(rgb) = 6 AND rgb NOT GLOB '*[^0-9A-F]*'",
        postgres: "length(rgb) = 6 AND rgb !~ '[^0-9A-F]'",
      },
    }),
  }),
  // A name staff placed by hand on an item, when it differs from the item's own (SPEC §7, §8).
  table(
    'taught_name',
    {
      id: ID,
      item_type: text({ notNull }),
      item_no: text({ notNull, nocase: 'server only' }),
      name: text({ notNull }),
      name_key: text({ notNull }),
      created_at: text({ notNull }),
    },
    {
      foreignKeys: [itemKey],
      indexes: [{ name: 'taught_name_once', columns: ['item_type', 'item_no', 'name_key'], unique: true }],
    },
  ),
  // Each document's line counts, kept by triggers with every write of its lines (SPEC §11). Derived data.
  table('document_tally', {
    document_id: integer({ primaryKey }),
    lines: integer({ notNull }),
    placed: integer({ notNull }),
    quantity: integer({ notNull }),
    value_e4: integer({ notNull }),
  }),
  // LEGO's element ids (SPEC §5, §6), as BrickLink's and Rebrickable's downloads give them.
  table(
    'element_code',
    {
      element_id: text({ notNull }),
      numbering: text({ notNull, check: "numbering IN ('bricklink', 'rebrickable')" }),
      item_no: text({ notNull, nocase: 'both' }),
      colour: text({ notNull }),
      source: text({ notNull }),
    },
    {
      primaryKey: ['element_id', 'numbering', 'item_no', 'colour'],
      withoutRowid: true,
      indexes: [{ name: 'element_code_by_item', columns: ['item_no', 'numbering'] }],
    },
  ),
  // Numbers other numberings give a part (SPEC §5): a Rebrickable number beside BrickLink's and LDraw's.
  table(
    'part_number',
    {
      rebrickable_no: text({ notNull, nocase: 'both' }),
      numbering: text({ notNull, check: "numbering IN ('bricklink', 'ldraw')" }),
      item_no: text({ notNull, nocase: 'both' }),
      source: text({ notNull }),
    },
    {
      primaryKey: ['rebrickable_no', 'numbering', 'item_no'],
      withoutRowid: true,
      indexes: [{ name: 'part_number_by_item', columns: ['numbering', 'item_no'] }],
    },
  ),
  // The colour table (SPEC §5, §6): a colour in another numbering, and BrickLink's id for it, or NULL.
  table(
    'colour_translation',
    {
      numbering: text({ notNull, check: "numbering IN ('rebrickable', 'ldraw', 'lego', 'name')" }),
      key: text({ notNull }),
      bricklink_id: integer(),
      source: text({ notNull }),
    },
    { primaryKey: ['numbering', 'key'], withoutRowid: true },
  ),
  // Rebrickable's part relationships (SPEC §5, §7), in Rebrickable's numbering.
  table(
    'part_relationship',
    {
      rel_type: text({ notNull, check: "rel_type IN ('A', 'M', 'P', 'T', 'B', 'R')" }),
      child_no: text({ notNull, nocase: 'both' }),
      parent_no: text({ notNull, nocase: 'both' }),
      source: text({ notNull }),
    },
    {
      primaryKey: ['child_no', 'rel_type', 'parent_no'],
      withoutRowid: true,
      indexes: [{ name: 'part_relationship_by_parent', columns: ['parent_no', 'rel_type'] }],
    },
  ),
  // How each remembered hand placement was taught (SPEC §6 step 2, §8): the colour of the line it was
  // taught from, by which desk, when; a row per teaching, the newest the memory's. An undo takes a teaching
  // back with its step. A memory without one (an earlier build's) was taught in no known colour.
  table(
    'hand_placement_teaching',
    {
      id: ID,
      placement_id: integer({ notNull }),
      item_type: text({ notNull }),
      item_no: text({ notNull, nocase: 'server only' }),
      colour_id: integer(),
      desk: text({ notNull }),
      taught_at: text({ notNull }),
    },
    { indexes: [{ name: 'hand_placement_teaching_by_placement', columns: ['placement_id', 'id'] }] },
  ),
  // Which order is the shop's stock (SPEC §16): one per store, made by its first stock import. Each stock
  // import is a document of that order, its lots the document's lines.
  table(
    'stock_order',
    {
      id: integer({ primaryKey, check: 'id = 1' }),
      order_id: integer({ notNull, references: ['shop_order', 'id'] }),
    },
    { unique: [['order_id']] },
  ),
  // What a stock lot keeps beyond its line (SPEC §16): its location as given, and BrickLink's lot id.
  // Written with the lines and, like them, kept when their import is undone: never an undo step's row.
  table('stock_lot', {
    line_id: integer({ primaryKey, references: ['order_line', 'id'] }),
    location: text(),
    lot_id: text(),
  }),
  // How much of each entry of an order's pick list is picked (SPEC §16): one row an entry, whichever desk
  // marked it last, so that two desks never add up. An undo step's row (a mark is taken back by Undo).
  // The unique key leads with the order: it is the index an order's marks are read by.
  table(
    'pick_mark',
    {
      id: ID,
      order_id: integer({ notNull, references: ['shop_order', 'id'] }),
      entry_key: text({ notNull }),
      picked: integer({ notNull, check: 'picked >= 0' }),
      desk: text({ notNull }),
      marked_at: text({ notNull }),
    },
    { unique: [['order_id', 'entry_key']] },
  ),
  // The catalogue job's state (SPEC §14): a SQLite store keeps it in catalogue-job.json beside the file.
  table(
    'catalogue_job_state',
    { one: integer({ primaryKey, check: 'one = 1' }), state: text({ notNull }) },
    { serverOnly: true },
  ),
] as const satisfies readonly TableDeclaration[];

export type TableName = (typeof TABLES_4_2)[number]['name'];

/** Every table of the store, parents before children (the order a copy fills them in). */
export const TABLES: readonly TableName[] = TABLES_4_2.map((t) => t.name);

/** The tables keyed by an `id` column: an insert into one returns it (`lastInsertRowid`). */
export const TABLES_WITH_ID: ReadonlySet<string> = new Set(
  TABLES_4_2.filter((t) => t.primaryKey.length === 1 && t.primaryKey[0] === 'id').map((t) => t.name),
);

/** One table's declaration. */
export function declared(name: TableName): TableDeclaration {
  const found = TABLES_4_2.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no table ${name}`);
  return found;
}

/**
 * A declared index's `CREATE INDEX`, the same on both engines: what a store makes again after a load drops
 * it, or a server store made before the index existed gains (`ifNotExists`).
 */
export function indexSql(t: TableDeclaration, i: IndexDeclaration, options: { ifNotExists?: boolean } = {}): string {
  const cols = (i.keys ?? i.columns).join(', ');
  const where = i.where === null ? '' : ` WHERE ${i.where}`;
  const ifNotExists = options.ifNotExists === true ? 'IF NOT EXISTS ' : '';
  return `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists}${i.name} ON ${t.name} (${cols})${where}`;
}

/** The `CREATE INDEX` of `table`'s declared index `index`. */
export function declaredIndexSql(table: TableName, index: string, options: { ifNotExists?: boolean } = {}): string {
  const t = declared(table);
  const i = t.indexes.find((x) => x.name === index);
  if (i === undefined) throw new Error(`no index ${index} on ${table}`);
  return indexSql(t, i, options);
}
