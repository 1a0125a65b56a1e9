/**
 * The two sides of a compare (SPEC §13): an order's saved lines, one document's lines, or a file that is
 * not imported — read and placed as an import's preview would be (the same readers, the same placement
 * rule with the remembered placements and the tables), and written nowhere.
 */
import type { ReadableDb } from '../store/db.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { planImport, type ImportHooks } from '../documents/import.ts';
import type { ColourNumbering } from '../vocabulary/reading.ts';
import { getDocument, type DocumentRow } from '../store/documents.ts';
import { linePagesToCompare, linesGiveConditions } from '../store/lines.ts';
import { getOrder } from '../store/orders.ts';
import { compareLine, givesConditions, type CompareLine } from './compare.ts';

export type SideSpec =
  | { readonly kind: 'order'; readonly orderId: number }
  | { readonly kind: 'document'; readonly documentId: number }
  | {
      readonly kind: 'file';
      readonly file: { readonly name: string; readonly content: Uint8Array };
      readonly colourNumbering?: ColourNumbering | null;
    };

export interface Side {
  /** What the side is, in a worker's words ("order Falcon", "document 42.bsx", "file picked.csv"). */
  readonly label: string;
  /** The currency its prices are in, where it names one. */
  readonly currency: string | null;
  /**
   * Its lines, read anew on each call, a page at a time: an order's or a document's straight from the
   * store (a compare sums each page and keeps none), a file's as its preview placed them, in one page.
   */
  pages(): Iterable<readonly CompareLine[]>;
  /** The same lines one by one. */
  lines(): Iterable<CompareLine>;
  /** Whether any of its lines gives a condition (a model or a wanted list gives none). */
  givesConditions(): boolean;
}

/** Reads one side. Nothing is written: a file is planned as a preview is (`hooks`: its progress), and its plan dropped. */
export function readSide(db: ReadableDb, spec: SideSpec, hooks: ImportHooks = {}): Side {
  if (spec.kind === 'order') {
    const order = getOrder(db, spec.orderId);
    return {
      label: `order ${order.reference}`,
      currency: order.currency,
      ...pagesOf(() => linePagesToCompare(db, { orderId: order.id })),
      givesConditions: () => linesGiveConditions(db, { orderId: order.id }),
    };
  }
  if (spec.kind === 'document') {
    const doc: DocumentRow = getDocument(db, spec.documentId);
    return {
      label: `document ${doc.key} (order ${doc.orderReference})`,
      currency: doc.currency ?? getOrder(db, doc.orderId).currency,
      ...pagesOf(() => linePagesToCompare(db, { documentId: doc.id })),
      givesConditions: () => linesGiveConditions(db, { documentId: doc.id }),
    };
  }
  const plan = planImport(db, { file: spec.file, asNew: true, colourNumbering: spec.colourNumbering ?? null }, hooks);
  // A file that can't be read is refused as its import would be; a duplicate or a target that doesn't
  // match does not matter here: nothing is imported.
  if (plan.documents.length === 0 && plan.refusal !== null)
    throw new BrickWorkError(plan.refusal.code, plan.refusal.message);
  const lines = plan.documents.flatMap((d) =>
    d.lines.map((l) =>
      compareLine({
        given: {
          type: l.given.type ?? null,
          no: l.given.no ?? null,
          name: l.given.name ?? null,
          colourId: l.given.colourId ?? null,
          colourName: l.given.colourName ?? null,
        },
        placed:
          l.placement.item === null
            ? null
            : {
                type: l.placement.item.type,
                no: l.placement.item.no,
                colour: l.placement.colourId,
                by: l.placement.by,
              },
        quantity: l.quantity,
        unitPriceE4: l.unitPriceE4,
        condition: l.condition,
        documentFormat: d.parsed.format,
      }),
    ),
  );
  return {
    label: `file ${spec.file.name}`,
    currency: plan.documents.find((d) => d.parsed.header.currency !== null)?.parsed.header.currency ?? null,
    pages: () => [lines],
    lines: () => lines,
    givesConditions: () => givesConditions(lines),
  };
}

/** A side's pages, and its lines one by one from them. */
function pagesOf(pages: () => Iterable<readonly CompareLine[]>): Pick<Side, 'pages' | 'lines'> {
  return {
    pages,
    *lines() {
      for (const page of pages()) yield* page;
    },
  };
}
