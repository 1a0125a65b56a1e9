/** The pick list of an order going out (SPEC §16): its walk against the stock, its marks, on paper. */
import { numberedSavedLine } from '../../catalogue/item-numbers.ts';
import { pictureKey, pictureSources } from '../../pictures/address.ts';
import { orderPick, shortfallText, type OrderPick } from '../../stock/pick-list.ts';
import { markPicked, unmarkPicked, type Marked, type ShownItem } from '../../stock/pick-marks.ts';
import { pickProgress, pickProgressText } from '../../stock/pick-plan.ts';
import { printableHtml } from '../../stock/print/html.ts';
import { printablePdf } from '../../stock/print/pdf.ts';
import type { PickMark, PickProgress, Shortfall } from '../../stock/types.ts';
import { pickMarksOfOrder } from '../../store/pick-marks.ts';
import type { PickEntryView, PickListView, PickMarkView, PickProgressView, ShortfallView } from '../contract.ts';
import { pickCsv, pickPrintable } from '../pick-files.ts';
import { fileNamePart, stepView } from '../views.ts';
import { stockItemViews } from './stock-items.ts';
import { reads, writes, type PartialCallTable, type ReadDeps } from './define.ts';

/** A mark as the views read it: how many, and the desk that set it. */
export interface MarkSeen extends PickMark {
  readonly desk: string | null;
}

const shortfallView = (s: Shortfall, ordered: number): ShortfallView => ({
  kind: s.kind,
  missing: s.missing,
  text: shortfallText(s, ordered),
});

export const progressView = (p: PickProgress): PickProgressView => ({ ...p, text: pickProgressText(p) });

/** The pick list as the contract shows it, with the marks given (every desk's). */
export function pickListView(d: ReadDeps, pick: OrderPick, marks: readonly MarkSeen[]): PickListView {
  const item = stockItemViews(d, pick.lines);
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

/** How a step's label names an entry's item: `3001`, as the shop numbering shows it. */
const shownOf =
  (d: ReadDeps): ShownItem =>
  (entry, line) => {
    const n = numberedSavedLine(line);
    return n === null ? entry.item.no : d.numberShower([n])(n).shown;
  };

/** The list after a mark, with the entry marked and the progress. */
function markView(d: ReadDeps, m: Marked): PickMarkView {
  const list = pickListView(d, m.pick, m.marks);
  const entry = list.entries.find((e) => e.key === m.entry.key);
  if (entry === undefined) throw new Error(`the entry ${m.entry.key} marked is not in its walk`);
  return { step: stepView(m.step), entry, progress: list.progress };
}

/** An order's pick list with every desk's marks. */
function listOf(d: ReadDeps, orderId: number): PickListView {
  const pick = orderPick(d.db, orderId);
  return pickListView(d, pick, pickMarksOfOrder(d.db, orderId));
}

/** The pictures the cache keeps for the walk's items in their colours (PNG only; none fetched). */
function keptPictures(d: ReadDeps, list: PickListView): (entry: PickEntryView) => Uint8Array | null {
  const port = d.ctx.pictures;
  if (port === undefined || port === null || port.kept === undefined) return () => null;
  const items = list.entries.map((e) => ({ type: e.item.type, no: e.item.no, colour: e.item.colour?.id ?? null }));
  const sources = pictureSources(d.db, items, port.bases());
  const urls = items.map((i) => {
    const s = sources.get(pictureKey(i));
    return s === undefined || s.url === null ? [] : [s.url, ...(s.usual === undefined ? [] : [s.usual])];
  });
  const asked = [...new Set(urls.flat())];
  const kept = port.kept(asked);
  const byUrl = new Map(asked.map((u, i) => [u, kept[i] ?? null]));
  const png = (u: string) => {
    const p = byUrl.get(u);
    return p !== undefined && p !== null && p.type === 'image/png' ? p.bytes : null;
  };
  const byKey = new Map(
    list.entries.map((e, i) => [e.key, (urls[i] ?? []).map(png).find((p) => p !== null) ?? null] as const),
  );
  return (e) => byKey.get(e.key) ?? null;
}

/** A pick list's file name: `pick list ORDER`. */
const fileNameOf = (list: PickListView) => `pick list ${fileNamePart(list.order.reference)}`;

export const PICK_CALLS = {
  'pick.list': reads(
    (d) =>
      ({ orderId }) =>
        listOf(d, orderId),
  ),
  'pick.mark': writes((d) => ({ orderId, key, picked }) => {
    const m = markPicked(d.session, d.clock, { orderId, key, picked }, shownOf(d));
    d.changed('pick mark');
    return markView(d, m);
  }),
  'pick.unmark': writes((d) => ({ orderId, key }) => {
    const m = unmarkPicked(d.session, d.clock, { orderId, key }, shownOf(d));
    d.changed('pick mark');
    return markView(d, m);
  }),
  'pick.printable': reads((d) => async ({ orderId, paper, orientation, pictures }) => {
    const list = listOf(d, orderId);
    const printable = pickPrintable(list, pictures ? keptPictures(d, list) : () => null);
    const name = `${fileNameOf(list)}.html`;
    const html = printableHtml(printable, { paper, orientation, pictures });
    // The app prints it itself (a page's own print() is unreliable in its sandboxed window); else the page does.
    const printer = d.ctx.printer ?? null;
    if (printer === null) return { name, html, printed: null };
    return { name, html: '', printed: await printer.print(html, { paper, orientation }) };
  }),
  'pick.file': reads((d) => async ({ orderId, as, paper = 'a4', orientation = 'portrait', pictures = true }) => {
    const list = listOf(d, orderId);
    // A text file goes as every export does: through the app's save dialog, or back to the page.
    if (as === 'csv') return { ...(await d.exported(`${fileNameOf(list)}.csv`, pickCsv(list))), base64: false };
    const printable = pickPrintable(list, pictures ? keptPictures(d, list) : () => null);
    const layout = { paper, orientation, pictures };
    return as === 'html'
      ? { ...(await d.exported(`${fileNameOf(list)}.html`, printableHtml(printable, layout))), base64: false }
      : {
          name: `${fileNameOf(list)}.pdf`,
          content: Buffer.from(printablePdf(printable, layout)).toString('base64'),
          base64: true,
          savedTo: null,
        };
  }),
} satisfies PartialCallTable;
