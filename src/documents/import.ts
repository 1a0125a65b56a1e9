import { dataVersion } from '../store/data-version.ts';
import { colourNumberingByNames } from './colour-numbering-by-names.ts';
import { numberingOfFormat, type Numbering } from '../vocabulary/numberings.ts';
import type { ReadableDb, StoreDb } from '../store/db.ts';
import type { WriteSession } from '../store/session.ts';
import { isoNow, shownTime, type Clock } from '../platform/clock.ts';
import { BrickWorkError, quote, type ErrorValue } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import { isDamage } from '../store/damage.ts';
import { catalogueLookup } from '../placement/catalogue-lookup.ts';
import { placeItem, type Placement, type PlacementLookup } from '../placement/rule.ts';
import { importedDocument, undoneDocument, type DocumentRow } from '../store/documents.ts';
import { documentLines, type LineView } from '../store/lines.ts';
import { getOrder, type OrderRow } from '../store/orders.ts';
import { getSetting } from '../store/settings.ts';
import { stockOrderId } from '../store/stock.ts';
import { NOW, UNDOABLE_TABLES, type Value } from '../undo/changes.ts';
import { recordStep, type StepKind } from '../undo/history.ts';
import type { StepRecorder } from '../undo/recorder.ts';
import { listColours } from '../store/colours.ts';
import { colourReader, colourTable, type ColourReader } from './colour-reader.ts';
import { readGivenColours } from './given-colours.ts';
import type {
  ColourNumbering,
  DocumentReading,
  DocumentWarning,
  KeptColumn,
  ParsedDocument,
  ParsedLine,
  WarningCode,
} from './model.ts';
import { readDocumentFile } from './read-document.ts';
import { counted } from '../vocabulary/words.ts';

/**
 * Import (SPEC §8) in two steps: `planImport` is the preview (it writes nothing) and `confirmImport`
 * writes every document of the file in one transaction, as one undo step, or refuses and writes
 * nothing. A key that matches an undone document revives it in its order, lines paired by position.
 */

export interface ImportRequest {
  readonly file: { readonly name: string; readonly content: Uint8Array };
  /** Import into this order instead of a new one (header and currency must match). */
  readonly orderId?: number | null;
  /** Import as a new document even when an undone one has the same key. */
  readonly asNew?: boolean;
  /** The preview's warnings staff saw and accept (SPEC §8): a warning not among them refuses the import. */
  readonly acknowledge?: readonly WarningCode[];
  /** Staff's choice of the numbering of the list's colour numbers; else the reader's. */
  readonly colourNumbering?: ColourNumbering | null;
  /** A column read beside each line as given (SPEC §16: a stock lot's location). */
  readonly keep?: KeptColumn | null;
  /** The key of the file's documents, instead of the reader's (the stock's is its content's: SPEC §16). */
  readonly key?: string;
  /** A new order's reference where the file gives none, instead of the document's key. */
  readonly newOrderReference?: string;
  /** The stock's own import (`stock/import.ts`): the only one that goes into the stock order (SPEC §16). */
  readonly intoStock?: boolean;
}

/** The file's documents as the request reads them: its kept column, its numbering, its key. */
function readRequested(
  request: ImportRequest,
  colourNumbering: ColourNumbering | null,
  onProgress?: (done: number, total: number) => void,
): ParsedDocument[] {
  const parsed = readDocumentFile(request.file, { colourNumbering, keep: request.keep ?? null, onProgress });
  const key = request.key;
  return key === undefined ? parsed : parsed.map((d) => ({ ...d, key }));
}

export type ImportTarget =
  | {
      readonly kind: 'new';
      readonly reference: string;
      readonly counterparty: string | null;
      readonly counterpartyRole: 'seller' | 'buyer' | null;
      readonly currency: string;
      readonly orderDate: string | null;
    }
  | { readonly kind: 'order'; readonly order: OrderRow };

export interface PlannedLine extends ParsedLine {
  readonly placement:
    | Placement
    | {
        readonly item: { type: string; no: string };
        readonly colourId: number | null;
        readonly by: 'hand';
        readonly reason: null;
      };
}

/** How an old line and a new one pair in a revival, and what differs between them. */
export interface Pair {
  readonly position: number;
  readonly lineId: number;
  readonly changed: readonly string[];
}

export interface Revival {
  readonly document: DocumentRow;
  readonly pairs: readonly Pair[];
}

export interface PlannedDocument {
  readonly parsed: ParsedDocument;
  readonly target: ImportTarget | null;
  readonly revival: Revival | null;
  /** The imported document with this key, when this one is refused as its duplicate: taking it back lets the file in. */
  readonly duplicateOf: DocumentRow | null;
  readonly lines: readonly PlannedLine[];
  readonly counts: { readonly total: number; readonly placed: number; readonly unplaced: number };
  /** The numbering of its colour numbers as the import reads them (the reader's, or borne out by the colour names). */
  readonly colourNumbering: DocumentReading['colourNumbering'];
  /** What the reader assumed (its own and the colour check's), each saying whether the request acknowledged it. */
  readonly warnings: readonly (DocumentWarning & { readonly acknowledged: boolean })[];
  /** What refuses this document's import, if anything (unacknowledged warnings aside: see `ImportPlan.refusal`). */
  readonly refusal: ErrorValue | null;
}

/** The phases of an import, as its progress tells them (SPEC §11): the file read, its lines placed, then written. */
export type ImportPhase = 'reading' | 'placing' | 'writing';

/** What a long import tells and asks as it goes (the app runs it off the thread that answers the screens). */
export interface ImportHooks {
  /** How far it has come in a phase; `total` null while unknown. Told every thousand lines or so. */
  readonly onProgress?: (phase: ImportPhase, done: number, total: number | null) => void;
  /** Asked as it reads and places: true stops it with `cancelled` before its write transaction starts. */
  readonly cancelled?: () => boolean;
}

/** How often a long import tells its progress and asks whether to stop: every this many lines. */
const PROGRESS_EVERY = 1000;

function stopIfCancelled(hooks: ImportHooks, fileName: string): void {
  if (hooks.cancelled?.() === true) {
    throw new BrickWorkError('cancelled', `The import of ${quote(fileName)} was cancelled; nothing was written.`);
  }
}

function isCancellation(e: unknown): boolean {
  return e instanceof BrickWorkError && e.code === 'cancelled';
}

export interface ImportPlan {
  readonly fileName: string;
  readonly documents: readonly PlannedDocument[];
  /**
   * What refuses the import: the first refusal of any document, else `needs-acknowledgement` naming the
   * warnings the request did not acknowledge; null when it can go ahead.
   */
  readonly refusal: ErrorValue | null;
}

/** The refusal of an import whose warnings were not all acknowledged, naming each by its code and words. */
function needsAcknowledgement(documents: readonly PlannedDocument[]): ErrorValue | null {
  const open = new Map<WarningCode, string>();
  for (const d of documents)
    for (const w of d.warnings) if (!w.acknowledged && !open.has(w.code)) open.set(w.code, w.message);
  if (open.size === 0) return null;
  const named = [...open].map(([code, message]) => `${message} (${code})`).join(' ');
  return {
    code: 'needs-acknowledgement',
    message: `Check what the reader assumed before importing: ${named} Acknowledge ${open.size === 1 ? 'it' : 'them'} to import (on the command line: --accept ${[...open.keys()].join(',')}).`,
  };
}

function headerMismatch(doc: ParsedDocument, order: OrderRow): void {
  const h = doc.header;
  const where = `order ${quote(order.reference)} (#${order.id})`;
  if (h.reference !== null && h.reference !== order.reference) {
    throw new BrickWorkError(
      'header-mismatch',
      `The file's order reference is "${quote(h.reference)}", but ${where} has "${quote(order.reference)}".`,
    );
  }
  if (h.counterparty !== null && order.counterparty !== null && h.counterparty !== order.counterparty) {
    throw new BrickWorkError(
      'header-mismatch',
      `The file's counterparty is "${quote(h.counterparty)}", but ${where} has "${quote(order.counterparty)}".`,
    );
  }
  if (h.currency !== null && h.currency !== order.currency) {
    throw new BrickWorkError(
      'currency-mismatch',
      `The file is in ${quote(h.currency)}, but ${where} is in ${quote(order.currency)}.`,
    );
  }
}

function pairLines(doc: ParsedDocument, old: DocumentRow, oldLines: readonly LineView[]): Pair[] {
  if (oldLines.length !== doc.lines.length) {
    const [fewer, more] =
      oldLines.length < doc.lines.length ? [oldLines.length, doc.lines.length] : [doc.lines.length, oldLines.length];
    const positions = fewer + 1 === more ? `position ${more}` : `positions ${fewer + 1}–${more}`;
    throw new BrickWorkError(
      'lines-do-not-pair',
      `${quote(old.key)} was undone with ${counted(oldLines.length, 'line')} and this file has ${doc.lines.length}: lines pair by position, so ${positions} ` +
        `${fewer + 1 === more ? 'has' : 'have'} no partner. Import the file as a new document instead (--as-new); the undone one stays undone.`,
    );
  }
  return doc.lines.map((line, i) => {
    const o = oldLines[i] as LineView;
    const changed: string[] = [];
    const g = line.given;
    if (g.type !== o.given.type) changed.push('type');
    if (g.no !== o.given.no) changed.push('number');
    if (g.name !== o.given.name) changed.push('name');
    if (g.colourId !== o.given.colourId || g.colourName !== o.given.colourName) changed.push('colour');
    if (line.quantity !== o.quantity) changed.push('quantity');
    if (line.unitPriceE4 !== o.unitPriceE4) changed.push('price');
    if (line.condition !== o.condition) changed.push('condition');
    if (line.remarks !== o.remarks) changed.push('remarks');
    return { position: line.position, lineId: o.id, changed };
  });
}

/** The preview: every document of the file with its target, its lines placed, and what refuses it. Writes nothing. */
export function planImport(db: ReadableDb, request: ImportRequest, hooks: ImportHooks = {}): ImportPlan {
  let parsed: ParsedDocument[];
  try {
    stopIfCancelled(hooks, request.file.name);
    hooks.onProgress?.('reading', 0, null);
    parsed = readRequested(request, request.colourNumbering ?? null, (done, total) => {
      stopIfCancelled(hooks, request.file.name);
      hooks.onProgress?.('reading', done, total);
    });
  } catch (e) {
    if (isCancellation(e)) throw e;
    return { fileName: request.file.name, documents: [], refusal: toErrorValue(e) };
  }
  return planDocuments(db, request, parsed, hooks);
}

/** Where a document goes, as far as `findTarget` got before it refused the document (what it got is shown even then). */
interface Destination {
  target: ImportTarget | null;
  revival: Revival | null;
  /** The undone document's lines, for a revival: its hand placements stay. */
  oldLines: readonly LineView[];
  duplicateOf: DocumentRow | null;
}

/**
 * Finds `doc`'s target into `to`: the order of the undone document it revives, the order asked for, or a
 * new order from its header. Throws what refuses it: a key in the file twice or already imported, a
 * revival into another order, a header that disagrees with its order, lines that don't pair.
 */
function findTarget(
  db: ReadableDb,
  request: ImportRequest,
  doc: ParsedDocument,
  seen: Set<string>,
  to: Destination,
): void {
  if (seen.has(doc.key)) throw new BrickWorkError('duplicate-document', `${quote(doc.key)} is in the file twice.`);
  seen.add(doc.key);
  const earlier = importedDocument(db, doc.key);
  to.duplicateOf = earlier;
  if (earlier !== null) {
    const order = getOrder(db, earlier.orderId);
    throw new BrickWorkError(
      'duplicate-document',
      `${quote(doc.key)} was already imported on ${shownTime(earlier.importedAt)} into order ${quote(order.reference)} (#${order.id}); ` +
        `take that import back first (Take back this import, or brick-work take-back ${earlier.id}) to import it again.`,
    );
  }
  const undone = request.asNew ? null : undoneDocument(db, doc.key);
  if (undone !== null) {
    const order = getOrder(db, undone.orderId);
    if (request.orderId != null && request.orderId !== order.id) {
      throw new BrickWorkError(
        'invalid-argument',
        `${quote(doc.key)} was imported into order ${quote(order.reference)} (#${order.id}) and undone; importing it again revives it there. To import it into another order, import it as a new document (--as-new).`,
      );
    }
    headerMismatch(doc, order);
    to.target = { kind: 'order', order };
    to.oldLines = documentLines(db, undone.id);
    to.revival = { document: undone, pairs: pairLines(doc, undone, to.oldLines) };
  } else if (request.orderId != null) {
    const order = getOrder(db, request.orderId);
    if (request.intoStock !== true && order.id === stockOrderId(db)) {
      throw new BrickWorkError(
        'invalid-argument',
        `Order ${quote(order.reference)} (#${order.id}) is the shop's stock: a file goes into it only as the whole stock, which replaces the one before (Import the stock, or brick-work stock import FILE).`,
      );
    }
    headerMismatch(doc, order);
    to.target = { kind: 'order', order };
  } else {
    const h = doc.header;
    to.target = {
      kind: 'new',
      reference: h.reference ?? request.newOrderReference ?? doc.key,
      counterparty: h.counterparty,
      counterpartyRole: h.counterpartyRole,
      currency: h.currency ?? getSetting(db, 'currency'),
      orderDate: h.orderDate,
    };
  }
}

/** A line placed: by the rule, unless it is a revived line placed by hand whose given number and name are unchanged. */
function placeLine(
  line: ParsedLine,
  old: LineView | undefined,
  lookup: PlacementLookup,
  numbering: Numbering | null,
): PlannedLine {
  // A hand placement stays where the given number and name are unchanged.
  if (
    old?.placed?.by === 'hand' &&
    old.given.no === line.given.no &&
    old.given.name === line.given.name &&
    old.given.type === line.given.type
  ) {
    return {
      ...line,
      placement: {
        item: { type: old.placed.type, no: old.placed.no },
        colourId: old.placed.colour,
        by: 'hand',
        reason: null,
      },
    };
  }
  return { ...line, placement: placeItem({ ...line.given, remarks: line.remarks, numbering }, lookup) };
}

/**
 * A document's colours as the import reads them (SPEC §8): bare colour numbers whose names say clearly
 * whose they are (BrickLink's, Rebrickable's, LDraw's) are read in that numbering, no guess; then every
 * line's number and name are read against each other by the one rule of `readGivenColours`. `asRead` is
 * the document as read in its numbering, before that check; `doc` its lines as they will be placed.
 */
function readColours(
  request: ImportRequest,
  firstRead: ParsedDocument,
  index: number,
  reader: ColourReader,
): {
  asRead: ParsedDocument;
  doc: ParsedDocument;
  colourNumbering: DocumentReading['colourNumbering'];
  warnings: DocumentWarning[];
} {
  const guessed = firstRead.reading.colourNumbering?.how === 'guessed' && (request.colourNumbering ?? null) === null;
  const byNames = guessed ? colourNumberingByNames(firstRead.lines, reader) : null;
  const asRead =
    byNames === 'rebrickable' || byNames === 'ldraw'
      ? (readRequested(request, byNames)[index] ?? firstRead)
      : firstRead;
  // BrickStore (and BrickStock) wrote BrickLink's ids from its own catalogue: there the number is the colour.
  const keepsIds = asRead.format === 'brickstore' || asRead.format === 'brickstock';
  const numbering = byNames ?? asRead.reading.colourNumbering?.numbering ?? 'bricklink';
  const checked = readGivenColours(asRead.lines, reader, { numbering, decides: keepsIds ? 'number' : 'name' });
  return {
    asRead,
    doc: { ...asRead, lines: checked.lines },
    colourNumbering: byNames === null ? asRead.reading.colourNumbering : { numbering: byNames, how: 'names' },
    warnings: [...asRead.reading.warnings, ...checked.warnings].filter(
      (w) => !(byNames !== null && w.code === 'colour-numbering-guessed'),
    ),
  };
}

/** Places the lines of documents already read: the preview's second half, and the confirm's check under the write lock. */
function planDocuments(
  db: ReadableDb,
  request: ImportRequest,
  parsed: readonly ParsedDocument[],
  hooks: ImportHooks,
): ImportPlan {
  const total = parsed.reduce((n, d) => n + d.lines.length, 0);
  let placedSoFar = 0;
  hooks.onProgress?.('placing', 0, total);
  // Given the lines it will place: a server store reads their answers ahead, in a few statements.
  const lookup = catalogueLookup(
    db,
    parsed.flatMap((d) => d.lines),
  );
  const reader = colourReader(lookup, colourTable(listColours(db)));
  const acknowledged = new Set<string>(request.acknowledge ?? []);
  const seen = new Set<string>();
  const documents = parsed.map((firstRead, index): PlannedDocument => {
    const { asRead, doc, colourNumbering, warnings: found } = readColours(request, firstRead, index, reader);
    const warnings = found.map((w) => ({ ...w, acknowledged: acknowledged.has(w.code) }));
    const to: Destination = { target: null, revival: null, oldLines: [], duplicateOf: null };
    let refusal: ErrorValue | null = null;
    try {
      findTarget(db, request, doc, seen, to);
    } catch (e) {
      // The store's own damage is no refusal of this document: the call fails, and the store is marked (SPEC §11).
      if (isDamage(e)) throw e;
      refusal = toErrorValue(e);
    }
    const { target, revival, oldLines, duplicateOf } = to;
    const lines = doc.lines.map((line, i): PlannedLine => {
      if (++placedSoFar % PROGRESS_EVERY === 0) {
        stopIfCancelled(hooks, request.file.name);
        hooks.onProgress?.('placing', placedSoFar, total);
      }
      return placeLine(line, revival ? oldLines[i] : undefined, lookup, numberingOfFormat(doc.format));
    });
    if (placedSoFar === total) hooks.onProgress?.('placing', total, total);
    const placed = lines.filter((l) => l.placement.item !== null).length;
    return {
      parsed: asRead,
      target,
      revival,
      duplicateOf,
      lines,
      counts: { total: lines.length, placed, unplaced: lines.length - placed },
      colourNumbering,
      warnings,
      refusal,
    };
  });
  return {
    fileName: request.file.name,
    documents,
    refusal: planRefusal(documents),
  };
}

/** How many documents a refusal of several names before "and N more". */
const NAMED_AT_MOST = 5;

/**
 * What refuses a plan: the first refusal of any document — several documents imported already, in one
 * sentence that lists them (a year's orders again is one refusal, not one each: issue 64 §3) — else
 * `needs-acknowledgement` naming the warnings not acknowledged.
 */
function planRefusal(documents: readonly PlannedDocument[]): ErrorValue | null {
  const refused = documents.filter((d) => d.refusal !== null);
  const first = refused[0]?.refusal ?? null;
  const duplicates = documents.filter((d) => d.refusal?.code === 'duplicate-document' && d.duplicateOf !== null);
  if (duplicates.length < 2 || first?.code !== 'duplicate-document') return first ?? needsAcknowledgement(documents);
  const named = duplicates
    .slice(0, NAMED_AT_MOST)
    .map((d) => quote(d.parsed.key))
    .join(', ');
  const more = duplicates.length > NAMED_AT_MOST ? ` and ${duplicates.length - NAMED_AT_MOST} more` : '';
  const all = duplicates.length === documents.length ? 'All' : `${duplicates.length} of the`;
  return {
    code: 'duplicate-document',
    message:
      `${all} ${documents.length} documents of this file were already imported: ${named}${more}. ` +
      "Take those imports back first to import them again (each one's preview offers it).",
  };
}

export interface ImportResult {
  readonly document: { readonly id: number; readonly key: string; readonly state: 'imported' };
  readonly order: { readonly id: number; readonly reference: string; readonly currency: string };
  readonly lines: { readonly total: number; readonly placed: number; readonly unplaced: number };
  readonly revived: boolean;
}

/** A document as its import wrote it: what it planned, its lines' ids by position, and the result. */
export interface WrittenDocument {
  readonly planned: PlannedDocument;
  readonly lineIds: readonly number[];
  readonly result: ImportResult;
}

/**
 * What a caller writes in an import's own transaction and undo step, and how the step is named (the
 * stock's import: its lots' locations, and the stock it replaces taken back, SPEC §16).
 */
export interface ImportStepExtra {
  /** Written after the documents, under the same write lock. */
  readonly write: (db: StoreDb, rec: StepRecorder, written: readonly WrittenDocument[]) => void;
  readonly kind: StepKind;
  readonly label: string;
}

const ORDER_COLUMNS = UNDOABLE_TABLES.shop_order;

/** An order line's columns, as an import writes them: every column undo knows for a line (one list). */
const LINE_COLUMNS = UNDOABLE_TABLES.order_line;

function lineValues(
  line: PlannedLine,
): Record<Exclude<(typeof LINE_COLUMNS)[number], 'document_id' | 'position'>, Value> {
  const p = line.placement;
  return {
    given_type: line.given.type,
    given_no: line.given.no,
    given_name: line.given.name,
    given_colour_id: line.given.colourId,
    given_colour_name: line.given.colourName,
    quantity: line.quantity,
    unit_price_e4: line.unitPriceE4,
    condition: line.condition,
    remarks: line.remarks,
    item_type: p.item?.type ?? null,
    item_no: p.item?.no ?? null,
    colour_id: p.item === null ? null : p.colourId,
    placed_by: p.by,
    unplaced_reason: p.reason,
  };
}

function writeNew(
  db: StoreDb,
  rec: StepRecorder,
  doc: PlannedDocument,
  target: ImportTarget,
  now: string,
  wrote: () => void = () => {},
): WrittenDocument {
  // Undo of an import marks the document undone; its order and lines stay (SPEC §8), so the step records
  // the document's state and nothing for the rows it brought.
  let order: { id: number; reference: string; currency: string };
  if (target.kind === 'new') {
    const [id] = rec.insertAllKept('shop_order', ORDER_COLUMNS, [
      {
        reference: target.reference,
        counterparty: target.counterparty,
        counterparty_role: target.counterpartyRole,
        currency: target.currency,
        order_date: target.orderDate,
        created_at: now,
      },
    ]);
    order = { id: id as number, reference: target.reference, currency: target.currency };
  } else {
    order = { id: target.order.id, reference: target.order.reference, currency: target.order.currency };
  }
  const h = doc.parsed.header;
  const documentId = rec.insertKept(
    'document',
    {
      order_id: order.id,
      doc_key: doc.parsed.key,
      file_name: doc.parsed.fileName,
      format: doc.parsed.format,
      state: 'imported',
      reference: h.reference,
      counterparty: h.counterparty,
      currency: h.currency,
      imported_at: now,
      undone_at: null,
    },
    { state: 'undone', undone_at: NOW },
  );
  const lineIds = rec.insertAllKept(
    'order_line',
    LINE_COLUMNS,
    (function* () {
      for (const line of doc.lines) yield { document_id: documentId, position: line.position, ...lineValues(line) };
    })(),
    wrote,
  );
  return {
    planned: doc,
    lineIds,
    result: {
      document: { id: documentId, key: doc.parsed.key, state: 'imported' },
      order,
      lines: doc.counts,
      revived: false,
    },
  };
}

function writeRevival(
  rec: StepRecorder,
  doc: PlannedDocument,
  revival: Revival,
  order: OrderRow,
  now: string,
  wrote: () => void = () => {},
): WrittenDocument {
  const h = doc.parsed.header;
  rec.update('document', revival.document.id, {
    state: 'imported',
    imported_at: now,
    undone_at: null,
    file_name: doc.parsed.fileName,
    format: doc.parsed.format,
    reference: h.reference,
    counterparty: h.counterparty,
    currency: h.currency,
  });
  doc.lines.forEach((line, i) => {
    rec.update('order_line', (revival.pairs[i] as Pair).lineId, lineValues(line));
    wrote();
  });
  return {
    planned: doc,
    lineIds: revival.pairs.map((p) => p.lineId),
    result: {
      document: { id: revival.document.id, key: doc.parsed.key, state: 'imported' },
      order: { id: order.id, reference: order.reference, currency: order.currency },
      lines: doc.counts,
      revived: true,
    },
  };
}

/** Writes the import: everything in one transaction and one undo step, or refuses with nothing written. */
export function confirmImport(
  session: WriteSession,
  request: ImportRequest,
  clock: Clock,
  hooks: ImportHooks = {},
  extra: ImportStepExtra | null = null,
): ImportResult[] {
  // Read and placed before the write transaction, so that the write lock is held only while writing
  // and a cancel comes before anything is written. `data_version` moves when another connection commits.
  const { db } = session;
  const seen = dataVersion(db);
  const first = planImport(db, request, hooks);
  if (first.refusal) throw new BrickWorkError(first.refusal.code, first.refusal.message);
  stopIfCancelled(hooks, request.file.name);
  return recordStep(session, clock, (rec) => {
    // A cancel that came while it waited for the write lock: nothing is written yet, so it still stops.
    stopIfCancelled(hooks, request.file.name);
    // Nothing may change between the plan and the write: when another connection wrote meanwhile, the
    // documents are placed again here, under the write lock (no cancel from here on).
    const plan =
      dataVersion(db) === seen
        ? first
        : planDocuments(
            db,
            request,
            first.documents.map((d) => d.parsed),
            { onProgress: hooks.onProgress },
          );
    if (plan.refusal) throw new BrickWorkError(plan.refusal.code, plan.refusal.message);
    const now = isoNow(clock);
    const total = plan.documents.reduce((n, d) => n + d.lines.length, 0);
    let written = 0;
    const wrote = () => {
      if (++written % PROGRESS_EVERY === 0) hooks.onProgress?.('writing', written, total);
    };
    hooks.onProgress?.('writing', 0, total);
    const documents = plan.documents.map((doc) => {
      const target = doc.target as ImportTarget;
      if (doc.revival !== null && target.kind === 'order')
        return writeRevival(rec, doc, doc.revival, target.order, now, wrote);
      return writeNew(db, rec, doc, target, now, wrote);
    });
    extra?.write(db, rec, documents);
    hooks.onProgress?.('writing', total, total);
    const value = documents.map((w) => w.result);
    if (extra !== null) return { value, kind: extra.kind, label: extra.label };
    const revivals = value.filter((r) => r.revived).length;
    const label =
      value.length === 1
        ? `${revivals ? 'Revival' : 'Import'} of ${value[0]?.document.key ?? request.file.name}`
        : `Import of ${value.length} documents from ${request.file.name}`;
    return { value, kind: revivals === value.length ? 'revival' : 'import', label };
  });
}
