/**
 * Marking a pick list's entries picked (SPEC §16): each mark, and each taking back, is one undo step of
 * the desk that made it. A mark is absolute — how many of the entry's pieces are picked, set, never
 * added — and an entry has one row whichever desk marks it, so two desks never double-count. The entry
 * is looked for in the walk as it is now, inside the write: one the walk no longer has is refused.
 */
import { isoNow, type Clock } from '../platform/clock.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import type { LineView } from '../store/lines.ts';
import { pickMarkOf, pickMarksOfOrder, type PickMarkRow } from '../store/pick-marks.ts';
import type { WriteSession } from '../store/session.ts';
import { recordStepWithInfo, type StepInfo } from '../undo/history.ts';
import { orderPick, type OrderPick } from './pick-list.ts';
import type { PickEntry } from './types.ts';

/** What a mark's step did: the pick list as it stands after it (marks read again), and the entry. */
export interface Marked {
  readonly step: StepInfo;
  readonly pick: OrderPick;
  readonly marks: readonly PickMarkRow[];
  readonly entry: PickEntry;
}

/** How a step's label names an entry's item: the number as the shop reads it (the caller's numbering). */
export type ShownItem = (entry: PickEntry, line: LineView) => string;

function entryOf(pick: OrderPick, key: string): PickEntry {
  const entry = pick.plan.entries.find((e) => e.key === key);
  if (entry === undefined)
    throw new BrickWorkError(
      'not-found',
      `The pick list of order ${pick.order.reference} has no entry ${quote(key)} now: the order or the stock changed since it was shown. Look at the list again.`,
    );
  return entry;
}

function lineOf(pick: OrderPick, entry: PickEntry): LineView {
  const line = pick.lines.get(entry.line);
  if (line === undefined) throw new Error(`the walk's line ${entry.line} is not a line of the order`);
  return line;
}

const from = (e: PickEntry) =>
  e.location === null || e.location.trim() === '' ? '(no location)' : `from ${e.location}`;

/**
 * Sets entry `key` of order `orderId`'s pick list to `picked` pieces picked (1 to its take), as this
 * `session`'s desk: one undo step ("Pick 4 × 3001 from A10").
 */
export function markPicked(
  session: WriteSession,
  clock: Clock,
  args: { readonly orderId: number; readonly key: string; readonly picked: number },
  shown: ShownItem,
): Marked {
  const { db, desk } = session;
  const { value, step } = recordStepWithInfo(session, clock, (rec) => {
    const pick = orderPick(db, args.orderId);
    const entry = entryOf(pick, args.key);
    if (!Number.isInteger(args.picked) || args.picked < 1 || args.picked > entry.take)
      throw new BrickWorkError(
        'invalid-argument',
        entry.take === 1
          ? `Only 1 piece is taken from this lot: mark 1 picked, or take the mark back.`
          : `${entry.take} pieces are taken from this lot: mark 1 to ${entry.take} picked (not ${args.picked}), or take the mark back.`,
      );
    const values = { picked: args.picked, desk, marked_at: isoNow(clock) };
    const now = pickMarkOf(db, args.orderId, args.key);
    if (now === null) rec.insert('pick_mark', { order_id: args.orderId, entry_key: args.key, ...values });
    else rec.update('pick_mark', now.id, values, { picked: now.picked, desk: now.desk, marked_at: now.markedAt });
    return {
      value: { pick, entry },
      kind: 'pick-mark',
      label: `Pick ${args.picked} × ${shown(entry, lineOf(pick, entry))} ${from(entry)}`,
    };
  });
  return { step, pick: value.pick, entry: value.entry, marks: pickMarksOfOrder(db, args.orderId) };
}

/**
 * Takes entry `key`'s mark back (picked 0; the row stays, so that Undo sets it back as it was): one undo
 * step. An entry not marked is refused in words: there is nothing to take back.
 */
export function unmarkPicked(
  session: WriteSession,
  clock: Clock,
  args: { readonly orderId: number; readonly key: string },
  shown: ShownItem,
): Marked {
  const { db, desk } = session;
  const { value, step } = recordStepWithInfo(session, clock, (rec) => {
    const pick = orderPick(db, args.orderId);
    const entry = entryOf(pick, args.key);
    const now = pickMarkOf(db, args.orderId, args.key);
    if (now === null || now.picked === 0)
      throw new BrickWorkError(
        'invalid-argument',
        `${shown(entry, lineOf(pick, entry))} ${from(entry)} is not marked picked: there is no mark to take back.`,
      );
    rec.update(
      'pick_mark',
      now.id,
      { picked: 0, desk, marked_at: isoNow(clock) },
      { picked: now.picked, desk: now.desk, marked_at: now.markedAt },
    );
    return {
      value: { pick, entry },
      kind: 'pick-mark',
      label: `Take back the pick of ${shown(entry, lineOf(pick, entry))} ${from(entry)}`,
    };
  });
  return { step, pick: value.pick, entry: value.entry, marks: pickMarksOfOrder(db, args.orderId) };
}
