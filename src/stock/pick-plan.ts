import { compareText, lineApart, lotsByItemColour, stockItemColourKey, unplacedApart } from './items.ts';
import { sortByLocation } from './natural-order.ts';
import type {
  Condition,
  LineApart,
  OrderLine,
  OtherCondition,
  PickEntry,
  PickMark,
  PickMissing,
  PickPlan,
  PickProgress,
  PlacedOrderLine,
  Shortfall,
  StockLot,
  UnplacedLineApart,
} from './types.ts';

/**
 * The pick list of an order going out (issue 65 §2, SPEC §16): each placed line against the stock's lots
 * of its item, colour and condition, taken from the first lot in walking order, then the next, until the
 * line has its pieces; the whole walk in walking order (by location, naturally; lots without one last).
 */

/**
 * An entry's key, as a mark names it: the order line and the lot as the shop knows it (`lotKeys`), so that
 * a newer import of the same stock — the morning's fresh download, in the middle of a walk — keeps the
 * marks made on its lots.
 */
export function pickEntryKey(line: number, lotKey: string): string {
  return `${line}:${lotKey}`;
}

/**
 * A short hash of a lot's description (53 bits, two 32-bit FNV-1a lanes): pure, since the screens' code
 * computes the walk too (renderer/state/pick.ts), and far from colliding among one order's lots.
 */
function hash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return ((b >>> 0) & 0x1fffff).toString(36).padStart(5, '0') + (a >>> 0).toString(36).padStart(7, '0');
}

/**
 * Each lot's key across stock imports: BrickLink's lot id where the stock gave one; else the lot's bin,
 * item, colour and condition (a short hash of them: a location may hold any character), with a count for
 * lots alike in all of these, in the stock's order. The store's line ids change with every import.
 */
export function lotKeys(lots: readonly StockLot[]): Map<number, string> {
  const keys = new Map<number, string>();
  const met = new Map<string, number>();
  for (const lot of [...lots].sort((a, b) => a.lot - b.lot)) {
    const id = lot.lotId?.trim() ?? '';
    // A lot id as BrickLink gives it is short; another source's, whatever it is, is hashed as a bin is.
    const base = /^[\w-]{1,20}$/.test(id)
      ? `L${id}`
      : hash(
          id !== ''
            ? `lot\t${id}`
            : [lot.location ?? '', lot.item.type, lot.item.no, lot.item.colour ?? '', lot.condition ?? ''].join('\t'),
        );
    const n = (met.get(base) ?? 0) + 1;
    met.set(base, n);
    keys.set(lot.lot, n === 1 ? base : `${base}.${n}`);
  }
  return keys;
}

const otherOf = (c: Condition): Condition => (c === 'N' ? 'U' : 'N');

/**
 * The lots a line may take from, in the order it takes them. A line that names its condition takes lots
 * of that condition, then lots whose condition the stock does not say (they can't be shown to differ).
 * A line that names none — the customer asked for neither — takes from every lot of its item and colour
 * in walking order, whatever their condition: the shortest walk; each entry names its lot's condition.
 */
function lotsFor(line: PlacedOrderLine, group: readonly StockLot[]): StockLot[] {
  if (line.condition === null) return [...group];
  return [...group.filter((l) => l.condition === line.condition), ...group.filter((l) => l.condition === null)];
}

function shortfallOf(
  line: PlacedOrderLine,
  group: readonly StockLot[],
  missing: number,
  left: ReadonlyMap<number, number>,
): Shortfall {
  // A lot of 0 pieces (BrickStore keeps them) holds nothing: it does not make the item "in stock".
  const holding = group.filter((l) => l.quantity > 0);
  if (holding.length === 0) return { kind: 'none', missing, other: null };
  const wanted = line.condition;
  if (wanted === null) return { kind: 'short', missing, other: null };
  const others = holding.filter((l) => l.condition === otherOf(wanted));
  const other: OtherCondition | null =
    others.length === 0
      ? null
      : {
          condition: otherOf(wanted),
          quantity: others.reduce((n, l) => n + (left.get(l.lot) ?? 0), 0),
          locations: [
            ...new Set(others.flatMap((l) => (l.location === null || l.location.trim() === '' ? [] : [l.location]))),
          ],
        };
  const same = holding.some((l) => l.condition === wanted || l.condition === null);
  return same
    ? { kind: 'short', missing, other: other !== null && other.quantity > 0 ? other : null }
    : { kind: 'other-condition', missing, other };
}

/**
 * The pick list of `lines` (an order's saved lines, in the order's order) against `lots` (the stock's lots
 * of the same items and colours, any condition). Lines share the stock: a later line of the same item,
 * colour and condition takes what the earlier ones left. Lines of 0 pieces need nothing; unplaced lines
 * are listed apart with their reasons. A line with nothing it may take is not a stop of the walk: it is
 * listed in `missing` (there is no bin to walk to, and what to do — offer the other condition, cancel —
 * is for whoever answers the customer); a line that finds some of its pieces carries its shortfall on its
 * last stop, where the picker sees it with the pieces in hand.
 */
export function planPick(lines: readonly OrderLine[], lots: readonly StockLot[]): PickPlan {
  const groups = lotsByItemColour(lots);
  // A group is put in walking order when a line first asks for it: the stock may hold many more items.
  const walks = new Map<string, StockLot[]>();
  const walkOf = (k: string) => {
    const walk = walks.get(k) ?? sortByLocation(groups.get(k) ?? [], (l) => l.location);
    walks.set(k, walk);
    return walk;
  };
  const left = new Map(lots.map((l) => [l.lot, Math.max(0, l.quantity)]));
  const keyOf = lotKeys(lots);
  const entries: PickEntry[] = [];
  const missing: PickMissing[] = [];
  const nothingAsked: LineApart[] = [];
  const unplaced: UnplacedLineApart[] = [];
  const shorts = new Map<number, Shortfall>();

  for (const line of lines) {
    if (line.item === null) {
      unplaced.push(unplacedApart(line));
      continue;
    }
    if (line.quantity <= 0) {
      nothingAsked.push(lineApart(line));
      continue;
    }
    const group = walkOf(stockItemColourKey(line.item));
    let need = line.quantity;
    const taken: PickEntry[] = [];
    for (const lot of lotsFor(line, group)) {
      if (need === 0) break;
      const there = left.get(lot.lot) ?? 0;
      if (there === 0) continue;
      const take = Math.min(there, need);
      left.set(lot.lot, there - take);
      need -= take;
      taken.push({
        key: pickEntryKey(line.line, keyOf.get(lot.lot) ?? `${lot.lot}`),
        line: line.line,
        position: line.position,
        where: line.where,
        what: line.what,
        item: line.item,
        ordered: line.quantity,
        lot: lot.lot,
        lotId: lot.lotId,
        location: lot.location,
        condition: lot.condition,
        inLot: lot.quantity,
        take,
        short: null,
      });
    }
    const short = need > 0 ? shortfallOf(line, group, need, left) : null;
    if (taken.length === 0 && short !== null)
      missing.push({ ...lineApart(line), item: line.item, condition: line.condition, short });
    else {
      entries.push(...taken);
      if (short !== null) shorts.set(line.line, short);
    }
  }

  // Walking order; in one bin, one item's lots together (a warehouse's pick by location, grouped by
  // product), then the order's order (the sort is stable).
  const walk = sortByLocation(
    entries,
    (e) => e.location,
    (a, b) => compareText(stockItemColourKey(a.item), stockItemColourKey(b.item)),
  );
  // A line's shortfall goes on its last stop: by then the picker has seen every lot it had.
  const seen = new Set<number>();
  for (let i = walk.length - 1; i >= 0; i--) {
    const e = walk[i];
    if (e === undefined || seen.has(e.line)) continue;
    seen.add(e.line);
    const short = shorts.get(e.line);
    if (short !== undefined) walk[i] = { ...e, short };
  }
  return { entries: walk, missing, nothingAsked, unplaced };
}

/**
 * How far the picking is (the picking screen's "31 of 58 lots, 412 of 530 pieces"), from marks: a mark
 * says how many of an entry's pieces are picked. A mark never counts more than its entry asks, a mark of
 * an entry the list no longer has counts nothing, and where an entry has several marks (two desks marked
 * the same lot) the largest stands: they saw the same pieces, so they are never added up.
 */
export function pickProgress(entries: readonly PickEntry[], marks: readonly PickMark[]): PickProgress {
  const picked = new Map<string, number>();
  for (const m of marks) picked.set(m.key, Math.max(picked.get(m.key) ?? 0, Math.floor(m.picked)));
  let lotsDone = 0;
  let pieces = 0;
  let piecesDone = 0;
  for (const e of entries) {
    const done = Math.min(e.take, Math.max(0, picked.get(e.key) ?? 0));
    pieces += e.take;
    piecesDone += done;
    if (done === e.take) lotsDone += 1;
  }
  return { lots: entries.length, lotsDone, pieces, piecesDone };
}

/** The progress in staff's words: `31 of 58 lots, 412 of 530 pieces`. */
export function pickProgressText(p: PickProgress): string {
  const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
  return `${p.lotsDone} of ${p.lots} ${plural(p.lots, 'lot', 'lots')}, ${p.piecesDone} of ${p.pieces} ${plural(p.pieces, 'piece', 'pieces')}`;
}
