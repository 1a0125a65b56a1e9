import type { ReadableDb } from '../store/db.ts';
import { shownTime } from '../platform/clock.ts';
import { catalogueName, lineNumbers, NUMBERING_NAMES, saidOf, type NumberedLine } from '../catalogue/item-numbers.ts';
import { numberingOfFormat } from '../vocabulary/numberings.ts';
import { remarksToWrite } from '../placement/rule.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import {
  needsAcknowledging,
  NO_NUMBER_CODES,
  type ExportTarget,
  type LeftOutLine,
  type LeftOutReason,
  type SharedNumberLine,
} from '../vocabulary/export-kinds.ts';
import { DEFAULT_ITEM_TYPE } from '../vocabulary/item-types.ts';
import { colourIdsFromBrickLink } from '../store/item-numbers.ts';
import { documentsOfOrder } from '../store/documents.ts';
import { orderLines, type LineView } from '../store/lines.ts';
import { orderSummary } from '../store/orders.ts';

/**
 * What an export of an order writes, and what it leaves out (SPEC §8 Exports): every saved line is either
 * a row in the target's numbering or a line left out with its reason. Never a number of another numbering
 * under the target's name.
 */

export interface ExportRow {
  readonly line: number;
  readonly type: string;
  readonly no: string;
  /** The colour in the target's ids; null: the item has none. */
  readonly colour: number | null;
  readonly quantity: number;
  readonly unitPriceE4: number | null;
  readonly condition: 'N' | 'U' | null;
  /** The document's own remarks, without what the readers noted for themselves (`remarksToWrite`). */
  readonly remarks: string | null;
  /** The description a BrickLink order gave the lot (its `DESCRIPTION`), to go back as one. */
  readonly description: string | null;
}

/**
 * A unit price as BrickLink takes it (issue 64 §4): in thousandths of the currency (ten-thousandths
 * rounded, half up), as ten-thousandths; null where there is none, or none left once rounded: a lot is
 * never written at 0, which BrickLink's upload refuses (a set's inventory gives no prices at all).
 */
export function bricklinkPriceE4(e4: number | null): number | null {
  if (e4 === null) return null;
  const rounded = Math.round(e4 / 10) * 10;
  return rounded > 0 ? rounded : null;
}

export interface ExportPlan {
  readonly target: ExportTarget;
  readonly rows: readonly ExportRow[];
  readonly leftOut: readonly LeftOutLine[];
  /** Rows written under a number that names more than one catalogue item; each row's remarks say which. */
  readonly shared: readonly SharedNumberLine[];
}

/**
 * What a lot's remarks say of a number that names several catalogue items: which one it is
 * (`Rebrickable 3048b, not 3048c`), after its own remarks.
 */
export function sharedRemark(remarks: string | null, item: string, others: readonly string[]): string {
  const numbering = item.slice(0, item.lastIndexOf(' ') + 1);
  const not = others.map((o) => (numbering !== '' && o.startsWith(numbering) ? o.slice(numbering.length) : o));
  const which = `${item}, not ${someOf(not, 3)}`;
  return remarks === null || remarks.trim() === '' ? which : `${remarks} · ${which}`;
}

/** `a or b`, `a, b or c`; past `max`, the first of them and how many more (`a, b, c or 38 others`). */
function someOf(names: readonly string[], max: number): string {
  const shown = names.length > max ? [...names.slice(0, max), `${names.length - max} others`] : names;
  return shown.length < 2 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1) ?? ''}`;
}

/** What an export wrote under numbers that name several items, in one sentence; null when nothing. */
export function sharedNote(
  shared: readonly SharedNumberLine[],
  target: ExportTarget,
  unit: 'line' | 'lot' = 'line',
): string | null {
  if (shared.length === 0) return null;
  const n = shared.length;
  const numbers = new Map<string, Set<string>>();
  for (const s of shared) {
    const names = numbers.get(s.no.toLowerCase()) ?? new Set<string>();
    for (const item of [s.item, ...s.others]) names.add(item);
    numbers.set(s.no.toLowerCase(), names);
  }
  const listed = [...numbers].slice(0, 5).map(([no, items]) => `${no}: ${someOf([...items], 4)}`);
  const which = `${listed.join('; ')}${numbers.size > 5 ? `; and ${numbers.size - 5} more numbers` : ''}`;
  const said =
    target === 'bricklink' ? `each one's remarks say which it is` : `which Rebrickable's part list can't tell apart`;
  return `${n} ${unit}${n === 1 ? ' goes' : 's go'} under a ${NUMBERING_NAMES[target]} number that names more than one catalogue item, ${said} (${which}).`;
}

export function leftOutText(reason: LeftOutReason, target: ExportTarget, detail = ''): string {
  const name = NUMBERING_NAMES[target];
  switch (reason) {
    case 'unplaced':
      return `not placed${detail}`;
    case 'no-number':
      return `${name} has no known number for this item (no loaded table gives one)`;
    case 'no-colour-number':
      return `${name} has no known id for this colour`;
    case 'not-a-part':
      return `${name}'s part lists hold parts only`;
    case 'no-quantity':
      return `0 pieces: ${name} lists no lot of none`;
    case 'no-lot-id':
      return `its stock lot has no ${name} lot id (the stock was imported from a file without one), and a Mass Update names a lot by it`;
  }
}

function whatOf(l: LineView): string {
  const item = l.placed;
  const type = item?.type ?? l.given.type ?? DEFAULT_ITEM_TYPE;
  const no = item?.no ?? l.given.no ?? '';
  const name = item?.name ?? l.given.name ?? '';
  const colour =
    // BrickLink's colour 0 is "(Not Applicable)": no colour to name.
    item?.colourName ??
    l.given.colourName ??
    (l.given.colourId === null || l.given.colourId === 0 ? null : `colour ${l.given.colourId}`);
  return [`${type} ${no}`.trim(), name, colour === null ? '' : `(${colour})`].filter((s) => s !== '').join(' ');
}

/** The refusal of an order that is wholly taken back: it has nothing to export (SPEC §8). */
function refuseUndone(db: ReadableDb, orderId: number): void {
  const order = orderSummary(db, orderId);
  if (order.state === 'undone') {
    throw new BrickWorkError(
      'already-undone',
      `Order ${quote(order.reference)} (#${order.id}) was taken back on ${shownTime(order.undoneAt)}: none of its documents is imported, so there is nothing to export. Import the file again to revive it.`,
    );
  }
}

/**
 * An order's saved lines as an export to `target` writes them: a placed line under its number in the
 * target's numbering by the one rule the screens show it by (`lineNumber`), and where that number names
 * more than one catalogue item, with remarks that say which. `includeUnplaced`: an unplaced line whose
 * document speaks the target's numbering goes as the document gave it.
 */
export function planOrderExport(
  db: ReadableDb,
  orderId: number,
  target: ExportTarget,
  options: { includeUnplaced?: boolean } = {},
): ExportPlan {
  refuseUndone(db, orderId);
  const formats = new Map(documentsOfOrder(db, orderId).map((d) => [d.id, d.format]));
  const lines = orderLines(db, orderId);
  const numberedOf = (l: LineView & { placed: NonNullable<LineView['placed']> }): NumberedLine => ({
    type: l.placed.type,
    no: l.placed.no,
    said: saidOf(formats.get(l.documentId) ?? '', l.given, l.placed),
  });
  const numbered = new Map(
    lines.flatMap((l) => (l.placed === null ? [] : [[l.id, numberedOf({ ...l, placed: l.placed })]])),
  );
  const numbers = lineNumbers(db, target, [...numbered.values()]);
  const colours =
    target === 'rebrickable'
      ? colourIdsFromBrickLink(
          db,
          'rebrickable',
          lines.flatMap((l) => (l.placed?.colour == null ? [] : [l.placed.colour])),
        )
      : null;
  const rows: ExportRow[] = [];
  const leftOut: LeftOutLine[] = [];
  const shared: SharedNumberLine[] = [];
  const where = (l: LineView) => `${l.documentKey} #${l.position}`;
  const leave = (l: LineView, reason: LeftOutReason, detail = '') =>
    leftOut.push({
      line: l.id,
      where: where(l),
      what: whatOf(l),
      quantity: l.quantity,
      reason,
      text: leftOutText(reason, target, detail),
    });
  /**
   * Writes `l` as a row, unless BrickLink takes no such lot; whether it was written. `shared`: the number
   * names other catalogue items too, and its remarks say which it is.
   */
  const row = (
    l: LineView,
    type: string,
    no: string,
    colour: number | null,
    shared?: { readonly item: string; readonly others: readonly string[] },
  ) => {
    // BrickLink takes no lot of 0 pieces: it is left out, and said (issue 64 §4).
    if (target === 'bricklink' && l.quantity === 0) {
      leave(l, 'no-quantity');
      return false;
    }
    // What goes back is the document's own words: the readers' notes stay here (issue 64 §4).
    const own = remarksToWrite(l.remarks);
    rows.push({
      line: l.id,
      type,
      no,
      colour,
      quantity: l.quantity,
      unitPriceE4: target === 'bricklink' ? bricklinkPriceE4(l.unitPriceE4) : l.unitPriceE4,
      condition: l.condition,
      remarks: shared === undefined ? own.remarks : sharedRemark(own.remarks, shared.item, shared.others),
      description: own.description,
    });
    return true;
  };

  for (const l of lines) {
    const ownWord = numberingOfFormat(formats.get(l.documentId) ?? '') === target;
    const givenType = l.given.type?.trim().toUpperCase() || DEFAULT_ITEM_TYPE;
    const givenNo = l.given.no?.trim() || null;
    const n = numbered.get(l.id);
    if (l.placed === null || n === undefined) {
      if (!options.includeUnplaced) leave(l, 'unplaced');
      else if (!ownWord)
        leave(l, 'unplaced', `, and its document does not speak ${NUMBERING_NAMES[target]}'s numbering`);
      else if (givenNo === null) leave(l, 'unplaced', ', and it gives no number');
      else if (target === 'rebrickable' && givenType !== 'P') leave(l, 'not-a-part');
      else row(l, givenType, givenNo, l.given.colourId);
      continue;
    }
    const p = l.placed;
    const { no, sharedWith } = numbers.get(n);
    if (target === 'rebrickable' && p.type !== 'P') leave(l, 'not-a-part');
    else if (no === null) leave(l, 'no-number');
    else {
      // BrickLink's ids are the catalogue's own; null there is "no colour" (written as 0).
      const colour = colours === null ? p.colour : rebrickableColour(colours, p.colour);
      if (colours !== null && colour === null) {
        leave(l, 'no-colour-number');
        continue;
      }
      if (sharedWith.length === 0) row(l, p.type, no, colour);
      else {
        // BrickLink's lot never goes under a number two catalogue items share without saying which.
        const item = catalogueName({ no: p.no, catalogue: numbers.numbers.get(p.type, p.no).catalogue });
        if (row(l, p.type, no, colour, { item, others: sharedWith }))
          shared.push({ line: l.id, where: where(l), no, quantity: l.quantity, item, others: sharedWith });
      }
    }
  }
  return { target, rows, leftOut, shared };
}

/** Rebrickable's colour for "no colour, any colour". */
const REBRICKABLE_NO_COLOUR = 9999;

/**
 * A BrickLink colour as Rebrickable numbers it: the colour table's Rebrickable id (the lowest where it
 * gives several); 9999, "[No Color/Any Color]", for none; null where the table gives none.
 */
export function rebrickableColour(
  table: ReadonlyMap<number, readonly number[]>,
  bricklinkId: number | null,
): number | null {
  return bricklinkId === null ? REBRICKABLE_NO_COLOUR : (table.get(bricklinkId)?.[0] ?? null);
}

/**
 * Refuses an export that would leave out lines its target does not number, until acknowledged
 * (`needs-acknowledgement`, naming the code to accept and the first lines).
 */
export function refuseUnacknowledged(
  plan: Pick<ExportPlan, 'target' | 'leftOut'>,
  accepted: readonly string[],
  unit: 'line' | 'lot' = 'line',
): void {
  const code = NO_NUMBER_CODES[plan.target];
  const unnumbered = plan.leftOut.filter((l) => needsAcknowledging(l.reason));
  if (unnumbered.length === 0 || accepted.includes(code)) return;
  const name = NUMBERING_NAMES[plan.target];
  const n = unnumbered.length;
  const shown = unnumbered
    .slice(0, 5)
    .map((l) => `${l.what} (${l.where}): ${l.reason === 'no-number' ? 'no known number' : 'no known colour id'}`)
    .join('; ');
  const more = n > 5 ? `; and ${n - 5} more` : '';
  const tables =
    plan.target === 'bricklink'
      ? "BrickLink's catalogue or codes, Rebrickable's cross-references"
      : "Rebrickable's parts, elements or cross-references, its colour list";
  throw new BrickWorkError(
    'needs-acknowledgement',
    `${n} ${unit}${n === 1 ? '' : 's'} can't be written in ${name}'s numbering, and brick-work never writes another numbering's in its place: ${shown}${more}. ` +
      `Load a table that gives ${name}'s (${tables}), fix ${n === 1 ? 'it' : 'them'} by hand, ` +
      `or acknowledge that ${n === 1 ? 'it is' : 'they are'} left out (${code}; on the command line: --accept ${code}).`,
  );
}

/** What an export left out, in one sentence for the screen's notice and the CLI's text; null when nothing. */
export function leftOutNote(leftOut: readonly LeftOutLine[], unit: 'line' | 'lot' = 'line'): string | null {
  if (leftOut.length === 0) return null;
  const counts = new Map<string, number>();
  for (const l of leftOut) counts.set(l.reason, (counts.get(l.reason) ?? 0) + 1);
  const words: Record<LeftOutReason, string> = {
    unplaced: 'not placed',
    'no-number': 'without a known number',
    'no-colour-number': 'without a known colour id',
    'not-a-part': 'not parts',
    'no-quantity': 'of 0 pieces',
    'no-lot-id': 'into a lot without a BrickLink lot id',
  };
  const parts = [...counts].map(([reason, n]) => `${n} ${words[reason as LeftOutReason]}`);
  return `${leftOut.length} ${unit}${leftOut.length === 1 ? ' is' : 's are'} left out (${parts.join(', ')}).`;
}

/**
 * What a BrickLink upload will ask of the lots written without a price (issue 64 §4), in one sentence; null
 * when every lot has one, or the target is not BrickLink's. Its verification asks a price of each before
 * anything is listed; 0.00 it refuses, so none is made up here.
 */
export function unpricedNote(
  prices: readonly (number | null)[],
  target: ExportTarget,
  unit: 'line' | 'lot' = 'lot',
): string | null {
  const n = prices.filter((p) => p === null).length;
  if (n === 0 || target !== 'bricklink') return null;
  const all = n === prices.length;
  return `${all ? (n === 1 ? 'Its' : `All ${n}`) : n} ${unit}${n === 1 ? '' : 's'} ${n === 1 ? 'has' : 'have'} no price: BrickLink's mass upload asks a price of each before it lists ${n === 1 ? 'it' : 'them'} (a wanted list needs none).`;
}
