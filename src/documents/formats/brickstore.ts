import { parseError } from '../../text/position.ts';
import type { XmlElement } from '../../text/xml.ts';
import { BRICKLINK_BY_FORMAT, FORMAT_NAMES, NO_HEADER, type ParsedDocument, type ParsedLine } from '../model.ts';
import {
  limited,
  parseCondition,
  parseCurrency,
  parseMoneyE4,
  parseOptionalId,
  parseQuantity,
  textOrNull,
} from '../values.ts';
import { childrenNamed, field, itemFields, refuseMarkupInFields, refuseRepeatedFields } from './xml-fields.ts';

/** The fields of a BrickStore item brick-work reads, and what it reads each as. */
const READ = {
  ItemID: 'number',
  ItemTypeID: 'item type',
  ItemName: 'name',
  ColorID: 'colour number',
  ColorName: 'colour name',
  Qty: 'quantity',
  Price: 'price',
  Condition: 'condition',
  Remarks: 'remarks',
};
const READ_ONCE: ReadonlySet<string> = new Set(Object.keys(READ));

/**
 * BrickStore `.bsx` (SPEC §8): `BrickStoreXML`/`Inventory`/`Item` with ItemID, ItemTypeID, ColorID,
 * ItemName (often absent), ColorName, Qty (real files keep lots at 0), Price, Condition, Remarks.
 * BrickStock's `BrickStockXML` is read alike; the document keeps which it was, so the preview names it.
 */
export function readBrickStore(root: XmlElement, fileName: string, lineOf: (offset: number) => number): ParsedDocument {
  const format = root.name === 'BrickStockXML' ? 'brickstock' : 'brickstore';
  const inventory = childrenNamed(root, 'Inventory')[0];
  if (inventory === undefined) throw parseError(fileName, `the ${FORMAT_NAMES[format]} has no Inventory`);
  const items = childrenNamed(inventory, 'Item');
  if (items.length === 0) throw parseError(fileName, `line ${lineOf(inventory.offset)}: the document has no items`);
  const lines: ParsedLine[] = items.map((item, i) => {
    const line = lineOf(item.offset);
    refuseMarkupInFields(item, fileName, line);
    refuseRepeatedFields(item, READ_ONCE, fileName, line);
    return {
      position: i + 1,
      given: {
        type: limited(field(item, 'ItemTypeID'), 'type', fileName, line),
        no: limited(field(item, 'ItemID'), 'no', fileName, line),
        name: limited(field(item, 'ItemName'), 'name', fileName, line),
        colourId: parseOptionalId(field(item, 'ColorID'), 'colour id', fileName, line),
        colourName: limited(field(item, 'ColorName'), 'colourName', fileName, line),
      },
      quantity: parseQuantity(field(item, 'Qty'), fileName, line, 0),
      unitPriceE4: parseMoneyE4(field(item, 'Price'), fileName, line),
      condition: parseCondition(field(item, 'Condition'), fileName, line),
      remarks: limited(textOrNull(field(item, 'Remarks')), 'remarks', fileName, line),
      sourceLine: line,
    };
  });
  const currency = parseCurrency(
    inventory.attributes['Currency'] ?? root.attributes['Currency'] ?? null,
    fileName,
    lineOf(inventory.offset),
  );
  const reading = { ...itemFields(items, READ), colourNumbering: BRICKLINK_BY_FORMAT, warnings: [] };
  return { key: fileName, fileName, format, header: { ...NO_HEADER, currency }, lines, reading };
}
