import { parseError } from '../../text/position.ts';
import type { XmlElement } from '../../text/xml.ts';
import {
  BRICKLINK_BY_FORMAT,
  FORMAT_NAMES,
  NO_HEADER,
  type KeptColumn,
  type ParsedDocument,
  type ParsedLine,
} from '../model.ts';
import {
  limited,
  parseCondition,
  parseCurrency,
  parseMoneyE4,
  parseOptionalId,
  parseQuantity,
  textOrNull,
} from '../values.ts';
import {
  childrenNamed,
  field,
  itemFields,
  keptField,
  refuseMarkupInFields,
  refuseRepeatedFields,
  withKept,
} from './xml-fields.ts';

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
  // A lot of the store's inventory (0: none), kept for BrickLink's Mass Update (SPEC §16).
  LotID: 'BrickLink lot id',
};
const READ_ONCE: ReadonlySet<string> = new Set(Object.keys(READ));

/**
 * BrickStore `.bsx` (SPEC §8): `BrickStoreXML`/`Inventory`/`Item` with ItemID, ItemTypeID, ColorID,
 * ItemName (often absent), ColorName, Qty (real files keep lots at 0), Price, Condition, Remarks.
 * BrickStock's `BrickStockXML` is read alike; the document keeps which it was, so the preview names it.
 */
export function readBrickStore(
  root: XmlElement,
  fileName: string,
  lineOf: (offset: number) => number,
  keep: KeptColumn | null = null,
): ParsedDocument {
  const format = root.name === 'BrickStockXML' ? 'brickstock' : 'brickstore';
  const inventory = childrenNamed(root, 'Inventory')[0];
  if (inventory === undefined) throw parseError(fileName, `the ${FORMAT_NAMES[format]} has no Inventory`);
  const items = childrenNamed(inventory, 'Item');
  if (items.length === 0) throw parseError(fileName, `line ${lineOf(inventory.offset)}: the document has no items`);
  const kept = keep === null ? undefined : keptField(items, keep, 'Remarks', fileName);
  const lines: ParsedLine[] = items.map((item, i) => {
    const line = lineOf(item.offset);
    refuseMarkupInFields(item, fileName, line);
    refuseRepeatedFields(item, READ_ONCE, fileName, line);
    const lotId = textOrNull(field(item, 'LotID'));
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
      // BrickStore writes 0 for a lot not (yet) in a store.
      ...(lotId === null || /^0+$/.test(lotId) ? {} : { lotId: limited(lotId, 'lotId', fileName, line) }),
      ...(kept === undefined ? {} : { kept: limited(textOrNull(field(item, kept)), 'kept', fileName, line) }),
    };
  });
  const currency = parseCurrency(
    inventory.attributes['Currency'] ?? root.attributes['Currency'] ?? null,
    fileName,
    lineOf(inventory.offset),
  );
  const fields = itemFields(items, READ);
  const reading = {
    ...(kept === undefined || keep === null ? fields : withKept(fields, kept, keep.as)),
    colourNumbering: BRICKLINK_BY_FORMAT,
    warnings: [],
  };
  return { key: fileName, fileName, format, header: { ...NO_HEADER, currency }, lines, reading };
}
