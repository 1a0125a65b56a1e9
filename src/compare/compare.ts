/**
 * Compare (SPEC §13): two lists of lines matched by what they are after placement — (item type, item,
 * colour, condition) — with quantities summed per key on each side first. Lines unplaced on either side
 * are matched only with each other, by their given number (or folded name) and colour, and listed apart:
 * never silently matched with a placed line. A pure function of the two sides: nothing is read or written.
 * Money is exact: ten-thousandths of the currency unit, as the store keeps it.
 */
import { foldName } from '../placement/fold.ts';

/** A line of either side, as its order, document or file gives it and placement left it. */
export interface CompareLine {
  readonly given: {
    readonly type: string | null;
    readonly no: string | null;
    readonly name: string | null;
    readonly colourId: number | null;
    readonly colourName: string | null;
  };
  /** Where placement put it (the catalogue's item and colour); null: unplaced. */
  readonly placed: { readonly type: string; readonly no: string; readonly colour: number | null } | null;
  readonly quantity: number;
  readonly unitPriceE4: number | null;
  readonly condition: 'N' | 'U' | null;
}

/** One key's lines on both sides: summed quantities, and their value where the lines give a price. */
export interface CompareRow {
  readonly key: string;
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

interface Acc {
  item: CompareRow['item'];
  given: CompareLine['given'];
  condition: CompareLine['condition'];
  quantity: [number, number];
  /** How many lines each side has of it (a lot of 0 pieces is still a lot: real BrickStore files keep them). */
  lines: [number, number];
  /** Σ quantity × price and Σ quantity of the lines that give a price, per side. */
  value: [number, number];
  priced: [number, number];
}

/** The key a line is matched by: what it is when placed; what it gives (number or folded name, colour) when not. */
export function compareKey(line: CompareLine): string {
  const condition = line.condition ?? '';
  if (line.placed !== null)
    return `P\t${line.placed.type}\t${line.placed.no.toLowerCase()}\t${line.placed.colour ?? ''}\t${condition}`;
  const g = line.given;
  const what = g.no !== null && g.no.trim() !== '' ? `#${g.no.trim().toLowerCase()}` : `~${foldName(g.name ?? '')}`;
  const colour = g.colourId !== null ? `${g.colourId}` : `~${foldName(g.colourName ?? '')}`;
  return `U\t${g.type ?? ''}\t${what}\t${colour}\t${condition}`;
}

/** Compares `left` with `right` (SPEC §13). */
export function compareSides(
  left: Iterable<CompareLine>,
  right: Iterable<CompareLine>,
  options: { readonly prices?: boolean } = {},
): CompareResult {
  const byKey = new Map<string, Acc>();
  const add = (line: CompareLine, side: 0 | 1) => {
    const key = compareKey(line);
    let acc = byKey.get(key);
    if (acc === undefined) {
      acc = {
        item: line.placed,
        given: line.given,
        condition: line.condition,
        quantity: [0, 0],
        lines: [0, 0],
        value: [0, 0],
        priced: [0, 0],
      };
      byKey.set(key, acc);
    }
    acc.quantity[side] += line.quantity;
    acc.lines[side] += 1;
    if (line.unitPriceE4 !== null) {
      acc.value[side] += line.quantity * line.unitPriceE4;
      acc.priced[side] += line.quantity;
    }
  };
  for (const l of left) add(l, 0);
  for (const l of right) add(l, 1);

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
  const unit = (acc: Acc, side: 0 | 1) =>
    acc.priced[side] === 0 ? null : Math.round(acc.value[side] / acc.priced[side]);
  for (const [key, acc] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [l, r] = acc.quantity;
    const row: CompareRow = {
      key,
      item: acc.item,
      given: acc.given,
      condition: acc.condition,
      left: l,
      right: r,
      difference: r - l,
      leftUnitPriceE4: unit(acc, 0),
      rightUnitPriceE4: unit(acc, 1),
    };
    const on = (side: 0 | 1) => acc.lines[side] > 0;
    if (on(0)) {
      totals.left.lots += 1;
      totals.left.pieces += l;
    }
    if (on(1)) {
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
    else if (!on(1)) groups.onlyLeft.push(row);
    else if (!on(0)) groups.onlyRight.push(row);
    else if (l !== r) groups.quantityDiffers.push(row);
    else groups.same.push(row);
    if (
      options.prices === true &&
      acc.item !== null &&
      on(0) &&
      on(1) &&
      row.leftUnitPriceE4 !== null &&
      row.rightUnitPriceE4 !== null &&
      row.leftUnitPriceE4 !== row.rightUnitPriceE4
    )
      groups.priceDiffers.push(row);
  }
  return { ...groups, totals: { ...totals, missingValueE4, extraValueE4 } };
}
