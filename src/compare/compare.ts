/**
 * Compare (SPEC §13): two lists of lines matched by what they are after placement — (item type, item,
 * colour, condition) — with quantities summed per key on each side first. Lines unplaced on either side
 * are matched only with each other, by their given number (or folded name) and colour, and listed apart:
 * never silently matched with a placed line. A pure function of the two sides: nothing is read or written.
 * Money is exact: ten-thousandths of the currency unit, as the store keeps it.
 */
import { saidOf, type Said } from '../catalogue/item-numbers.ts';
import { numberingOfFormat } from '../numberings.ts';
import { foldName } from '../placement/fold.ts';
import type { GivenLine, LineToCompare } from '../store/lines.ts';

/** A line of either side, as its order, document or file gives it and placement left it: the store's columns (`LineToCompare`). */
export type CompareLine = LineToCompare;

// The columns of a `CompareLine`.
const GIVEN_TYPE = 0;
const GIVEN_NO = 1;
const GIVEN_NAME = 2;
const GIVEN_COLOUR_ID = 3;
const GIVEN_COLOUR_NAME = 4;
const ITEM_TYPE = 5;
const ITEM_NO = 6;
const COLOUR = 7;
const QUANTITY = 8;
const UNIT_PRICE_E4 = 9;
const CONDITION = 10;
const DOCUMENT_FORMAT = 11;
const PLACED_BY = 12;

/** A line as objects name it (a file's planned line, a test's), as a compare reads it. */
export function compareLine(l: {
  readonly given: GivenLine;
  readonly placed: {
    readonly type: string;
    readonly no: string;
    readonly colour: number | null;
    /** How the rule (or staff) placed it: `number`, `name`, `remembered`, `hand`. */
    readonly by?: string | null;
  } | null;
  readonly quantity: number;
  readonly unitPriceE4: number | null;
  readonly condition: 'N' | 'U' | null;
  /** Its document's format, which says the numbering its given number is in; null: none known. */
  readonly documentFormat?: string | null;
}): CompareLine {
  const g = l.given;
  const p = l.placed;
  return [
    g.type,
    g.no,
    g.name,
    g.colourId,
    g.colourName,
    p?.type ?? null,
    p?.no ?? null,
    p?.colour ?? null,
    l.quantity,
    l.unitPriceE4,
    l.condition,
    l.documentFormat ?? null,
    p?.by ?? null,
  ];
}

/** What a key's lines add up to on both sides. */
interface RowSums {
  readonly condition: 'N' | 'U' | null;
  readonly left: number;
  readonly right: number;
  /** right − left: negative when pieces are missing on the right, positive when it has extra. */
  readonly difference: number;
  /** Mean unit price on each side, where its lines give one (ten-thousandths, rounded). */
  readonly leftUnitPriceE4: number | null;
  readonly rightUnitPriceE4: number | null;
}

/** A key of placed lines: its catalogue item and colour (no given: nothing shows or exports a placed row's). */
export type PlacedRow = RowSums & {
  readonly item: { readonly type: string; readonly no: string; readonly colour: number | null };
  readonly given: null;
  /**
   * What its lines' documents called the item, where they say it and agree (`saidOf`): the key's number is
   * then read by the rule its lines' are (`lineNumber`). Null: none says, or they disagree.
   */
  readonly said: Said | null;
};

/** A key of unplaced lines, named by what its first line gave. */
export type UnplacedRow = RowSums & { readonly item: null; readonly given: GivenLine; readonly said: null };

/** One key's lines on both sides. */
export type CompareRow = PlacedRow | UnplacedRow;

export interface SideTotals {
  readonly lots: number;
  readonly pieces: number;
}

export interface CompareResult {
  readonly onlyLeft: readonly PlacedRow[];
  readonly onlyRight: readonly PlacedRow[];
  readonly quantityDiffers: readonly PlacedRow[];
  readonly same: readonly PlacedRow[];
  /** Asked for (`prices`): rows on both sides whose unit prices differ; else empty. */
  readonly priceDiffers: readonly PlacedRow[];
  /** Rows of lines unplaced on either side, matched only with each other (listed apart). */
  readonly unplaced: readonly UnplacedRow[];
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
  item: { readonly type: string; readonly no: string; readonly colour: number | null } | null;
  given: GivenLine | null;
  /** What the key's lines' documents called the item, while they agree (`mixed` once they don't). */
  said: Said | null;
  mixed: boolean;
  condition: 'N' | 'U' | null;
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

/**
 * The key a line is matched by: what it is when placed; what it gives (number or folded name, colour) when
 * not; and its condition, unless the compare leaves conditions out.
 */
export function compareKey(line: CompareLine, withCondition = true): string {
  const condition = withCondition ? (line[CONDITION] ?? '') : '';
  // A placed line's number is the catalogue's own spelling: no folding needed.
  if (line[ITEM_TYPE] !== null && line[ITEM_NO] !== null)
    return `P\t${line[ITEM_TYPE]}\t${line[ITEM_NO]}\t${line[COLOUR] ?? ''}\t${condition}`;
  const no = line[GIVEN_NO];
  const what = no !== null && no.trim() !== '' ? `#${no.trim().toLowerCase()}` : `~${foldName(line[GIVEN_NAME] ?? '')}`;
  const id = line[GIVEN_COLOUR_ID];
  const colour = id !== null ? `${id}` : `~${foldName(line[GIVEN_COLOUR_NAME] ?? '')}`;
  return `U\t${line[GIVEN_TYPE] ?? ''}\t${what}\t${colour}\t${condition}`;
}

/**
 * Compares `left` with `right` (SPEC §13). Rows come in the order the left side first lists their keys,
 * then the right side's own: the order staff know from the documents, and no sort of the whole result.
 */
export function compareSides(
  left: Iterable<CompareLine>,
  right: Iterable<CompareLine>,
  options: CompareOptions = {},
): CompareResult {
  const asPage = (lines: Iterable<CompareLine>) => [Array.isArray(lines) ? (lines as CompareLine[]) : [...lines]];
  return comparePages(asPage(left), asPage(right), options);
}

export interface CompareOptions {
  readonly prices?: boolean;
  /**
   * Condition is no part of the keys: one side gives none on any line (a model, a wanted list), and
   * "new" or "used" on the other is nothing it could differ by.
   */
  readonly withoutCondition?: boolean;
}

/**
 * `compareSides` of two sides read a page of lines at a time (`Side.pages`): each page is summed and
 * dropped, so that nothing but the keys' sums outlives it.
 */
export function comparePages(
  left: Iterable<readonly CompareLine[]>,
  right: Iterable<readonly CompareLine[]>,
  options: CompareOptions = {},
): CompareResult {
  const keys = new KeySums(options.withoutCondition !== true);
  for (const page of left) sumLeft(keys, page);
  for (const page of right) sumRight(keys, page);
  return groupRows(keys.rows, options.prices === true);
}

function sumLeft(keys: KeySums, lines: readonly CompareLine[]): void {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as CompareLine;
    const acc = keys.of(l);
    const quantity = l[QUANTITY];
    const price = l[UNIT_PRICE_E4];
    acc.left += quantity;
    acc.n0 += 1;
    if (price !== null) {
      acc.v0 += quantity * price;
      acc.p0 += quantity;
    }
  }
}

function sumRight(keys: KeySums, lines: readonly CompareLine[]): void {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as CompareLine;
    const acc = keys.of(l);
    const quantity = l[QUANTITY];
    const price = l[UNIT_PRICE_E4];
    acc.right += quantity;
    acc.n1 += 1;
    if (price !== null) {
      acc.v1 += quantity * price;
      acc.p1 += quantity;
    }
  }
}

/**
 * The keys of both sides' lines, each with its running sums. Placed lines are keyed by number, then type,
 * colour and condition in a short chain per number (colour and condition as one small number): one look-up
 * a line, no key string built (at 400,000 lines, building and hashing key strings was most of the time).
 * Unplaced lines, a few, by their key string.
 */
class KeySums {
  private readonly placed = new Map<string, Acc>();
  private readonly unplaced = new Map<string, Acc>();
  /** The keys in the order they were first met. */
  readonly rows: Acc[] = [];

  constructor(private readonly withCondition: boolean) {}

  /**
   * The sums of `line`'s key. A key's objects are made when the key is first met, from that line's
   * columns: the other lines of the key make none.
   */
  of(line: CompareLine): Acc {
    const type = line[ITEM_TYPE];
    const no = line[ITEM_NO];
    const condition = this.withCondition ? line[CONDITION] : null;
    if (type === null || no === null) {
      const key = compareKey(line, this.withCondition);
      let acc = this.unplaced.get(key);
      if (acc === undefined) {
        const given: GivenLine = {
          type: line[GIVEN_TYPE],
          no: line[GIVEN_NO],
          name: line[GIVEN_NAME],
          colourId: line[GIVEN_COLOUR_ID],
          colourName: line[GIVEN_COLOUR_NAME],
        };
        this.unplaced.set(key, (acc = this.fresh(null, given, condition, 0, null)));
      }
      return acc;
    }
    const acc = this.placedAcc(line, type, no, condition);
    if (!acc.mixed && line[GIVEN_NO] !== null && this.speaks(line[DOCUMENT_FORMAT])) hear(acc, line, type);
    return acc;
  }

  private lastFormat: string | null = null;
  private lastSpeaks = false;

  /**
   * Whether a line's document speaks a numbering, its words then heard (`saidOf`): a plain CSV list says
   * nothing. Asked again only when the format changes from the line before (a side's lines come a
   * document at a time).
   */
  private speaks(format: string | null): boolean {
    if (format !== this.lastFormat) {
      this.lastFormat = format;
      this.lastSpeaks = numberingOfFormat(format ?? '') !== null;
    }
    return this.lastSpeaks;
  }

  private placedAcc(line: CompareLine, type: string, no: string, condition: Acc['condition']): Acc {
    const colour = line[COLOUR];
    const ck = ((colour ?? -1) + 1) * 3 + (condition === 'N' ? 1 : condition === 'U' ? 2 : 0);
    const first = this.placed.get(no);
    if (first === undefined) {
      const acc = this.fresh({ type, no, colour }, null, condition, ck, null);
      this.placed.set(no, acc);
      return acc;
    }
    for (let acc: Acc | null = first; acc !== null; acc = acc.next)
      if (acc.ck === ck && (acc.item as { type: string }).type === type) return acc;
    // Another colour, condition or type of a number met before: after the chain's first, which the map keeps.
    const acc = this.fresh({ type, no, colour }, null, condition, ck, first.next);
    first.next = acc;
    return acc;
  }

  private fresh(
    item: Acc['item'],
    given: GivenLine | null,
    condition: Acc['condition'],
    ck: number,
    next: Acc | null,
  ): Acc {
    const acc: Acc = {
      item,
      given,
      said: null,
      mixed: false,
      condition,
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
    this.rows.push(acc);
    return acc;
  }
}

/** What a placed line's document called its item, heard into its key's: kept while its lines agree. */
function hear(acc: Acc, line: CompareLine, type: string): void {
  const said = saidOf(
    line[DOCUMENT_FORMAT] ?? '',
    { type: line[GIVEN_TYPE], no: line[GIVEN_NO] },
    { type, by: line[PLACED_BY] },
  );
  if (said === null) return;
  if (acc.said === null) acc.said = said;
  else if (
    acc.said.numbering !== said.numbering ||
    (acc.said.no !== said.no && acc.said.no.toLowerCase() !== said.no.toLowerCase())
  ) {
    acc.said = null;
    acc.mixed = true;
  } else if (acc.said.byName && !said.byName) acc.said = said; // found by name only while every line was
}

/** The keys' sums finished into rows, sorted into the result's groups, with both sides' totals; `prices`: rows whose unit prices differ too. */
function groupRows(rows: readonly Acc[], prices: boolean): CompareResult {
  const groups = {
    onlyLeft: [] as PlacedRow[],
    onlyRight: [] as PlacedRow[],
    quantityDiffers: [] as PlacedRow[],
    same: [] as PlacedRow[],
    priceDiffers: [] as PlacedRow[],
    unplaced: [] as UnplacedRow[],
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
    // An accumulator is its row: a placed key's holds its item and no given, an unplaced key's the reverse.
    const done = row as unknown as CompareRow;
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
    if (done.item === null) {
      groups.unplaced.push(done);
      continue;
    }
    if (!onRight) groups.onlyLeft.push(done);
    else if (!onLeft) groups.onlyRight.push(done);
    else if (l !== r) groups.quantityDiffers.push(done);
    else groups.same.push(done);
    if (
      prices &&
      onLeft &&
      onRight &&
      row.leftUnitPriceE4 !== null &&
      row.rightUnitPriceE4 !== null &&
      row.leftUnitPriceE4 !== row.rightUnitPriceE4
    )
      groups.priceDiffers.push(done);
  }
  return { ...groups, totals: { ...totals, missingValueE4, extraValueE4 } };
}

/** Whether any of `lines` gives a condition: a side that gives none is compared without them (`withoutCondition`). */
export function givesConditions(lines: Iterable<CompareLine>): boolean {
  for (const l of lines) if (l[CONDITION] !== null) return true;
  return false;
}
