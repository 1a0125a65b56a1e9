import { compareText, lineApart, lotsByItemColour, stockItemColourKey, stockItemKey, unplacedApart } from './items.ts';
import { compareLocations, sortByLocation } from './natural-order.ts';
import type {
  LineApart,
  LocationSource,
  OrderLine,
  PlacedOrderLine,
  PutAwayEntry,
  PutAwayPlan,
  StockLot,
  UnplacedLineApart,
} from './types.ts';

/**
 * The put-away list of an order coming in (issue 65 §3, SPEC §16): each received line into the lot the
 * stock already holds of its item, colour and condition, or into a new lot, with a location suggested
 * from where the item's other lots sit, else its category's, else none — and staff may type one.
 */

/** What the put-away list says of the stock (issue 65 §3): it is read, never changed, here. */
export const STOCK_UNCHANGED_NOTE =
  'The stock stays as it was imported: putting this order away changes it only when the stock is imported again (after BrickLink has taken the files).';

export interface PutAwayInput {
  /** The received order's saved lines, in the order's order. */
  readonly lines: readonly OrderLine[];
  /** The stock's lots of the lines' items, in any colour and condition. */
  readonly lots: readonly StockLot[];
  /**
   * For an item the stock holds no lot of: the stock's lots of its category, by `stockItemKey` of the
   * item. The caller knows the catalogue's categories; an item it gives none for has no category to
   * suggest from.
   */
  readonly categoryLots?: ReadonlyMap<string, readonly StockLot[]>;
  /** Locations staff typed for new lots, by order line id: a typed one replaces the suggestion. */
  readonly typed?: ReadonlyMap<number, string>;
  /**
   * Where the stock keeps each item of the lines that goes into a new lot (any colour and condition), by
   * `stockItemKey`: its lots counted by location (null: lots without one), an item absent holding none.
   * Given, it is what the item's suggestion is made from, and `lots` need hold only the lots of the
   * lines' items in their colours (`linesForNewLots` says which items ask): a store that counts them
   * need not carry every lot of an item in twenty colours out one by one.
   */
  readonly itemLocations?: ReadonlyMap<string, readonly LocationCount[]>;
}

/** How many of an item's (or a category's) lots are in one location; null: lots without one. */
export interface LocationCount {
  readonly location: string | null;
  readonly lots: number;
}

/** The location most lots are in, by counts; a tie goes to the first in natural order. Null: none has one. */
export function busiestLocation(counts: readonly LocationCount[]): string | null {
  const total = new Map<string, number>();
  for (const { location, lots } of counts) {
    const at = location?.trim() ?? '';
    if (at !== '') total.set(at, (total.get(at) ?? 0) + lots);
  }
  let best: string | null = null;
  let most = 0;
  for (const [at, n] of total)
    if (n > most || (n === most && compareLocations(at, best) < 0)) {
      best = at;
      most = n;
    }
  return best;
}

/**
 * The location most of `lots` sit in (by lots, not pieces: a drawer is where lots of the item are put);
 * a tie goes to the first in natural order. Null where none has a location.
 */
export function mostCommonLocation(lots: readonly StockLot[]): string | null {
  return busiestLocation(lots.map((l) => ({ location: l.location, lots: 1 })));
}

function suggestion(
  line: PlacedOrderLine,
  ofItem: readonly StockLot[],
  input: PutAwayInput,
): { location: string | null; from: LocationSource } {
  const typed = input.typed?.get(line.line)?.trim() ?? '';
  if (typed !== '') return { location: typed, from: 'typed' };
  // The item's other lots (other colours, or its colour in the other condition): where staff keep it.
  const counted = input.itemLocations ? (input.itemLocations.get(stockItemKey(line.item)) ?? []) : null;
  const byItem = counted !== null ? busiestLocation(counted) : mostCommonLocation(ofItem);
  if (byItem !== null) return { location: byItem, from: 'item' };
  // Only for an item the stock holds nothing of does its category speak.
  const holdsItem = counted !== null ? counted.length > 0 : ofItem.length > 0;
  const byCategory = holdsItem ? null : mostCommonLocation(input.categoryLots?.get(stockItemKey(line.item)) ?? []);
  return byCategory !== null ? { location: byCategory, from: 'category' } : { location: null, from: null };
}

/**
 * The lot a line goes into: of its item, colour and condition, the first in walking order. A line whose
 * condition the document does not say goes into a lot of its condition the stock does not say either,
 * else the first in walking order of either condition (each entry names the lot it goes to); a lot whose
 * condition the stock does not say takes a line of either. Null: a new lot.
 */
function lotFor(line: PlacedOrderLine, walk: readonly StockLot[]): StockLot | null {
  return (
    walk.find((l) => l.condition === line.condition) ??
    walk.find((l) => l.condition === null || line.condition === null) ??
    null
  );
}

/**
 * The lines that go into a new lot, given `lots` holding at least every lot of the lines' items in their
 * colours: the items whose suggestion `itemLocations` is asked for.
 */
export function linesForNewLots(lines: readonly OrderLine[], lots: readonly StockLot[]): PlacedOrderLine[] {
  const groups = lotsByItemColour(lots);
  return lines.filter(
    (l): l is PlacedOrderLine =>
      l.item !== null && l.quantity > 0 && lotFor(l, groups.get(stockItemColourKey(l.item)) ?? []) === null,
  );
}

/**
 * The put-away list of `input.lines` against the stock. Lines of 0 pieces put nothing away; unplaced
 * lines are listed apart with their reasons. Several lines into one lot follow each other: the second's
 * "before" is the first's "after". The stock itself is not changed (`STOCK_UNCHANGED_NOTE`).
 */
export function planPutAway(input: PutAwayInput): PutAwayPlan {
  const groups = lotsByItemColour(input.lots);
  const ofItems = new Map<string, StockLot[]>();
  for (const l of input.lots) {
    const k = stockItemKey(l.item);
    const same = ofItems.get(k);
    if (same === undefined) ofItems.set(k, [l]);
    else same.push(l);
  }
  const walks = new Map<string, StockLot[]>();
  const walkOf = (k: string) => {
    const walk = walks.get(k) ?? sortByLocation(groups.get(k) ?? [], (l) => l.location);
    walks.set(k, walk);
    return walk;
  };
  const after = new Map<number, number>();
  const entries: PutAwayEntry[] = [];
  const nothingReceived: LineApart[] = [];
  const unplaced: UnplacedLineApart[] = [];
  for (const line of input.lines) {
    if (line.item === null) {
      unplaced.push(unplacedApart(line));
      continue;
    }
    if (line.quantity <= 0) {
      nothingReceived.push(lineApart(line));
      continue;
    }
    const base = {
      line: line.line,
      position: line.position,
      where: line.where,
      what: line.what,
      item: line.item,
      condition: line.condition,
      quantity: line.quantity,
    };
    const lot = lotFor(line, walkOf(stockItemColourKey(line.item)));
    if (lot !== null) {
      const before = after.get(lot.lot) ?? lot.quantity;
      after.set(lot.lot, before + line.quantity);
      entries.push({
        kind: 'existing',
        ...base,
        lot: lot.lot,
        lotId: lot.lotId,
        location: lot.location,
        before,
        after: before + line.quantity,
      });
    } else
      entries.push({ kind: 'new', ...base, ...suggestion(line, ofItems.get(stockItemKey(line.item)) ?? [], input) });
  }
  // Walking order, as the pick list's: one item's lines together in a bin, then the order's order.
  const walk = sortByLocation(
    entries,
    (e) => e.location,
    (a, b) => compareText(stockItemColourKey(a.item), stockItemColourKey(b.item)),
  );
  return { entries: walk, nothingReceived, unplaced };
}
