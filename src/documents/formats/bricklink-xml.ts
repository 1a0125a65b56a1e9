import { parseError } from '../../text/position.ts';
import type { XmlElement } from '../../text/xml.ts';
import { BRICKLINK_BY_FORMAT, NO_HEADER, type KeptColumn, type ParsedDocument, type ParsedLine } from '../model.ts';
import { BRICKLINK_ITEM_FIELDS, brickLinkItemLine } from './bricklink-item.ts';
import { childrenNamed, field, itemFields, keptField, withKept } from './xml-fields.ts';

/**
 * BrickLink XML (SPEC §8): `INVENTORY` of `ITEM`s, as wanted lists (MINQTY, MAXPRICE) and mass uploads
 * (QTY, PRICE) have it. No header: the key is the file's name.
 */
export function readBrickLinkXml(
  root: XmlElement,
  fileName: string,
  lineOf: (offset: number) => number,
  keep: KeptColumn | null = null,
): ParsedDocument {
  const items = childrenNamed(root, 'ITEM');
  if (items.length === 0) throw parseError(fileName, `line ${lineOf(root.offset)}: the document has no items`);
  const kept = keep === null ? undefined : keptField(items, keep, 'REMARKS', fileName);
  const lines: ParsedLine[] = items.map((item, i) => {
    const maxPrice = field(item, 'MAXPRICE');
    return brickLinkItemLine(item, i + 1, fileName, lineOf(item.offset), {
      // A wanted list may leave out MINQTY ("any"): one.
      quantity: field(item, 'QTY') ?? field(item, 'MINQTY'),
      quantityIfMissing: 1,
      // BrickLink writes MAXPRICE -1 for "no maximum".
      price: field(item, 'PRICE') ?? (maxPrice !== null && /^-1(\.0+)?$/.test(maxPrice) ? null : maxPrice),
      ...(kept === undefined ? {} : { kept }),
    });
  });
  const fields = itemFields(items, {
    ...BRICKLINK_ITEM_FIELDS,
    QTY: 'quantity',
    MINQTY: 'quantity',
    PRICE: 'price',
    MAXPRICE: 'price',
  });
  const reading = {
    ...(kept === undefined || keep === null ? fields : withKept(fields, kept, keep.as)),
    colourNumbering: BRICKLINK_BY_FORMAT,
    warnings: [],
  };
  return { key: fileName, fileName, format: 'bricklink-xml', header: NO_HEADER, lines, reading };
}
