/**
 * Every call's arguments, declared once (issue 27): the checks the main process runs on them before use
 * (the renderer is untrusted), and — read from these by the compiler — their types in the contract
 * (`ArgsOf`). A new call adds a line here, its result in `contract.ts` and its handler in `handlers/`.
 */
import { COMPARE_EXPORTS, COMPARE_GROUPS } from '../vocabulary/compare-kinds.ts';
import { EXPORT_ACKNOWLEDGEMENTS, EXPORT_TARGETS } from '../vocabulary/export-kinds.ts';
import { PLACEMENT_CONFIRMATIONS } from '../vocabulary/confirmations.ts';
import { ITEM_TYPE_CODES } from '../vocabulary/item-types.ts';
import { COLOUR_NUMBERINGS, WARNING_CODES } from '../vocabulary/reading.ts';
import { SETTING_KEYS } from '../vocabulary/setting-keys.ts';
import {
  arrayOf,
  bool,
  codesOf,
  count,
  file,
  id,
  none,
  nullable,
  oneOf,
  optional,
  recordOf,
  shape,
  text,
  variant,
  whole,
  type Infer,
} from './schema.ts';

const importArgs = shape({
  file,
  orderId: optional(nullable(id)),
  asNew: optional(bool),
  /** The warnings staff accept (SPEC §8); an empty list accepts none. */
  acknowledge: optional(codesOf(WARNING_CODES, 'warning codes')),
  /** Staff's choice for a list's colour numbers. */
  colourNumbering: optional(nullable(oneOf(...COLOUR_NUMBERINGS))),
});

/** The stock's import (SPEC §16): an import's, and where each lot's location is read from. */
const stockImportArgs = shape({
  file,
  /** `remarks` (the default) or the title of a column (an XML field) of the file. */
  locationFrom: optional(nullable(text(100))),
  acknowledge: optional(codesOf(WARNING_CODES, 'warning codes')),
  colourNumbering: optional(nullable(oneOf(...COLOUR_NUMBERINGS))),
});

/** An order's export (SPEC §8): what staff acknowledge leaving out, and whether unplaced lines go as given. */
// ── Issue 65 put-away (branch i65-putaway) ──
/** Staff's typed locations for new lots of a put-away list, by order line id (`"12": "B-3"`). */
const putAwayLocations = optional(recordOf(text(100), 5_000, 'an order line id'));
// ── end of issue 65 put-away ──

const orderExportArgs = shape({
  orderId: id,
  accept: optional(codesOf(EXPORT_ACKNOWLEDGEMENTS, 'acknowledgements')),
  includeUnplaced: optional(bool),
});

/** A side of a compare (SPEC §13): an order, one document, or a file that is not imported. */
const compareSide = variant('kind', {
  order: shape({ kind: oneOf('order'), orderId: id }),
  document: shape({ kind: oneOf('document'), documentId: id }),
  file: shape({ kind: oneOf('file'), file, colourNumbering: optional(nullable(oneOf(...COLOUR_NUMBERINGS))) }),
});

export const CALL_ARGUMENTS = {
  'store.info': none,
  'orders.list': shape({ query: optional(text(200)) }),
  'orders.get': shape({ orderId: id }),
  'lines.list': shape({ orderId: id, unplacedOnly: optional(bool) }),
  // One line as it stands: a command of the CLI reads it before fixing it, and names it as `seen`.
  'lines.get': shape({ lineId: id }),
  'lines.suggest': shape({ lineId: id, limit: optional(count) }),
  'lines.place': shape({
    lineId: id,
    type: text(2),
    no: text(100),
    colourId: nullable(count),
    confirm: optional(codesOf(PLACEMENT_CONFIRMATIONS, 'confirmations')),
    // The line's placement as the desk showed it (null: unplaced): another desk's change since is
    // refused with line-changed (SPEC §14). Left out, the line is placed whatever it is now.
    seen: optional(nullable(shape({ type: text(2), no: text(100), colourId: nullable(count) }))),
  }),
  'catalogue.search': shape({
    query: text(200),
    limit: optional(count),
    by: optional(oneOf('name', 'number')),
    forLine: optional(id),
  }),
  'catalogue.status': none,
  'catalogue.colours': none,
  'catalogue.load': shape({ files: arrayOf(file, 20), type: optional(oneOf(...ITEM_TYPE_CODES)) }),
  'catalogue.cancel': none,
  'lookup.start': shape({ limit: optional(nullable(count)) }),
  'jobs.list': none,
  'jobs.cancel': shape({ jobId: id }),
  'import.preview': importArgs,
  'import.confirm': importArgs,
  'import.previewLines': shape({
    previewId: text(64),
    document: count,
    from: whole(0, 1_000_000, 'a line index'),
    count: whole(1, 5_000, '1 to 5,000'),
  }),
  'import.cancel': none,
  'stock.preview': stockImportArgs,
  'stock.import': stockImportArgs,
  'stock.info': none,
  'pick.list': shape({ orderId: id }),
  // `picked` is absolute: the entry's pieces picked, 1 to its take.
  'pick.mark': shape({ orderId: id, key: text(40), picked: count }),
  'pick.unmark': shape({ orderId: id, key: text(40) }),
  'pick.printable': shape({
    orderId: id,
    paper: oneOf('a4', 'letter'),
    orientation: oneOf('portrait', 'landscape'),
    pictures: bool,
  }),
  'pick.file': shape({
    orderId: id,
    as: oneOf('csv', 'html', 'pdf'),
    paper: optional(oneOf('a4', 'letter')),
    orientation: optional(oneOf('portrait', 'landscape')),
    pictures: optional(bool),
  }),
  // ── Issue 65 put-away (branch i65-putaway) ──
  'putAway.list': shape({ orderId: id, locations: putAwayLocations }),
  'putAway.export': shape({
    orderId: id,
    locations: putAwayLocations,
    accept: optional(codesOf(EXPORT_ACKNOWLEDGEMENTS, 'acknowledgements')),
  }),
  'stock.lookup': none,
  // ── end of issue 65 put-away ──
  'documents.list': shape({ orderId: optional(id) }),
  'documents.takeBack': shape({
    documentId: id,
    wholeFile: optional(bool),
    seenAt: optional(whole(0, Number.MAX_SAFE_INTEGER, 'a history step')),
  }),
  'history.state': none,
  'history.list': shape({ limit: optional(count) }),
  // What is on screen (SPEC §15): each item in a colour (a BrickLink id, or none); a screenful at a time.
  // `lines`: each line's given item in its given colour, as its document names it.
  'pictures.get': shape({
    items: optional(
      arrayOf(
        shape({ type: oneOf(...ITEM_TYPE_CODES), no: text(80), colour: nullable(whole(0, 1_000_000, 'a colour id')) }),
        400,
      ),
    ),
    lines: optional(arrayOf(id, 400)),
  }),
  'pictures.status': none,
  'pictures.clear': none,
  'desk.get': none,
  'desk.set': shape({ name: nullable(text(60)) }),
  'history.undo': shape({ expectedStep: id }),
  'history.redo': shape({ expectedStep: id }),
  'placements.list': none,
  // `seen`: what the memory gave as the desk showed it (an item, or a colour); changed since, line-changed (SPEC §14).
  'placements.forget': shape({
    kind: oneOf('item', 'colour', 'name'),
    id,
    seen: optional(shape({ type: optional(text(2)), no: optional(text(100)), colourId: optional(count) })),
  }),
  'export.summary': none,
  'export.bricklink': orderExportArgs,
  'export.rebrickable': orderExportArgs,
  'export.preview': shape({ orderId: id, to: oneOf(...EXPORT_TARGETS), includeUnplaced: optional(bool) }),
  'settings.get': none,
  'settings.set': shape({ key: oneOf(...SETTING_KEYS), value: text(500) }),
  'settings.setCredentials': shape({
    consumerKey: text(200),
    consumerSecret: text(200),
    token: text(200),
    tokenSecret: text(200),
  }),
  'shopServer.get': none,
  'shopServer.choose': shape({
    host: text(253),
    port: whole(1, 65_535, '1 to 65,535'),
    database: text(63),
    user: text(63),
    password: text(200),
  }),
  'shopServer.forget': none,
  'file.pick': shape({ purpose: oneOf('document', 'catalogue') }),
  'compare.run': shape({
    left: compareSide,
    right: compareSide,
    prices: optional(bool),
    /** Rows per group in the answer (the screen's first page); all when left out. */
    first: optional(whole(0, 5_000, '0 to 5,000')),
    /** Rows of the lines that agree (`same`) in the answer, when fewer than `first`: the screen hides them until asked. */
    sameFirst: optional(whole(0, 5_000, '0 to 5,000')),
  }),
  'compare.rows': shape({
    compareId: text(64),
    group: oneOf(...COMPARE_GROUPS),
    from: whole(0, 1_000_000, 'a row index'),
    count: whole(1, 5_000, '1 to 5,000'),
  }),
  'compare.export': shape({
    compareId: text(64),
    as: oneOf(...COMPARE_EXPORTS),
    accept: optional(codesOf(EXPORT_ACKNOWLEDGEMENTS, 'acknowledgements')),
  }),
} as const;

export type CallName = keyof typeof CALL_ARGUMENTS;
export type ArgumentsOf<K extends CallName> = Infer<(typeof CALL_ARGUMENTS)[K]>;

/** Every call's name, once. */
export const CALL_NAMES = Object.keys(CALL_ARGUMENTS) as readonly CallName[];
