import type { Condition, ItemInColour, OrderLine, StockLot } from '../../src/stock/types.ts';

/** Plain lines and lots for the stock plans' tests. */

export const brick = (no: string, colour: number | null = 5): ItemInColour => ({ type: 'P', no, colour });

let nextLine = 1;
let nextLot = 1000;

export function placed(
  item: ItemInColour,
  quantity: number,
  condition: Condition | null = 'N',
  line: number = nextLine++,
): OrderLine {
  return {
    line,
    position: line,
    where: `order.xml #${line}`,
    what: `${item.type} ${item.no} (colour ${item.colour ?? 0})`,
    quantity,
    condition,
    item,
    unplaced: null,
  };
}

export function unplacedLine(quantity: number, line: number = nextLine++): OrderLine {
  return {
    line,
    position: line,
    where: `order.xml #${line}`,
    what: 'P 99999zz',
    quantity,
    condition: 'N',
    item: null,
    unplaced: { reason: 'number-not-in-catalogue', text: 'The BrickLink number is not in the catalogue' },
  };
}

export function lot(
  item: ItemInColour,
  quantity: number,
  location: string | null,
  condition: Condition | null = 'N',
  id: number = nextLot++,
): StockLot {
  return { lot: id, lotId: String(id * 7), item, condition, quantity, location };
}
