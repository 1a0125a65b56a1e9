/**
 * Compare (SPEC §13): two lists of lines matched by what they are after placement — (item type, item,
 * colour, condition) — with quantities summed per key on each side first. Lines unplaced on either side
 * are matched only with each other, by their given number (or folded name) and colour, and listed apart:
 * never silently matched with a placed line. A pure function of the two sides: nothing is read or written.
 * Money is exact: ten-thousandths of the currency unit, as the store keeps it.
 */
import { saidOf, type Said } from '../catalogue/item-numbers.ts';
import { COMPARE_GROUPS, type CompareGroup } from '../vocabulary/compare-kinds.ts';
import { numberingOfFormat } from '../vocabulary/numberings.ts';
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
  /** How many rows each group holds, known without making them. */
  readonly sizes: Readonly<Record<CompareGroup, number>>;
  /** Rows `from` to `from + count` of a group, made for the asking (a screen's page): the groups' arrays are made only when read. */
  rowsOf(group: CompareGroup, from: number, count: number): CompareRow[];
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
  for (const page of left) sumSide(keys, page, 0);
  for (const page of right) sumSide(keys, page, 1);
  return groupRows(keys.done(), options.prices === true);
}

// A key's sums, `SUMS` numbers a key in `KeySums.sums`: pieces on the left and the right; lines (a lot of
// 0 pieces is still a lot: real BrickStore files keep them), Σ quantity × price and Σ quantity of the
// priced lines, on each side.
const LEFT = 0;
const LINES = 2;
const VALUE = 4;
const PRICED = 6;
const SUMS = 8;

/** Adds a page's lines to their keys' sums, on the left (`side` 0) or the right (1). */
function sumSide(keys: KeySums, lines: readonly CompareLine[], side: 0 | 1): void {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as CompareLine;
    const at = keys.of(l) * SUMS + side;
    const sums = keys.sums; // after `of`, which may have grown it
    const quantity = l[QUANTITY];
    const price = l[UNIT_PRICE_E4];
    (sums[at + LEFT] as number) += quantity;
    (sums[at + LINES] as number) += 1;
    if (price !== null) {
      (sums[at + VALUE] as number) += quantity * price;
      (sums[at + PRICED] as number) += quantity;
    }
  }
}

/**
 * The keys of both sides' lines, each a number, its sums in one array of numbers and what names it in
 * arrays beside: no object is made for a key while the lines are summed (at 10,000 lines a side, making
 * an object a key as the lines came was a third of the compare), and only the rows read are ever made
 * (`groupRows`). Placed lines are keyed by number, then type, colour and condition in a short chain per
 * number (colour and condition as one small number): one look-up a line, no key string built. Unplaced
 * lines, a few, by their key string.
 */
class KeySums {
  private readonly placed = new Map<string, number>();
  private readonly unplaced = new Map<string, number>();

  /** Done summing: the look-ups go (a result is kept for its pages and exports; they are not). */
  done(): this {
    this.placed.clear();
    this.unplaced.clear();
    return this;
  }
  /** How many keys, numbered from 0 in the order first met. */
  size = 0;
  sums = new Float64Array(1024 * SUMS);
  private next = new Int32Array(1024);
  private ck = new Int32Array(1024);
  readonly type: string[] = [];
  /** A placed key's item number; an unplaced key's, null. */
  readonly no: (string | null)[] = [];
  readonly colour: (number | null)[] = [];
  readonly condition: ('N' | 'U' | null)[] = [];
  /** An unplaced key's first line's given values; a placed key's, null. */
  readonly given: (GivenLine | null)[] = [];
  /** What a placed key's lines' documents called the item, while they agree (`mixed` once they don't). */
  readonly said: (Said | null)[] = [];
  readonly mixed: boolean[] = [];

  constructor(private readonly withCondition: boolean) {}

  /** The number of `line`'s key, made when the key is first met, from that line's columns. */
  of(line: CompareLine): number {
    const type = line[ITEM_TYPE];
    const no = line[ITEM_NO];
    const condition = this.withCondition ? line[CONDITION] : null;
    if (type === null || no === null) {
      const key = compareKey(line, this.withCondition);
      let k = this.unplaced.get(key);
      if (k === undefined) {
        const given: GivenLine = {
          type: line[GIVEN_TYPE],
          no: line[GIVEN_NO],
          name: line[GIVEN_NAME],
          colourId: line[GIVEN_COLOUR_ID],
          colourName: line[GIVEN_COLOUR_NAME],
        };
        this.unplaced.set(key, (k = this.fresh(line[GIVEN_TYPE] ?? '', null, null, condition, given, 0)));
      }
      return k;
    }
    const k = this.placedKey(line, type, no, condition);
    if (this.mixed[k] === false && line[GIVEN_NO] !== null && this.speaks(line[DOCUMENT_FORMAT]))
      this.hear(k, line, type);
    return k;
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

  private placedKey(line: CompareLine, type: string, no: string, condition: 'N' | 'U' | null): number {
    const colour = line[COLOUR];
    const ck = ((colour ?? -1) + 1) * 3 + (condition === 'N' ? 1 : condition === 'U' ? 2 : 0);
    const first = this.placed.get(no);
    if (first === undefined) {
      const k = this.fresh(type, no, colour, condition, null, ck);
      this.placed.set(no, k);
      return k;
    }
    for (let k = first; k !== -1; k = this.next[k] as number) if (this.ck[k] === ck && this.type[k] === type) return k;
    // Another colour, condition or type of a number met before: after the chain's first, which the map keeps.
    const k = this.fresh(type, no, colour, condition, null, ck);
    this.next[k] = this.next[first] as number;
    this.next[first] = k;
    return k;
  }

  private fresh(
    type: string,
    no: string | null,
    colour: number | null,
    condition: 'N' | 'U' | null,
    given: GivenLine | null,
    ck: number,
  ): number {
    const k = this.size++;
    if (k === this.ck.length) this.grow();
    this.next[k] = -1;
    this.ck[k] = ck;
    this.type.push(type);
    this.no.push(no);
    this.colour.push(colour);
    this.condition.push(condition);
    this.given.push(given);
    this.said.push(null);
    this.mixed.push(false);
    return k;
  }

  private grow(): void {
    const n = this.ck.length * 2;
    const sums = new Float64Array(n * SUMS);
    sums.set(this.sums);
    this.sums = sums;
    const next = new Int32Array(n);
    next.set(this.next);
    this.next = next;
    const ck = new Int32Array(n);
    ck.set(this.ck);
    this.ck = ck;
  }

  /** What a placed line's document called its item, heard into its key's: kept while its lines agree. */
  private hear(k: number, line: CompareLine, type: string): void {
    const said = saidOf(
      line[DOCUMENT_FORMAT] ?? '',
      { type: line[GIVEN_TYPE], no: line[GIVEN_NO] },
      { type, by: line[PLACED_BY] },
    );
    if (said === null) return;
    const before = this.said[k] ?? null;
    if (before === null) this.said[k] = said;
    else if (
      before.numbering !== said.numbering ||
      (before.no !== said.no && before.no.toLowerCase() !== said.no.toLowerCase())
    ) {
      this.said[k] = null;
      this.mixed[k] = true;
    } else if (before.byName && !said.byName) this.said[k] = said; // found by name only while every line was
  }

  /** Key `k` as its row: its sums and what it is, one object with the fields the row types name. */
  row(k: number): CompareRow {
    const at = k * SUMS;
    const s = this.sums;
    const left = s[at + LEFT] as number;
    const right = s[at + LEFT + 1] as number;
    const p0 = s[at + PRICED] as number;
    const p1 = s[at + PRICED + 1] as number;
    const no = this.no[k] ?? null;
    const placed = no !== null;
    const row = {
      condition: this.condition[k] ?? null,
      left,
      right,
      difference: right - left,
      leftUnitPriceE4: p0 === 0 ? null : Math.round((s[at + VALUE] as number) / p0),
      rightUnitPriceE4: p1 === 0 ? null : Math.round((s[at + VALUE + 1] as number) / p1),
      item: placed ? { type: this.type[k] as string, no, colour: this.colour[k] ?? null } : null,
      given: placed ? null : (this.given[k] as GivenLine),
      said: placed ? (this.said[k] ?? null) : null,
    };
    return row as CompareRow;
  }
}

/**
 * The keys' sums sorted into the result's groups — each group the keys' numbers, its rows made when it is
 * read (`rowsOf` makes a page's) —, with both sides' totals; `prices`: rows whose unit prices differ too.
 */
function groupRows(keys: KeySums, prices: boolean): CompareResult {
  const groups: Record<CompareGroup, number[]> = {
    onlyLeft: [],
    onlyRight: [],
    quantityDiffers: [],
    same: [],
    priceDiffers: [],
    unplaced: [],
  };
  const totals = { left: { lots: 0, pieces: 0 }, right: { lots: 0, pieces: 0 }, missing: 0, extra: 0 };
  let missingValueE4 = 0;
  let extraValueE4 = 0;
  const s = keys.sums;
  const unit = (at: number, side: 0 | 1) => {
    const priced = s[at + PRICED + side] as number;
    return priced === 0 ? null : Math.round((s[at + VALUE + side] as number) / priced);
  };
  for (let k = 0; k < keys.size; k++) {
    const at = k * SUMS;
    const l = s[at + LEFT] as number;
    const r = s[at + LEFT + 1] as number;
    const onLeft = (s[at + LINES] as number) > 0;
    const onRight = (s[at + LINES + 1] as number) > 0;
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
      missingValueE4 += (l - r) * (unit(at, 0) ?? unit(at, 1) ?? 0);
    } else if (r > l) {
      totals.extra += r - l;
      extraValueE4 += (r - l) * (unit(at, 1) ?? unit(at, 0) ?? 0);
    }
    if (keys.no[k] === null) {
      groups.unplaced.push(k);
      continue;
    }
    if (!onRight) groups.onlyLeft.push(k);
    else if (!onLeft) groups.onlyRight.push(k);
    else if (l !== r) groups.quantityDiffers.push(k);
    else groups.same.push(k);
    if (prices && onLeft && onRight) {
      const a = unit(at, 0);
      const b = unit(at, 1);
      if (a !== null && b !== null && a !== b) groups.priceDiffers.push(k);
    }
  }
  const sizes = Object.fromEntries(COMPARE_GROUPS.map((g) => [g, groups[g].length])) as Record<CompareGroup, number>;
  const result = {
    sizes,
    rowsOf: (group: CompareGroup, from: number, count: number) =>
      groups[group].slice(from, from + count).map((k) => keys.row(k)),
    totals: { ...totals, missingValueE4, extraValueE4 },
  };
  // Each group's rows made once, when first read (an export, a test); a screen's page asks `rowsOf`.
  for (const g of COMPARE_GROUPS)
    Object.defineProperty(result, g, {
      enumerable: true,
      configurable: true,
      get() {
        const rows = groups[g].map((k) => keys.row(k));
        Object.defineProperty(result, g, { value: rows, enumerable: true });
        return rows;
      },
    });
  return result as unknown as CompareResult;
}

/** Whether any of `lines` gives a condition: a side that gives none is compared without them (`withoutCondition`). */
export function givesConditions(lines: Iterable<CompareLine>): boolean {
  for (const l of lines) if (l[CONDITION] !== null) return true;
  return false;
}
