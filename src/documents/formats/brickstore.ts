import { parseError } from '../../text/position.ts';
import type { XmlElement } from '../../text/xml.ts';
import { NO_HEADER, type ParsedDocument, type ParsedLine } from '../model.ts';
import { parseCondition, parseCurrency, parseMoneyE4, parseOptionalId, parseQuantity, textOrNull } from '../values.ts';
import { childrenNamed, field } from './xml-fields.ts';

/**
 * BrickStore `.bsx` (SPEC §8): `BrickStoreXML`/`Inventory`/`Item` with ItemID, ItemTypeID, ColorID,
 * ItemName (often absent), ColorName, Qty (real files keep lots at 0), Price, Condition, Remarks.
 */
export function readBrickStore(root: XmlElement, fileName: string, lineOf: (offset: number) => number): ParsedDocument {
  const inventory = childrenNamed(root, 'Inventory')[0];
  if (inventory === undefined) throw parseError(fileName, 'the BrickStore document has no Inventory');
  const lines: ParsedLine[] = childrenNamed(inventory, 'Item').map((item, i) => {
    const line = lineOf(item.offset);
    return {
      position: i + 1,
      given: {
        type: field(item, 'ItemTypeID'),
        no: field(item, 'ItemID'),
        name: field(item, 'ItemName'),
        colourId: parseOptionalId(field(item, 'ColorID'), 'colour id', fileName, line),
        colourName: field(item, 'ColorName'),
      },
      quantity: parseQuantity(field(item, 'Qty'), fileName, line, 0),
      unitPriceE4: parseMoneyE4(field(item, 'Price'), fileName, line),
      condition: parseCondition(field(item, 'Condition'), fileName, line),
      remarks: textOrNull(field(item, 'Remarks')),
      sourceLine: line,
    };
  });
  const currency = parseCurrency(inventory.attributes['Currency'] ?? root.attributes['Currency'] ?? null, fileName);
  return { key: fileName, fileName, format: 'brickstore', header: { ...NO_HEADER, currency }, lines };
}
