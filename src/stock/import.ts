/**
 * Importing the shop's stock (SPEC §16): a document of the stock order, read by the readers every import
 * uses (so every numbering, the preview, its warnings and their acknowledgement apply), each lot's
 * location kept as given — its Remarks, or a column staff choose — with BrickLink's lot id. A newer
 * import replaces the stock in the same undo step: the new document is imported and the one it replaces
 * taken back, so Undo brings the old stock back exactly and Redo the new.
 */
import { createHash } from 'node:crypto';
import { shownTime, type Clock } from '../platform/clock.ts';
import {
  confirmImport,
  planImport,
  type ImportHooks,
  type ImportPlan,
  type ImportRequest,
  type ImportResult,
  type WrittenDocument,
} from '../documents/import.ts';
import { columnKey } from '../documents/formats/csv-columns.ts';
import type { ColourNumbering, WarningCode } from '../documents/model.ts';
import { BrickWorkError, quote, type ErrorValue } from '../vocabulary/errors.ts';
import type { ReadableDb, StoreDb } from '../store/db.ts';
import type { WriteSession } from '../store/session.ts';
import { getDocument, type DocumentRow } from '../store/documents.ts';
import {
  currentStockDocumentId,
  importedStockDocumentIds,
  insertStockLots,
  markStockOrder,
  stockOrderId,
} from '../store/stock.ts';
import { NOW } from '../undo/changes.ts';
import type { StepRecorder } from '../undo/recorder.ts';

/** The stock order's reference, made by the first stock import. */
export const STOCK_REFERENCE = 'Stock';

/** Where a lot's location is read from: its remarks, or a column (an XML field) named by its title. */
export const REMARKS = 'remarks';

export interface StockImportRequest {
  readonly file: { readonly name: string; readonly content: Uint8Array };
  /** `remarks` (the default) or a column's title. */
  readonly locationFrom?: string | null;
  readonly acknowledge?: readonly WarningCode[];
  readonly colourNumbering?: ColourNumbering | null;
}

/**
 * A stock document's key: its content's, with the column its locations come from — never its file's
 * name, which is the same every week (`inventory.xml`). The same file is the same stock; another
 * location column makes it another.
 */
export function stockKey(content: Uint8Array, locationFrom: string): string {
  const hash = createHash('sha256')
    .update(`${columnKey(locationFrom)}\u0000`)
    .update(content);
  return `stock:${hash.digest('hex').slice(0, 16)}`;
}

function locationOf(request: StockImportRequest): string {
  const from = request.locationFrom?.trim() ?? '';
  return from === '' ? REMARKS : from;
}

/** The import of the file as the stock: into the stock order (a new one named Stock the first time), by content. */
function asImport(db: ReadableDb, request: StockImportRequest): ImportRequest {
  const locationFrom = locationOf(request);
  return {
    file: request.file,
    orderId: stockOrderId(db),
    // Never a revival: the stock a same file was once is a new revision now; its key refuses it only while current.
    asNew: true,
    acknowledge: request.acknowledge ?? [],
    colourNumbering: request.colourNumbering ?? null,
    keep: { column: locationFrom, as: 'location' },
    key: stockKey(request.file.content, locationFrom),
    newOrderReference: STOCK_REFERENCE,
    intoStock: true,
  };
}

/** A file that is the current stock already, in words: nothing to replace. */
function alreadyTheStock(doc: DocumentRow): ErrorValue {
  return {
    code: 'duplicate-document',
    message:
      `This is already the stock, imported on ${shownTime(doc.importedAt)} from ${quote(doc.fileName)}` +
      ' (the same file, with its locations read from the same place): there is nothing to replace.',
  };
}

function severalDocuments(count: number, fileName: string): ErrorValue {
  return {
    code: 'invalid-argument',
    message: `${quote(fileName)} holds ${count} documents; the stock is one list of lots. Import the store's inventory (BrickLink's download, a BrickStore file or a CSV).`,
  };
}

/** What the stock's preview says beside an import's: its lots' locations and lot ids, and the stock it replaces. */
export interface StockPreview {
  readonly locationFrom: string;
  /** Different locations among its lots. */
  readonly locations: number;
  readonly lotsWithoutLocation: number;
  readonly lotsWithLotId: number;
  /** The current stock it would replace; null: there is none. */
  readonly replaces: DocumentRow | null;
}

/**
 * The stock import's preview: the import's (every lot placed or its reason, the warnings, what refuses
 * it), the stock's refusals in its words, and what it keeps of each lot. Writes nothing.
 */
export function planStockImport(
  db: ReadableDb,
  request: StockImportRequest,
  hooks: ImportHooks = {},
): { plan: ImportPlan; stock: StockPreview } {
  const plan = planImport(db, asImport(db, request), hooks);
  const lines = plan.documents.flatMap((d) => d.lines);
  const located = lines.map((l) => l.kept ?? null).filter((l) => l !== null);
  const current = currentStockDocumentId(db);
  const stock: StockPreview = {
    locationFrom: locationOf(request),
    locations: new Set(located).size,
    lotsWithoutLocation: lines.length - located.length,
    lotsWithLotId: lines.filter((l) => (l.lotId ?? null) !== null).length,
    replaces: current === null ? null : getDocument(db, current),
  };
  return { plan: { ...plan, refusal: stockRefusal(plan) }, stock };
}

/** The import's refusal in the stock's words: one document, and not the stock already. */
function stockRefusal(plan: ImportPlan): ErrorValue | null {
  if (plan.documents.length > 1) return severalDocuments(plan.documents.length, plan.fileName);
  const duplicate = plan.documents[0]?.duplicateOf ?? null;
  if (plan.refusal?.code === 'duplicate-document' && duplicate !== null) return alreadyTheStock(duplicate);
  return plan.refusal;
}

export interface StockImportResult {
  readonly imported: ImportResult;
  /** The stock documents this import took back (the stock it replaced). */
  readonly replaced: readonly DocumentRow[];
}

/**
 * Imports the file as the stock, in one transaction and one undo step: its document and lots, each lot's
 * location and lot id, and the stock it replaces taken back. Refused with nothing written as an import is,
 * and when the file is the stock already.
 */
export function confirmStockImport(
  session: WriteSession,
  request: StockImportRequest,
  clock: Clock,
  hooks: ImportHooks = {},
): StockImportResult {
  const { db } = session;
  const fileName = request.file.name.replace(/^.*[\\/]/, '');
  let replaced: number[] = [];
  const write = (w: StoreDb, rec: StepRecorder, written: readonly WrittenDocument[]) => {
    const [doc, ...more] = written;
    if (doc === undefined) return;
    if (more.length > 0) {
      const refusal = severalDocuments(written.length, fileName);
      throw new BrickWorkError(refusal.code as 'invalid-argument', refusal.message);
    }
    const orderId = doc.result.order.id;
    const marked = stockOrderId(w);
    if (marked === null) markStockOrder(w, orderId);
    else if (marked !== orderId)
      throw new BrickWorkError(
        'busy',
        'Another desk imported the stock just now, while this import was read: nothing was written. Import the file again to replace that stock.',
      );
    // Taken back as "Take back this import" would: Undo puts it back, and a revival could bring it back.
    replaced = importedStockDocumentIds(w).filter((id) => id !== doc.result.document.id);
    for (const id of replaced)
      rec.set('document', id, { state: 'imported', undone_at: null }, { state: 'undone', undone_at: NOW });
    insertStockLots(
      w,
      doc.planned.lines.map((line, i) => ({
        lineId: doc.lineIds[i] as number,
        location: line.kept ?? null,
        lotId: line.lotId ?? null,
      })),
    );
  };
  let results: ImportResult[];
  try {
    results = confirmImport(session, asImport(db, request), clock, hooks, {
      write,
      kind: 'stock-import',
      label: `Import of the stock from ${fileName}`,
    });
  } catch (e) {
    // A file that is the current stock: said as the stock, not as an order's duplicate document.
    if (e instanceof BrickWorkError && e.code === 'duplicate-document') {
      const current = currentStockDocumentId(db);
      const key = stockKey(request.file.content, locationOf(request));
      const doc = current === null ? null : getDocument(db, current);
      if (doc !== null && doc.key === key) {
        const words = alreadyTheStock(doc);
        throw new BrickWorkError('duplicate-document', words.message);
      }
    }
    throw e;
  }
  const imported = results[0];
  if (imported === undefined) throw new BrickWorkError('internal', 'The stock import wrote no document.');
  return { imported, replaced: replaced.map((id) => getDocument(db, id)) };
}
