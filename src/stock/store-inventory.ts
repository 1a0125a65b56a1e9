/**
 * The shop's store inventory as BrickLink's API gives it (`GET /inventories`, SPEC §16): each lot read
 * from the API's JSON, and written as the `INVENTORY` XML of BrickLink's own inventory download, so the
 * stock taken from the API is read, placed and previewed by the same reader as a downloaded file.
 */
import { BrickWorkError } from '../vocabulary/errors.ts';
import { inventoryXml, type XmlItem } from '../exports/bricklink-xml.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import { API_TYPE_NAMES } from '../catalogue/bricklink/api.ts';

/** One lot of the store, in BrickLink's numbers. */
export interface StoreInventoryLot {
  /** BrickLink's lot id (`inventory_id`). */
  readonly lotId: number;
  readonly type: ItemType;
  readonly no: string;
  /** BrickLink's colour id; 0 for items without colour. */
  readonly colourId: number;
  readonly quantity: number;
  readonly condition: 'N' | 'U';
  /** As the API writes it (a decimal text); null when it gives none. */
  readonly unitPrice: string | null;
  /** Where a shop keeps the lot's bin (SPEC §16); null when empty. */
  readonly remarks: string | null;
  readonly description: string | null;
}

const TYPE_CODES = new Map(Object.entries(API_TYPE_NAMES).map(([code, name]) => [name, code as ItemType]));

interface ApiLot {
  inventory_id?: unknown;
  item?: { no?: unknown; type?: unknown };
  color_id?: unknown;
  quantity?: unknown;
  new_or_used?: unknown;
  unit_price?: unknown;
  remarks?: unknown;
  description?: unknown;
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * The API's answer read lot by lot. A lot the answer holds malformed refuses the whole answer in words
 * (`source-error`): a stock missing lots silently would make a pick list say "none in stock" of what is there.
 */
export function storeInventoryLots(data: unknown): StoreInventoryLot[] {
  if (!Array.isArray(data)) throw new BrickWorkError('source-error', "BrickLink's answer holds no inventory list.");
  return (data as ApiLot[]).map((lot, i) => {
    const type = typeof lot.item?.type === 'string' ? TYPE_CODES.get(lot.item.type) : undefined;
    const no = textOrNull(lot.item?.no);
    const { inventory_id: lotId, color_id: colourId, quantity } = lot;
    const condition = lot.new_or_used;
    if (
      type === undefined ||
      no === null ||
      !Number.isSafeInteger(lotId) ||
      !Number.isSafeInteger(colourId) ||
      !Number.isSafeInteger(quantity) ||
      (quantity as number) < 0 ||
      (condition !== 'N' && condition !== 'U')
    ) {
      throw new BrickWorkError(
        'source-error',
        `BrickLink's inventory answer has a lot it does not describe whole (lot ${i + 1} of ${data.length}${
          Number.isSafeInteger(lotId) ? `, id ${String(lotId)}` : ''
        }): no stock was taken from it.`,
      );
    }
    const price = lot.unit_price;
    return {
      lotId: lotId as number,
      type,
      no,
      colourId: colourId as number,
      quantity: quantity as number,
      condition,
      unitPrice: typeof price === 'number' ? String(price) : textOrNull(price),
      remarks: textOrNull(lot.remarks),
      description: textOrNull(lot.description),
    };
  });
}

/** The lots as BrickLink's inventory download writes them (`INVENTORY`, one `ITEM` per lot with its `LOTID`). */
export function storeInventoryXml(lots: readonly StoreInventoryLot[]): string {
  return inventoryXml(
    lots.map((l): XmlItem => [
      ['LOTID', String(l.lotId)],
      ['ITEMTYPE', l.type],
      ['ITEMID', l.no],
      ['COLOR', String(l.colourId)],
      ['QTY', String(l.quantity)],
      ['PRICE', l.unitPrice],
      ['CONDITION', l.condition],
      ['DESCRIPTION', l.description],
      ['REMARKS', l.remarks],
    ]),
  );
}

/** The name the stock taken from the API goes under, as a downloaded file's would: dated, in UTC. */
export function storeInventoryFileName(now: Date): string {
  return `BrickLink store inventory ${now.toISOString().slice(0, 10)}.xml`;
}
