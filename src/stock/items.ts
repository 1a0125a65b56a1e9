import type { ItemInColour, LineApart, OrderLine, StockLot, UnplacedLineApart } from './types.ts';

/** An item's key, without its colour: a number is matched without its case, as the catalogue matches it. */
export function stockItemKey(item: { readonly type: string; readonly no: string }): string {
  return `${item.type}\t${item.no.toLowerCase()}`;
}

/** An item's key in its colour. */
export function stockItemColourKey(item: ItemInColour): string {
  return `${stockItemKey(item)}\t${item.colour ?? ''}`;
}

/** Lots grouped by item and colour, each group in the order given. */
export function lotsByItemColour(lots: readonly StockLot[]): Map<string, StockLot[]> {
  const out = new Map<string, StockLot[]>();
  for (const l of lots) {
    const k = stockItemColourKey(l.item);
    const group = out.get(k);
    if (group === undefined) out.set(k, [l]);
    else group.push(l);
  }
  return out;
}

export function lineApart(l: OrderLine): LineApart {
  return { line: l.line, position: l.position, where: l.where, what: l.what, quantity: l.quantity };
}

export function unplacedApart(
  l: OrderLine & { readonly unplaced: NonNullable<OrderLine['unplaced']> },
): UnplacedLineApart {
  return { ...lineApart(l), reason: l.unplaced.reason, text: l.unplaced.text };
}

/** Plain code-unit order: the same on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
