/** The pick list of an order going out (SPEC §16): its walk against the stock, its marks, on paper. */
import { saidOf, type NumberedLine } from '../../catalogue/item-numbers.ts';
import { BrickWorkError } from '../../errors.ts';
import { orderPick, shortfallText, type OrderPick } from '../../stock/pick-list.ts';
import { pickProgress, pickProgressText } from '../../stock/pick-plan.ts';
import type { PickMark, PickProgress, Shortfall } from '../../stock/types.ts';
import type { LineView } from '../../store/lines.ts';
import type { PickEntryView, PickListView, PickProgressView, ShortfallView, StockItemView } from '../contract.ts';
import { reads, writes, type PartialCallTable, type ReadDeps } from './define.ts';

/** A mark as the views read it: how many, and the desk that set it. */
export interface MarkSeen extends PickMark {
  readonly desk: string | null;
}

/** The lines' items as staff read them: each number in the shop numbering, the catalogue's name and colour. */
function itemViews(d: ReadDeps, pick: OrderPick): (line: number) => StockItemView {
  const numbered = new Map<number, NumberedLine>();
  for (const l of pick.lines.values())
    if (l.placed !== null)
      numbered.set(l.id, { type: l.placed.type, no: l.placed.no, said: saidOf(l.documentFormat, l.given, l.placed) });
  const shown = d.numberShower([...numbered.values()]);
  return (line) => {
    const l = pick.lines.get(line);
    const n = numbered.get(line);
    if (l === undefined || l.placed === null || n === undefined)
      throw new Error(`line ${line} is not a placed line of the order`);
    return itemView(l, l.placed, shown(n).shown);
  };
}

function itemView(l: LineView, p: NonNullable<LineView['placed']>, shown: string): StockItemView {
  const colourName =
    p.colourName ??
    (p.colour !== null && p.colour === l.given.colourId ? l.given.colourName : null) ??
    `colour ${p.colour}`;
  return {
    type: p.type,
    no: p.no,
    shown,
    name: p.name,
    colour: p.colour === null ? null : { id: p.colour, name: colourName },
  };
}

const shortfallView = (s: Shortfall, ordered: number): ShortfallView => ({
  kind: s.kind,
  missing: s.missing,
  text: shortfallText(s, ordered),
});

export const progressView = (p: PickProgress): PickProgressView => ({ ...p, text: pickProgressText(p) });

/** The pick list as the contract shows it, with the marks given (every desk's). */
export function pickListView(d: ReadDeps, pick: OrderPick, marks: readonly MarkSeen[]): PickListView {
  const item = itemViews(d, pick);
  const byKey = new Map(marks.map((m) => [m.key, m]));
  const entries: PickEntryView[] = pick.plan.entries.map((e) => {
    const m = byKey.get(e.key);
    return {
      key: e.key,
      line: e.line,
      position: e.position,
      where: e.where,
      item: item(e.line),
      condition: e.condition,
      location: e.location,
      lot: e.lot,
      lotId: e.lotId,
      inLot: e.inLot,
      ordered: e.ordered,
      take: e.take,
      short: e.short === null ? null : shortfallView(e.short, e.ordered),
      picked: m === undefined ? 0 : Math.min(e.take, Math.max(0, m.picked)),
      pickedBy: m === undefined || m.picked <= 0 ? null : m.desk,
    };
  });
  return {
    order: pick.order,
    stock: { ...pick.stock },
    entries,
    missing: pick.plan.missing.map((m) => ({
      line: m.line,
      position: m.position,
      where: m.where,
      what: m.what,
      quantity: m.quantity,
      item: item(m.line),
      short: shortfallView(m.short, m.quantity),
    })),
    nothingAsked: pick.plan.nothingAsked.map((n) => ({ ...n })),
    unplaced: pick.plan.unplaced.map((u) => ({ ...u })),
    progress: progressView(pickProgress(pick.plan.entries, marks)),
  };
}

const notYet = (_pick: OrderPick): never => {
  throw new BrickWorkError('internal', 'Not built yet (issue 65 §2, under way on branch i65-pick).');
};

export const PICK_CALLS = {
  'pick.list': reads(
    (d) =>
      ({ orderId }) =>
        pickListView(d, orderPick(d.db, orderId), []),
  ),
  // A step (issue 65 §2): refused as pick.list is (no stock, no order, the stock's own); built next.
  'pick.mark': writes(
    (d) =>
      ({ orderId }) =>
        notYet(orderPick(d.db, orderId)),
  ),
  'pick.unmark': writes(
    (d) =>
      ({ orderId }) =>
        notYet(orderPick(d.db, orderId)),
  ),
  'pick.printable': reads(
    (d) =>
      ({ orderId }) =>
        notYet(orderPick(d.db, orderId)),
  ),
} satisfies PartialCallTable;
