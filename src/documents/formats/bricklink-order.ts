import { quote } from '../../vocabulary/errors.ts';
import { parseError } from '../../text/position.ts';
import type { XmlElement } from '../../text/xml.ts';
import { BRICKLINK_BY_FORMAT, type ParsedDocument, type ParsedLine } from '../model.ts';
import { limited, parseCurrency, parseUsDate } from '../values.ts';
import { BRICKLINK_ITEM_FIELDS, brickLinkItemLine } from './bricklink-item.ts';
import { childrenNamed, field, itemFields } from './xml-fields.ts';

/**
 * BrickLink order XML (SPEC §8): `ORDERS` with one document per `ORDER`, or a single `ORDER`. Order XML
 * gives no item names; lines are placed by number. BrickLink's own defects (a thousands comma in QTY,
 * a bare `&`, no declaration, remarks escaped twice) are accepted.
 */
export function readBrickLinkOrders(
  root: XmlElement,
  fileName: string,
  lineOf: (offset: number) => number,
): ParsedDocument[] {
  const orders = root.name === 'ORDER' ? [root] : childrenNamed(root, 'ORDER');
  if (orders.length === 0) throw parseError(fileName, 'the file holds no ORDER');
  return orders.map((order) => {
    const orderLine = lineOf(order.offset);
    const orderId = limited(field(order, 'ORDERID'), 'reference', fileName, orderLine);
    if (orderId === null) throw parseError(fileName, `line ${orderLine}: an ORDER without an ORDERID`);
    const seller = limited(field(order, 'SELLER'), 'counterparty', fileName, orderLine);
    const buyer = limited(field(order, 'BUYER'), 'counterparty', fileName, orderLine);
    const items = childrenNamed(order, 'ITEM');
    // An order without items would be an empty order in the store, which no one could use or export.
    if (items.length === 0)
      throw parseError(fileName, `line ${orderLine}: the order has no items (ORDERID ${quote(orderId)})`);
    const lines: ParsedLine[] = items.map((item, i) =>
      brickLinkItemLine(item, i + 1, fileName, lineOf(item.offset), {
        quantity: field(item, 'QTY'),
        price: field(item, 'PRICE'),
        quantityIfMissing: null,
      }),
    );
    return {
      key: `bricklink-order:${orderId}`,
      fileName,
      format: 'bricklink-order',
      header: {
        reference: orderId,
        counterparty: seller ?? buyer,
        counterpartyRole: seller !== null ? 'seller' : buyer !== null ? 'buyer' : null,
        currency: parseCurrency(field(order, 'BASECURRENCYCODE'), fileName, orderLine),
        orderDate: parseUsDate(field(order, 'ORDERDATE'), fileName, orderLine),
      },
      lines,
      reading: {
        ...itemFields(items, { ...BRICKLINK_ITEM_FIELDS, QTY: 'quantity', PRICE: 'price' }),
        colourNumbering: BRICKLINK_BY_FORMAT,
        warnings: [],
      },
    };
  });
}
