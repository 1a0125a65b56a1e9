import type { ReadableDb } from '../store/db.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import { planOrderExport, refuseUnacknowledged, type ExportPlan } from './plan.ts';

/**
 * Characters XML 1.0 forbids even as references: C0 controls other than tab, LF and CR, U+FFFE, U+FFFF,
 * and halves of surrogate pairs standing alone. Imports refuse control characters now, but a store
 * written before that may hold them, and one of them makes the whole upload unreadable.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** An item's colour as BrickLink's XML writes it: its id, or 0 for an item without one (sets, minifigures, books). */
export function bricklinkColour(colour: number | null): string {
  return String(colour ?? 0);
}

/**
 * The BrickLink XML mass upload (`INVENTORY`) of an order's saved lines (SPEC §8), for the shop's
 * BrickLink store, in BrickLink's numbers: each lot with `QTY`, `PRICE` and `CONDITION` as BrickLink's
 * "Mass Inventory Upload" requires them — a lot of 0 pieces left out and said, a price in BrickLink's
 * thousandths, none written for a lot without one (never 0.00: the export's note says how many lots BrickLink
 * will ask a price of), one without a condition as new — its own remarks and description kept, what the
 * readers noted for themselves not. Refused
 * (`needs-acknowledgement`) while lines have no known BrickLink number and `accept` does not hold
 * `no-bricklink-number`; the plan says what was left out.
 */
export function bricklinkXml(
  db: ReadableDb,
  orderId: number,
  options: { accept?: readonly string[]; includeUnplaced?: boolean } = {},
): { content: string; plan: ExportPlan } {
  const plan = planOrderExport(db, orderId, 'bricklink', { includeUnplaced: options.includeUnplaced ?? false });
  refuseUnacknowledged(plan, options.accept ?? []);
  const items = plan.rows.map((r): XmlItem => [
    ['ITEMTYPE', r.type],
    ['ITEMID', r.no],
    ['COLOR', bricklinkColour(r.colour)],
    ['QTY', String(r.quantity)],
    ['PRICE', priceTag(r.unitPriceE4)],
    ['CONDITION', r.condition ?? 'N'],
    ['DESCRIPTION', r.description],
    ['REMARKS', r.remarks],
  ]);
  return { content: inventoryXml(items), plan };
}

/**
 * A `PRICE` as BrickLink takes it (the plan's `bricklinkPriceE4`: thousandths, never 0); null: no price, so
 * no tag — BrickLink's upload refuses 0.00, and its verification asks for a missing one.
 */
export function priceTag(e4: number | null): string | null {
  return e4 === null ? null : formatMoneyE4(e4);
}

/** One `ITEM`'s fields in order; a field whose value is null is left out. */
export type XmlItem = readonly (readonly [string, string | null])[];

/**
 * BrickLink's `INVENTORY` document (a mass upload or a wanted list, by the fields its items have), with
 * no XML declaration: BrickLink's help ("Importing items on BrickLink with XML") says a file that has
 * one must have it removed.
 */
export function inventoryXml(items: readonly XmlItem[]): string {
  const body = items.map((fields) => {
    const lines = fields
      .filter((f): f is readonly [string, string] => f[1] !== null)
      .map(([k, v]) => `    <${k}>${xmlText(v)}</${k}>`)
      .join('\n');
    return `  <ITEM>\n${lines}\n  </ITEM>`;
  });
  return `<INVENTORY>\n${body.join('\n')}\n</INVENTORY>\n`;
}
