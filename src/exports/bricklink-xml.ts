import type { StoreDb } from '../store/db.ts';
import { shownTime } from '../clock.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import { BrickWorkError, quote } from '../errors.ts';
import { orderLines } from '../store/lines.ts';
import { orderSummary } from '../store/orders.ts';

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

/**
 * The BrickLink XML mass upload (`INVENTORY`) of an order's placed saved lines (SPEC §8), for the shop's
 * BrickLink store: item, colour, quantity, price, condition and remarks of each.
 */
export function bricklinkXml(db: StoreDb, orderId: number): string {
  const order = orderSummary(db, orderId);
  // An order whose documents were all taken back is not an empty order: uploading an empty inventory
  // for it would mislead. `already-undone`, as for taking back a document twice: what it names is undone.
  if (order.state === 'undone') {
    throw new BrickWorkError(
      'already-undone',
      `Order ${quote(order.reference)} (#${order.id}) was taken back on ${shownTime(order.undoneAt)}: none of its documents is imported, so there is nothing to export. Import the file again to revive it.`,
    );
  }
  const items = orderLines(db, orderId)
    .filter((l) => l.placed !== null)
    .map((l) => {
      const p = l.placed as NonNullable<typeof l.placed>;
      return [
        ['ITEMTYPE', p.type],
        ['ITEMID', p.no],
        ['COLOR', p.colour === null ? null : String(p.colour)],
        ['QTY', String(l.quantity)],
        ['PRICE', l.unitPriceE4 === null ? null : formatMoneyE4(l.unitPriceE4)],
        ['CONDITION', l.condition],
        ['REMARKS', l.remarks],
      ] satisfies XmlItem;
    });
  return inventoryXml(items);
}

/** One `ITEM`'s fields in order; a field whose value is null is left out. */
export type XmlItem = readonly (readonly [string, string | null])[];

/** BrickLink's `INVENTORY` document (a mass upload or a wanted list, by the fields its items have). */
export function inventoryXml(items: readonly XmlItem[]): string {
  const body = items.map((fields) => {
    const lines = fields
      .filter((f): f is readonly [string, string] => f[1] !== null)
      .map(([k, v]) => `    <${k}>${xmlText(v)}</${k}>`)
      .join('\n');
    return `  <ITEM>\n${lines}\n  </ITEM>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<INVENTORY>\n${body.join('\n')}\n</INVENTORY>\n`;
}
