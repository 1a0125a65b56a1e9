/**
 * Compare (SPEC §13): two lists of lines matched by what they are after placement — (item type, item,
 * colour, condition) — with quantities summed per key on each side first. Lines unplaced on either side
 * are matched only with each other, by their given number (or folded name) and colour, and listed apart:
 * never silently matched with a placed line. A pure function of the two sides: nothing is read or written.
 * Money is exact: ten-thousandths of the currency unit, as the store keeps it.
 */
import { foldName } from '../placement/fold.ts';
import type { LineToCompare } from '../store/lines.ts';

/** A line of either side, as its order, document or file gives it and placement left it (the store reads them so). */
export type CompareLine = LineToCompare;

/** One key's lines on both sides: summed quantities, and their value where the lines give a price. */
export interface CompareRow {
  /** The catalogue item and colour the key is (null for a row of unplaced lines). */
  readonly item: { readonly type: string; readonly no: string; readonly colour: number | null } | null;
  /** What the first line of the key gave: how an unplaced row is named. */
  readonly given: CompareLine['given'];
  readonly condition: 'N' | 'U' | null;
  readonly left: number;
  readonly right: number;
  /** right − left: negative when pieces are missing on the right, positive when it has extra. */
  readonly difference: number;
  /** Mean unit price on each side, where its lines give one (ten-thousandths, rounded). */
  readonly leftUnitPriceE4: number | null;
  readonly rightUnitPriceE4: number | null;
}

export interface SideTotals {
  readonly lots: number;
  readonly pieces: number;
}

export interface CompareResult {
  readonly onlyLeft: readonly CompareRow[];
  readonly onlyRight: readonly CompareRow[];
  readonly quantityDiffers: readonly CompareRow[];
  readonly same: readonly CompareRow[];
  /** Asked for (`prices`): rows on both sides whose unit prices differ; else empty. */
  readonly priceDiffers: readonly CompareRow[];
  /** Rows of lines unplaced on either side, matched only with each other (listed apart). */
  readonly unplaced: readonly CompareRow[];
  readonly totals: {
    readonly left: SideTotals;
    readonly right: SideTotals;
    /** Pieces the left has and the right lacks, and the right's pieces beyond the left's. */
    readonly missing: number;
    readonly extra: number;
    /** The value of the missing pieces (at the left's prices) and of the extra (at the right's), where known. */
    readonly missingValueE4: number;
    readonly extraValueE4: number;
  };
}

/**
 * One key's running sums, which become its row: one flat object per key, mutated in place (at 200,000
 * keys the allocations are the cost).
 */
interface Acc {
  item: CompareRow['item'];
  given: CompareLine['given'];
  condition: CompareLine['condition'];
  left: number;
  right: number;
  difference: number;
  leftUnitPriceE4: number | null;
  rightUnitPriceE4: number | null;
  /** Lines (a lot of 0 pieces is still a lot: real BrickStore files keep them), Σ quantity × price and
   * Σ quantity of the priced lines, on the left (0) and the right (1). */
  n0: number;
  n1: number;
  v0: number;
  v1: number;
  p0: number;
  p1: number;
  /** A placed key's colour and condition as one number, and the next key of the same item (a short chain). */
  ck: number;
  next: Acc | null;
}

/** The key a line is matched by: what it is when placed; what it gives (number or folded name, colour) when not. */
export function compareKey(line: CompareLine): string {
  const condition = line.condition ?? '';
  // A placed line's number is the catalogue's own spelling: no folding needed.
  if (line.placed !== null)
    return `P\t${line.placed.type}\t${line.placed.no}\t${line.placed.colour ?? ''}\t${condition}`;
  const g = line.given;
  const what = g.no !== null && g.no.trim() !== '' ? `#${g.no.trim().toLowerCase()}` : `~${foldName(g.name ?? '')}`;
  const colour = g.colourId !== null ? `${g.colourId}` : `~${foldName(g.colourName ?? '')}`;
  return `U\t${g.type ?? ''}\t${what}\t${colour}\t${condition}`;
}

/**
 * Compares `left` with `right` (SPEC §13). Rows come in the order the left side first lists their keys,
 * then the right side's own: the order staff know from the documents, and no sort of the whole result.
 */
export function compareSides(
  left: Iterable<CompareLine>,
  right: Iterable<CompareLine>,
  options: { readonly prices?: boolean } = {},
): CompareResult {
  // Placed lines are keyed by type, then number, then colour and condition as one small number in a
  // short chain per item: no key string is built per line, and no map per item (at 400,000 lines,
  // building and hashing key strings was most of the time). Unplaced lines, a few, by their key string.
  // `rows` keeps the order keys were first met.
  const placed = new Map<string, Map<string, Acc>>();
  const unplaced = new Map<string, Acc>();
  const rows: Acc[] = [];
  const fresh = (line: CompareLine, ck: number, next: Acc | null): Acc => {
    const acc: Acc = {
      item: line.placed,
      given: line.given,
      condition: line.condition,
      left: 0,
      right: 0,
      difference: 0,
      leftUnitPriceE4: null,
      rightUnitPriceE4: null,
      n0: 0,
      n1: 0,
      v0: 0,
      v1: 0,
      p0: 0,
      p1: 0,
      ck,
      next,
    };
    rows.push(acc);
    return acc;
  };
  const accOf = (line: CompareLine): Acc => {
    const p = line.placed;
    if (p === null) {
      const key = compareKey(line);
      let acc = unplaced.get(key);
      if (acc === undefined) unplaced.set(key, (acc = fresh(line, 0, null)));
      return acc;
    }
    let byNo = placed.get(p.type);
    if (byNo === undefined) placed.set(p.type, (byNo = new Map()));
    const ck = ((p.colour ?? -1) + 1) * 3 + (line.condition === 'N' ? 1 : line.condition === 'U' ? 2 : 0);
    const first = byNo.get(p.no);
    for (let acc: Acc | null = first ?? null; acc !== null; acc = acc.next) if (acc.ck === ck) return acc;
    const acc = fresh(line, ck, first ?? null);
    byNo.set(p.no, acc);
    return acc;
  };
  for (const l of left) {
    const acc = accOf(l);
    acc.left += l.quantity;
    acc.n0 += 1;
    if (l.unitPriceE4 !== null) {
      acc.v0 += l.quantity * l.unitPriceE4;
      acc.p0 += l.quantity;
    }
  }
  for (const l of right) {
    const acc = accOf(l);
    acc.right += l.quantity;
    acc.n1 += 1;
    if (l.unitPriceE4 !== null) {
      acc.v1 += l.quantity * l.unitPriceE4;
      acc.p1 += l.quantity;
    }
  }

  const groups = {
    onlyLeft: [] as CompareRow[],
    onlyRight: [] as CompareRow[],
    quantityDiffers: [] as CompareRow[],
    same: [] as CompareRow[],
    priceDiffers: [] as CompareRow[],
    unplaced: [] as CompareRow[],
  };
  const totals = { left: { lots: 0, pieces: 0 }, right: { lots: 0, pieces: 0 }, missing: 0, extra: 0 };
  let missingValueE4 = 0;
  let extraValueE4 = 0;
  for (const row of rows) {
    const l = row.left;
    const r = row.right;
    row.difference = r - l;
    row.leftUnitPriceE4 = row.p0 === 0 ? null : Math.round(row.v0 / row.p0);
    row.rightUnitPriceE4 = row.p1 === 0 ? null : Math.round(row.v1 / row.p1);
    const acc = row;
    const onLeft = acc.n0 > 0;
    const onRight = acc.n1 > 0;
    if (onLeft) {
      totals.left.lots += 1;
      totals.left.pieces += l;
    }
    if (onRight) {
      totals.right.lots += 1;
      totals.right.pieces += r;
    }
    if (r < l) {
      totals.missing += l - r;
      missingValueE4 += (l - r) * (row.leftUnitPriceE4 ?? row.rightUnitPriceE4 ?? 0);
    } else if (r > l) {
      totals.extra += r - l;
      extraValueE4 += (r - l) * (row.rightUnitPriceE4 ?? row.leftUnitPriceE4 ?? 0);
    }
    if (acc.item === null) groups.unplaced.push(row);
    else if (!onRight) groups.onlyLeft.push(row);
    else if (!onLeft) groups.onlyRight.push(row);
    else if (l !== r) groups.quantityDiffers.push(row);
    else groups.same.push(row);
    if (
      options.prices === true &&
      acc.item !== null &&
      onLeft &&
      onRight &&
      row.leftUnitPriceE4 !== null &&
      row.rightUnitPriceE4 !== null &&
      row.leftUnitPriceE4 !== row.rightUnitPriceE4
    )
      groups.priceDiffers.push(row);
  }
  return { ...groups, totals: { ...totals, missingValueE4, extraValueE4 } };
}
