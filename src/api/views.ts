/**
 * How the core's rows and plans look in the contract (SPEC §1): the views the handlers answer with.
 * Each view only shapes what its handler gives it (issue 50 §3): the handler reads the store, the view
 * reads nothing, and takes nothing of the store's own shape.
 */
import type { ShownNumber } from '../catalogue/item-numbers.ts';
import type { PlannedDocument } from '../documents/import.ts';
import { FORMAT_NAMES, type DocumentFormat } from '../documents/model.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import type { LineFacts } from '../placement/line-facts.ts';
import { reasonOf } from '../vocabulary/reasons.ts';
import type { ColourInfo } from '../store/colours.ts';
import type { DocumentRow, SameFileDocument } from '../store/documents.ts';
import type { OrderSummary } from '../store/orders.ts';
import {
  PREVIEW_PAGE,
  type DocumentView,
  type LineRowView,
  type OrderView,
  type PreviewDocumentView,
  type PreviewLineView,
  type StepView,
  type SuggestionView,
} from './contract.ts';

export const formatName = (format: string): string =>
  Object.hasOwn(FORMAT_NAMES, format) ? FORMAT_NAMES[format as DocumentFormat] : format;

/** `first`, then `then`, each item once, at most `limit`. */
export function withoutRepeats(
  first: readonly SuggestionView[],
  then: readonly SuggestionView[],
  limit: number,
): SuggestionView[] {
  const seen = new Set(first.map((s) => `${s.type} ${s.no.toLowerCase()}`));
  return [...first, ...then.filter((s) => !seen.has(`${s.type} ${s.no.toLowerCase()}`))].slice(0, limit);
}

/** A step as the contract shows it (the history keeps more). */
export const stepView = (s: StepView): StepView => ({ id: s.id, kind: s.kind, label: s.label, desk: s.desk });
export const maybeStep = (s: StepView | null): StepView | null => (s === null ? null : stepView(s));

export function orderView(o: OrderSummary): OrderView {
  return {
    id: o.id,
    reference: o.reference,
    counterparty: o.counterparty,
    currency: o.currency,
    orderDate: o.orderDate,
    documents: o.documents,
    lines: o.lines,
    placed: o.placed,
    unplaced: o.unplaced,
    totalQuantity: o.totalQuantity,
    totalValue: formatMoneyE4(o.totalValueE4),
    state: o.state,
    undoneAt: o.undoneAt,
  };
}

/**
 * Documents as the screens show them, each imported one with the others still imported from its file
 * (`sameFile`, by document: `sameFileOfImported`). `historyAt`: the newest history step, read before the
 * rows (`newestStep`).
 */
export function documentViews(
  rows: readonly DocumentRow[],
  sameFile: ReadonlyMap<number, readonly SameFileDocument[]>,
  historyAt: number,
): DocumentView[] {
  return rows.map((d) => ({
    id: d.id,
    key: d.key,
    fileName: d.fileName,
    format: d.format,
    formatName: formatName(d.format),
    state: d.state,
    importedAt: d.importedAt,
    undoneAt: d.undoneAt,
    lines: d.lineCount,
    orderId: d.orderId,
    orderReference: d.orderReference,
    sameFile: sameFile.get(d.id) ?? [],
    historyAt,
  }));
}

/** An order's name as part of a file name: without the characters file systems refuse, at most 80 characters. */
export function fileNamePart(name: string): string {
  const safe = name
    .replace(/\.(bsx|xml|csv|txt|tsv)$/i, '')
    // eslint-disable-next-line no-control-regex -- control characters are among those refused
    .replace(/[\u0000-\u001f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .replace(/[. ]+$/, '');
  return safe === '' ? 'order' : safe;
}

/**
 * A stored line as the contract shows it, with what the rule says of it (`lineFacts`); `number` how staff
 * read a placed line's number (the shop numbering first, as its export writes it: `numberShower`).
 */
export function lineView(facts: LineFacts, number: ShownNumber | null): LineRowView {
  const l = facts.line;
  return {
    id: l.id,
    documentKey: l.documentKey,
    position: l.position,
    given: l.given,
    quantity: l.quantity,
    unitPrice: l.unitPriceE4 === null ? null : formatMoneyE4(l.unitPriceE4),
    condition: l.condition,
    remarks: l.remarks,
    placed:
      l.placed === null
        ? null
        : {
            ...l.placed,
            // A colour the catalogue has no name for (no colours loaded yet) goes by the document's name for it.
            colourName:
              l.placed.colourName ??
              (l.placed.colour !== null && l.placed.colour === l.given.colourId ? l.given.colourName : null),
            via: facts.via,
            shown: number?.shown ?? l.placed.no,
            ...(number === null || number.sharedWith.length === 0 ? {} : { sharedWith: number.sharedWith }),
          },
    givenColour: facts.givenColour,
    reason: l.reason,
    itemFound: facts.itemFound,
    memory: facts.memory,
  };
}

type PlannedLine = PlannedDocument['lines'][number];

/** The lines a preview shows first; the others come a page at a time (`import.previewLines`). */
export const firstPage = (d: PlannedDocument): readonly PlannedLine[] => d.lines.slice(0, PREVIEW_PAGE);

/** The colours `previewLineView` shows of `lines`, for its handler to read (each once: a page can be 500 lines). */
export function previewColourIds(lines: readonly PlannedLine[]): number[] {
  return lines.flatMap((l) => [
    ...(l.placement.colourId === null ? [] : [l.placement.colourId]),
    ...(l.given.colourId === null || l.given.colourId === 0 ? [] : [l.given.colourId]),
  ]);
}

function swatchOf(c: ColourInfo | undefined): { colourName: string | null; colourRgb: string | null } {
  return { colourName: c?.name ?? null, colourRgb: c?.rgb ?? null };
}

/** How a preview's placed lines' numbers are shown: the shop numbering first, as on every other screen. */
export type PreviewNumbers = (l: PlannedLine) => ShownNumber | null;

/**
 * A planned line as a preview shows it; `colours` holds those of `previewColourIds` the catalogue knows,
 * `numbers` how its item's number reads in the shop numbering (issue 64 §3).
 */
export function previewLineView(
  l: PlannedLine,
  colours: ReadonlyMap<number, ColourInfo>,
  numbers: PreviewNumbers = () => null,
): PreviewLineView {
  const given = l.given.colourId === null || l.given.colourId === 0 ? undefined : colours.get(l.given.colourId);
  const number = l.placement.item === null ? null : numbers(l);
  return {
    position: l.position,
    given: l.given,
    quantity: l.quantity,
    placed:
      l.placement.item === null
        ? null
        : {
            type: l.placement.item.type,
            no: l.placement.item.no,
            colour: l.placement.colourId,
            ...swatchOf(l.placement.colourId === null ? undefined : colours.get(l.placement.colourId)),
            via: 'via' in l.placement ? (l.placement.via ?? null) : null,
            shown: number?.shown ?? l.placement.item.no,
            ...(number === null || number.sharedWith.length === 0 ? {} : { sharedWith: number.sharedWith }),
          },
    givenColour: given === undefined ? null : { name: given.name, rgb: given.rgb },
    reason: reasonOf(l.placement.reason),
    remarks: l.remarks,
  };
}

/**
 * A planned document as a preview shows it: `colours` those of its first page (`previewColourIds`),
 * `duplicateOf` the view of the document it repeats, if any.
 */
export function previewView(
  d: PlannedDocument,
  colours: ReadonlyMap<number, ColourInfo>,
  duplicateOf: DocumentView | null,
  numbers: PreviewNumbers = () => null,
): PreviewDocumentView {
  const t = d.target;
  return {
    key: d.parsed.key,
    format: d.parsed.format,
    formatName: formatName(d.parsed.format),
    header: {
      reference: d.parsed.header.reference,
      counterparty: d.parsed.header.counterparty,
      currency: d.parsed.header.currency,
      orderDate: d.parsed.header.orderDate,
    },
    target:
      t === null
        ? null
        : t.kind === 'new'
          ? { kind: 'new', reference: t.reference, currency: t.currency }
          : { kind: 'order', orderId: t.order.id, reference: t.order.reference, currency: t.order.currency },
    revival:
      d.revival === null
        ? null
        : {
            documentId: d.revival.document.id,
            importedAt: d.revival.document.importedAt,
            undoneAt: d.revival.document.undoneAt,
            pairs: d.revival.pairs,
          },
    lines: firstPage(d).map((l) => previewLineView(l, colours, numbers)),
    counts: d.counts,
    columns: { read: d.parsed.reading.read, notRead: d.parsed.reading.notRead },
    colourNumbering:
      d.colourNumbering === null ? null : { ...d.colourNumbering, choosable: d.colourNumbering.how !== 'format' },
    warnings: d.warnings,
    refusal: d.refusal,
    duplicateOf,
  };
}
