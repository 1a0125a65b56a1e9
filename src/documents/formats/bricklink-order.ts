import { parseError } from '../../text/position.ts';
import type { XmlElement } from '../../text/xml.ts';
import type { ParsedDocument, ParsedLine } from '../model.ts';
import { parseCurrency, parseUsDate } from '../values.ts';
import { brickLinkItemLine } from './bricklink-item.ts';
import { childrenNamed, field } from './xml-fields.ts';

/**
 * BrickLink order XML (SPEC §8): `ORDERS` with one document per `ORDER`, or a single `ORDER`. Order XML
 * gives no item names; lines are placed by number. BrickLink's own defects (a thousands comma in QTY,
 * a bare `&`, no declaration, remarks escaped twice) are accepted.
 */
export function readBrickLinkOrders(root: XmlElement, fileName: string, lineOf: (offset: number) => number): ParsedDocument[] {
  const orders = root.name === 'ORDER' ? [root] : childrenNamed(root, 'ORDER');
  if (orders.length === 0) throw parseError(fileName, 'the file holds no ORDER');
  return orders.map((order) => {
    const orderId = field(order, 'ORDERID');
    if (orderId === null) throw parseError(fileName, `line ${lineOf(order.offset)}: an ORDER without an ORDERID`);
    const seller = field(order, 'SELLER');
    const buyer = field(order, 'BUYER');
    const lines: ParsedLine[] = childrenNamed(order, 'ITEM').map((item, i) =>
      brickLinkItemLine(item, i + 1, fileName, lineOf(item.offset), { quantity: field(item, 'QTY'), price: field(item, 'PRICE'), quantityIfMissing: null }),
    );
    return {
      key: `bricklink-order:${orderId}`,
      fileName,
      format: 'bricklink-order',
      header: {
        reference: orderId,
        counterparty: seller ?? buyer,
        counterpartyRole: seller !== null ? 'seller' : buyer !== null ? 'buyer' : null,
        currency: parseCurrency(field(order, 'BASECURRENCYCODE'), fileName),
        orderDate: parseUsDate(field(order, 'ORDERDATE'), fileName),
      },
      lines,
    };
  });
}
