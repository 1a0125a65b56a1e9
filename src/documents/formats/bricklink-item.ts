import { DESCRIPTION_LABEL } from '../../placement/rule.ts';
import type { XmlElement } from '../../text/xml.ts';
import type { ParsedLine } from '../model.ts';
import { limited, parseCondition, parseMoneyE4, parseOptionalId, parseQuantity, textOrNull } from '../values.ts';
import { field, refuseMarkupInFields, refuseRepeatedFields, unescapeTwice } from './xml-fields.ts';

/** The fields of a BrickLink `ITEM` every reader of one reads (quantity and price are each reader's), and what each is read as. */
export const BRICKLINK_ITEM_FIELDS = {
  ITEMTYPE: 'item type',
  ITEMID: 'number',
  COLOR: 'colour number',
  CONDITION: 'condition',
  REMARKS: 'remarks',
  // The lot's description (a seller's words on its condition, a minifigure's parts): kept in the remarks.
  DESCRIPTION: 'remarks (Description: …)',
  // A store's inventory download gives each lot's id: kept, for BrickLink's Mass Update (SPEC §16).
  LOTID: 'BrickLink lot id',
} as const;

/** Every field of an `ITEM` some reader reads: none may be given twice, saying two things. */
const READ_ONCE: ReadonlySet<string> = new Set([
  ...Object.keys(BRICKLINK_ITEM_FIELDS),
  'QTY',
  'MINQTY',
  'PRICE',
  'MAXPRICE',
]);

/** REMARKS, then DESCRIPTION as "Description: …": both are staff's words on the lot. */
function remarksOf(item: XmlElement): string | null {
  const remarks = textOrNull(unescapeTwice(field(item, 'REMARKS')));
  const description = textOrNull(unescapeTwice(field(item, 'DESCRIPTION')));
  if (description === null) return remarks;
  return [remarks, `${DESCRIPTION_LABEL}${description}`].filter((t) => t !== null).join('; ');
}

/**
 * One BrickLink `ITEM` (of an order or an INVENTORY) as a line: ITEMTYPE, ITEMID, COLOR, CONDITION,
 * REMARKS and DESCRIPTION, with the quantity and price the caller picked from its fields. BrickLink gives no names.
 */
export function brickLinkItemLine(
  item: XmlElement,
  position: number,
  fileName: string,
  line: number,
  values: {
    quantity: string | null;
    price: string | null;
    quantityIfMissing: number | null;
    /** The field read beside the line as given (`KeptColumn`), where one is asked for. */
    kept?: string;
  },
): ParsedLine {
  refuseMarkupInFields(item, fileName, line);
  refuseRepeatedFields(item, READ_ONCE, fileName, line);
  const lotId = limited(textOrNull(field(item, 'LOTID')), 'lotId', fileName, line);
  return {
    position,
    given: {
      type: limited(field(item, 'ITEMTYPE'), 'type', fileName, line),
      no: limited(field(item, 'ITEMID'), 'no', fileName, line),
      name: null,
      colourId: parseOptionalId(field(item, 'COLOR'), 'colour id', fileName, line),
      colourName: null,
    },
    quantity: parseQuantity(values.quantity, fileName, line, values.quantityIfMissing),
    unitPriceE4: parseMoneyE4(values.price, fileName, line),
    condition: parseCondition(field(item, 'CONDITION'), fileName, line),
    remarks: limited(remarksOf(item), 'remarks', fileName, line),
    sourceLine: line,
    ...(lotId === null ? {} : { lotId }),
    ...(values.kept === undefined
      ? {}
      : { kept: limited(textOrNull(unescapeTwice(field(item, values.kept))), 'kept', fileName, line) }),
  };
}
