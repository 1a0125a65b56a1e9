/** Documents: the import's preview and confirm, taking one back, and the exports (SPEC §8). */
import { newestStep } from '../../undo/history.ts';
import { randomUUID } from 'node:crypto';
import { confirmImport, planImport, type PlannedDocument } from '../../documents/import.ts';
import { saidOf, type NumberedLine } from '../../catalogue/item-numbers.ts';
import { takeBack } from '../../documents/take-back.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { bricklinkXml } from '../../exports/bricklink-xml.ts';
import { leftOutNote, planOrderExport, sharedNote, unpricedNote, type ExportPlan } from '../../exports/plan.ts';
import type { DocumentView, ExportFileView, PreviewDocumentView } from '../contract.ts';
import { rebrickableCsv } from '../../exports/rebrickable-csv.ts';
import { needsAcknowledging, NO_NUMBER_CODES } from '../../vocabulary/export-kinds.ts';
import { summaryCsv } from '../../exports/summary.ts';
import { coloursOf } from '../../store/colours.ts';
import type { ReadableDb } from '../../store/db.ts';
import { listDocuments, sameFileOfImported, type DocumentRow } from '../../store/documents.ts';
import { getOrder } from '../../store/orders.ts';
import {
  documentViews,
  fileNamePart,
  firstPage,
  previewColourIds,
  previewLineView,
  type PreviewNumbers,
  previewView,
  stepView,
} from '../views.ts';
import { onReader, reads, writes, type PartialCallTable, type ReadDeps } from './define.ts';

/**
 * An exported file with what it wrote and what it left out (SPEC §8): every saved line accounted for, and
 * each written under a number that names several catalogue items named.
 */
function withLeftOut(saved: ExportFileView, plan: ExportPlan): ExportFileView {
  const notes = [
    leftOutNote(plan.leftOut),
    sharedNote(plan.shared, plan.target),
    unpricedNote(
      plan.rows.map((r) => r.unitPriceE4),
      plan.target,
    ),
  ].filter((n) => n !== null);
  return {
    ...saved,
    rows: plan.rows.length,
    leftOut: plan.leftOut,
    shared: plan.shared,
    ...(notes.length === 0 ? {} : { note: notes.join(' ') }),
  };
}

/** Documents as a list shows them: each imported one beside the others still imported from its file. */
export function documentsShown(db: ReadableDb, rows: readonly DocumentRow[], historyAt: number): DocumentView[] {
  return documentViews(rows, sameFileOfImported(db, rows), historyAt);
}

/**
 * How `lines` of `doc` read in the shop numbering, each by what its document called it (`saidOf`), as the
 * line table shows them once imported (issue 64 §3): the numbers of a page read at once.
 */
function previewNumbers(
  d: ReadDeps,
  doc: PlannedDocument,
  lines: readonly PlannedDocument['lines'][number][],
): PreviewNumbers {
  const numbered = (l: PlannedDocument['lines'][number]): NumberedLine | null => {
    const item = l.placement.item;
    if (item === null) return null;
    return {
      type: item.type,
      no: item.no,
      said: saidOf(doc.parsed.format, l.given, { type: item.type, by: l.placement.by }),
    };
  };
  const shown = d.numberShower(lines.map(numbered).filter((n) => n !== null));
  return (l) => {
    const n = numbered(l);
    return n === null ? null : shown(n);
  };
}

/** A planned document's preview, with what it shows read here: its first page's colours and numbers, the document it repeats. */
export function preview(d: ReadDeps, doc: PlannedDocument): PreviewDocumentView {
  const colours = coloursOf(d.db, previewColourIds(firstPage(doc)));
  const numbers = previewNumbers(d, doc, firstPage(doc));
  if (doc.duplicateOf === null) return previewView(doc, colours, null, numbers);
  const historyAt = newestStep(d.db);
  return previewView(doc, colours, documentsShown(d.db, [doc.duplicateOf], historyAt)[0] ?? null, numbers);
}

/** How many previews are kept for their pages: a screen shows one at a time; a second tab, maybe one more. */
const PREVIEWS_KEPT = 2;

/** Keeps a preview's planned documents for their other lines (`import.previewLines`), and names it. */
export function keepPreview(d: ReadDeps, documents: readonly PlannedDocument[]): string {
  // Kept for its other lines: the last few previews, on this thread.
  const previewId = randomUUID();
  d.previews.set(previewId, documents);
  for (const old of d.previews.keys()) if (d.previews.size > PREVIEWS_KEPT) d.previews.delete(old);
  return previewId;
}

export const DOCUMENTS_CALLS = {
  'import.preview': onReader((d) => ({ file, orderId, asNew, acknowledge, colourNumbering }) => {
    const plan = planImport(
      d.db,
      { file, orderId: orderId ?? null, asNew: asNew === true, acknowledge, colourNumbering },
      d.importHooks('preview', file.name),
    );
    return {
      previewId: keepPreview(d, plan.documents),
      fileName: plan.fileName,
      documents: plan.documents.map((doc) => preview(d, doc)),
      refusal: plan.refusal,
    };
  }),
  'import.previewLines': onReader((d) => ({ previewId, document, from, count }) => {
    const doc = d.previews.get(previewId)?.[document];
    if (doc === undefined) {
      throw new BrickWorkError('not-found', 'That preview is no longer kept: preview the file again to see its lines.');
    }
    const lines = doc.lines.slice(from, from + count);
    const colours = coloursOf(d.db, previewColourIds(lines));
    const numbers = previewNumbers(d, doc, lines);
    return lines.map((l) => previewLineView(l, colours, numbers));
  }),
  'import.confirm': writes((d) => ({ file, orderId, asNew, acknowledge, colourNumbering }) => {
    const results = confirmImport(
      d.session,
      { file, orderId: orderId ?? null, asNew: asNew === true, acknowledge, colourNumbering },
      d.clock,
      d.importHooks('confirm', file.name),
    );
    d.changed('import');
    return results;
  }),
  'import.cancel': reads((d) => () => ({ cancelled: d.ctx.imports?.cancel() ?? false })),
  'documents.list': reads((d) => ({ orderId }) => {
    if (orderId !== undefined) getOrder(d.db, orderId); // an unknown order is refused, not an empty list
    const historyAt = newestStep(d.db); // first: a step after it is not taken for seen
    return documentsShown(d.db, listDocuments(d.db, orderId ?? null), historyAt);
  }),
  'documents.takeBack': writes((d) => ({ documentId, wholeFile, seenAt }) => {
    const r = takeBack(d.session, documentId, { wholeFile: wholeFile === true, seenAt }, d.clock);
    d.changed('take-back');
    return {
      step: stepView(r.step),
      takenBack: documentsShown(d.db, r.documents, r.step.id),
      stillImported: r.stillImported,
    };
  }),
  'export.summary': reads((d) => () => d.exported('brick-work-summary.csv', summaryCsv(d.db))),
  'export.preview': reads((d) => ({ orderId, to, includeUnplaced }) => {
    const plan = planOrderExport(d.db, orderId, to, { includeUnplaced: includeUnplaced === true });
    const unnumbered = plan.leftOut.some((l) => needsAcknowledging(l.reason));
    return {
      target: to,
      rows: plan.rows.length,
      leftOut: plan.leftOut,
      shared: plan.shared,
      needs: unnumbered ? NO_NUMBER_CODES[to] : null,
    };
  }),
  'export.bricklink': reads((d) => async ({ orderId, accept, includeUnplaced }) => {
    const { content, plan } = bricklinkXml(d.db, orderId, {
      accept: accept ?? [],
      includeUnplaced: includeUnplaced === true,
    });
    const saved = await d.exported(`${fileNamePart(getOrder(d.db, orderId).reference)} – BrickLink.xml`, content);
    return withLeftOut(saved, plan);
  }),
  'export.rebrickable': reads((d) => async ({ orderId, accept, includeUnplaced }) => {
    const { content, plan } = rebrickableCsv(d.db, orderId, {
      accept: accept ?? [],
      includeUnplaced: includeUnplaced === true,
    });
    const saved = await d.exported(`${fileNamePart(getOrder(d.db, orderId).reference)} – Rebrickable.csv`, content);
    return withLeftOut(saved, plan);
  }),
} satisfies PartialCallTable;
