import type { LeftOutLine, SharedNumberLine } from '../vocabulary/export-kinds.ts';
import type { PutAwayNew, PutAwayPlan, PutAwayToLot } from './types.ts';
import { bricklinkColour, inventoryXml, priceTag, type XmlItem } from '../exports/bricklink-xml.ts';
import { leftOutText, refuseUnacknowledged, sharedRemark, type ExportPlan, type ExportRow } from '../exports/plan.ts';

/**
 * The put-away list written as BrickLink takes it (issue 65 §3, ADR 0035): a **Mass Update** for the lots
 * the shop's store already has (by BrickLink's lot id, the quantity as a change: `+12`), and a **Mass
 * Upload** for new lots (in BrickLink's numbers, the location in `REMARKS`). Every line of the order is in
 * one of them or left out with its reason. Nothing is sent: these are files for staff to give BrickLink.
 */

export interface MassUpdateFile {
  readonly content: string;
  /** The order lines it adds to lots. */
  readonly lines: readonly number[];
  /** How many lots it changes (lines into one lot are one change). */
  readonly lots: number;
}

export interface MassUploadFile {
  readonly content: string;
  readonly lines: readonly number[];
  /** New lots written without a location (none suggested, none typed): BrickLink takes them, the shop can't find them. */
  readonly withoutLocation: readonly number[];
}

export interface PutAwayFiles {
  /** Null: no line goes into a lot the store has (BrickLink takes no file without an item). */
  readonly update: MassUpdateFile | null;
  /** Null: no line makes a new lot. */
  readonly upload: MassUploadFile | null;
  readonly leftOut: readonly LeftOutLine[];
  /** New lots written under a number that names several catalogue items: the upload's DESCRIPTION says which. */
  readonly shared: readonly SharedNumberLine[];
}

/**
 * A Mass Update of the lots `entries` go into: one `ITEM` a lot, with its `LOTID` and the pieces added as
 * `QTY` `+N` — nothing else, since BrickLink changes only the fields a file gives (price, remarks and the
 * rest stay as the shop has them). Lines into a lot without a BrickLink lot id are left out: nothing
 * else names a lot to BrickLink's update.
 */
export function massUpdate(entries: readonly PutAwayToLot[]): {
  readonly file: MassUpdateFile | null;
  readonly leftOut: LeftOutLine[];
} {
  const lots = new Map<string, { added: number; lines: number[] }>();
  const leftOut: LeftOutLine[] = [];
  for (const e of entries) {
    const id = e.lotId?.trim() ?? '';
    if (id === '') {
      leftOut.push(leftOf(e, 'no-lot-id'));
      continue;
    }
    const lot = lots.get(id) ?? { added: 0, lines: [] };
    lot.added += e.quantity;
    lot.lines.push(e.line);
    lots.set(id, lot);
  }
  if (lots.size === 0) return { file: null, leftOut };
  const items = [...lots].map(([id, lot]): XmlItem => [
    ['LOTID', id],
    ['QTY', `+${lot.added}`],
  ]);
  const lines = [...lots.values()].flatMap((l) => l.lines);
  return { file: { content: inventoryXml(items), lines, lots: lots.size }, leftOut };
}

function leftOf(
  e: { line: number; where: string; what: string; quantity: number },
  reason: LeftOutLine['reason'],
  detail = '',
): LeftOutLine {
  return {
    line: e.line,
    where: e.where,
    what: e.what,
    quantity: e.quantity,
    reason,
    text: leftOutText(reason, 'bricklink', detail),
  };
}

/**
 * A Mass Upload of the new lots, each under its BrickLink number as the order's BrickLink export numbers
 * it (`rows`), with its quantity, price (none where the order gives none: BrickLink asks), condition (new
 * where the document gives none) and its location as `REMARKS`, alone, so that the next import of the
 * stock reads it back as the lot's location. A number that names several catalogue items says which in
 * `DESCRIPTION` (the remarks are the location's).
 */
function massUpload(
  entries: readonly PutAwayNew[],
  rows: ReadonlyMap<number, ExportRow>,
  sharedOf: ReadonlyMap<number, SharedNumberLine>,
): MassUploadFile | null {
  const written = entries.flatMap((e) => {
    const row = rows.get(e.line);
    return row === undefined ? [] : [{ e, row }];
  });
  if (written.length === 0) return null;
  const items = written.map(({ e, row }): XmlItem => {
    const shared = sharedOf.get(e.line);
    const location = e.location?.trim() ?? '';
    return [
      ['ITEMTYPE', row.type],
      ['ITEMID', row.no],
      ['COLOR', bricklinkColour(row.colour)],
      ['QTY', String(e.quantity)],
      ['PRICE', priceTag(row.unitPriceE4)],
      ['CONDITION', e.condition ?? 'N'],
      ['DESCRIPTION', shared === undefined ? null : sharedRemark(null, shared.item, shared.others)],
      // BrickLink refuses an empty tag: a lot without a location has no REMARKS at all.
      ['REMARKS', location === '' ? null : location],
    ];
  });
  return {
    content: inventoryXml(items),
    lines: written.map((w) => w.e.line),
    withoutLocation: written.filter((w) => (w.e.location?.trim() ?? '') === '').map((w) => w.e.line),
  };
}

/**
 * The put-away files of `plan`, with `numbers` the order's BrickLink export plan
 * (`planOrderExport(db, orderId, 'bricklink')`: each placed line's BrickLink number, and the lines
 * BrickLink numbers not). A line into an existing lot needs no number (its lot id names it); a new lot
 * whose item has no known BrickLink number is left out, and, as every BrickLink export, only once
 * acknowledged (`accept` holding `no-bricklink-number`; else refused, `needs-acknowledgement`).
 */
export function putAwayXml(
  plan: PutAwayPlan,
  numbers: Pick<ExportPlan, 'rows' | 'leftOut' | 'shared'>,
  options: { readonly accept?: readonly string[] } = {},
): PutAwayFiles {
  const rows = new Map(numbers.rows.map((r) => [r.line, r]));
  const unnumbered = new Map(numbers.leftOut.flatMap((l) => (l.line === null ? [] : [[l.line, l]])));
  const sharedOf = new Map(numbers.shared.flatMap((s) => (s.line === null ? [] : [[s.line, s]])));
  const toLots = plan.entries.filter((e): e is PutAwayToLot => e.kind === 'existing');
  const news = plan.entries.filter((e): e is PutAwayNew => e.kind === 'new');

  const update = massUpdate(toLots);
  const leftOut: LeftOutLine[] = [
    ...update.leftOut,
    ...news.flatMap((e) => {
      if (rows.has(e.line)) return [];
      const why = unnumbered.get(e.line);
      if (why === undefined) throw new Error(`The BrickLink export plan holds no word of line ${e.line} (${e.where}).`);
      return [why];
    }),
    ...plan.unplaced.map((u) => leftOf(u, 'unplaced', `: ${u.text}`)),
    ...plan.nothingReceived.map((n) => leftOf(n, 'no-quantity')),
  ];
  refuseUnacknowledged({ target: 'bricklink', leftOut }, options.accept ?? []);
  const upload = massUpload(news, rows, sharedOf);
  const shared = news.flatMap((e) => {
    const s = sharedOf.get(e.line);
    return s === undefined || !rows.has(e.line) ? [] : [s];
  });
  return { update: update.file, upload, leftOut, shared };
}
