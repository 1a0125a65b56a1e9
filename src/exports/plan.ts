import type { ReadableDb } from '../store/db.ts';
import { shownTime } from '../clock.ts';
import { itemNumbers, NUMBERING_NAMES } from '../catalogue/item-numbers.ts';
import type { DocumentFormat } from '../documents/model.ts';
import { BrickWorkError, quote } from '../errors.ts';
import {
  needsAcknowledging,
  NO_NUMBER_CODES,
  type ExportTarget,
  type LeftOutLine,
  type LeftOutReason,
} from '../export-kinds.ts';
import { DEFAULT_ITEM_TYPE } from '../item-types.ts';
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
  readonly remarks: string | null;
}

export interface ExportPlan {
  readonly target: ExportTarget;
  readonly rows: readonly ExportRow[];
  readonly leftOut: readonly LeftOutLine[];
}

/** Which item numbering a document's format speaks; null for a CSV list, whose columns may be anyone's. */
export function documentNumbering(format: string): ExportTarget | null {
  const bricklink: readonly DocumentFormat[] = [
    'bricklink-order',
    'bricklink-order-csv',
    'bricklink-xml',
    'brickstore',
    'brickstock',
  ];
  return (bricklink as readonly string[]).includes(format) ? 'bricklink' : null;
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
 * An order's saved lines as an export to `target` writes them. A placed line is written under its item's
 * number in the target's numbering (SPEC §5); a line the placement rule placed from a number its own
 * document gave in the target's numbering keeps that number (the document's word for it — a hand fix or a
 * remembered one says the item, not the number). `includeUnplaced`: an unplaced line whose document speaks
 * the target's numbering goes as the document gave it.
 */
export function planOrderExport(
  db: ReadableDb,
  orderId: number,
  target: ExportTarget,
  options: { includeUnplaced?: boolean } = {},
): ExportPlan {
  refuseUndone(db, orderId);
  const speaks = new Map(documentsOfOrder(db, orderId).map((d) => [d.id, documentNumbering(d.format)]));
  const lines = orderLines(db, orderId);
  const placed = lines.flatMap((l) => (l.placed === null ? [] : [l.placed]));
  const numbers = itemNumbers(db, placed);
  const colours =
    target === 'rebrickable'
      ? colourIdsFromBrickLink(
          db,
          'rebrickable',
          placed.flatMap((p) => (p.colour === null ? [] : [p.colour])),
        )
      : null;
  const rows: ExportRow[] = [];
  const leftOut: LeftOutLine[] = [];
  const leave = (l: LineView, reason: LeftOutReason, detail = '') =>
    leftOut.push({
      line: l.id,
      where: `${l.documentKey} #${l.position}`,
      what: whatOf(l),
      quantity: l.quantity,
      reason,
      text: leftOutText(reason, target, detail),
    });
  const row = (l: LineView, type: string, no: string, colour: number | null) =>
    rows.push({
      line: l.id,
      type,
      no,
      colour,
      quantity: l.quantity,
      unitPriceE4: l.unitPriceE4,
      condition: l.condition,
      remarks: l.remarks,
    });

  for (const l of lines) {
    const ownWord = speaks.get(l.documentId) === target;
    const givenType = l.given.type?.trim().toUpperCase() || DEFAULT_ITEM_TYPE;
    const givenNo = l.given.no?.trim() || null;
    if (l.placed === null) {
      if (!options.includeUnplaced) leave(l, 'unplaced');
      else if (!ownWord)
        leave(l, 'unplaced', `, and its document does not speak ${NUMBERING_NAMES[target]}'s numbering`);
      else if (givenNo === null) leave(l, 'unplaced', ', and it gives no number');
      else if (target === 'rebrickable' && givenType !== 'P') leave(l, 'not-a-part');
      else row(l, givenType, givenNo, l.given.colourId);
      continue;
    }
    const p = l.placed;
    if (target === 'rebrickable' && p.type !== 'P') {
      leave(l, 'not-a-part');
      continue;
    }
    const auto = p.by === 'number' || p.by === 'name';
    const no =
      ownWord && auto && givenNo !== null && givenType === p.type ? givenNo : numbers.get(p.type, p.no)[target];
    if (no === null) {
      leave(l, 'no-number');
      continue;
    }
    if (colours === null) {
      row(l, p.type, no, p.colour);
      continue;
    }
    const colour = rebrickableColour(colours, p.colour);
    if (colour === null) leave(l, 'no-colour-number');
    else row(l, p.type, no, colour);
  }
  return { target, rows, leftOut };
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
  };
  const parts = [...counts].map(([reason, n]) => `${n} ${words[reason as LeftOutReason]}`);
  return `${leftOut.length} ${unit}${leftOut.length === 1 ? ' is' : 's are'} left out (${parts.join(', ')}).`;
}
