import fs from 'node:fs';
import type { PutAwayEntryView, PutAwayExportView, PutAwayListView, StockItemView } from '../../api/contract.ts';
import { shownTime } from '../../platform/clock.ts';
import { numberArg, UsageError, type ContractCommand, type OptionValues } from '../command.ts';
import { acknowledgements, leftOutLines, sharedLines } from './exports.ts';

/** `--location LINE_ID=BIN`, as often as needed: staff's locations for new lots, by order line id. */
function typedLocations(value: OptionValues[string]): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const given = (Array.isArray(value) ? value : [value]).map(String);
  const locations: Record<string, string> = {};
  for (const g of given) {
    const m = /^\s*(\d+)\s*=(.*)$/.exec(g);
    const bin = m?.[2]?.trim() ?? '';
    if (m === null || bin === '')
      throw new UsageError(`--location takes LINE_ID=BIN (a line id from the list), not "${g}"`);
    locations[String(Number(m[1]))] = bin;
  }
  return locations;
}

/** An item as staff read it: `P 3001 Brick 2 x 4 (Red)`, its number in the shop numbering. */
function itemWords(i: StockItemView): string {
  const head = [i.type, i.shown, i.name].filter((p) => p !== null && p !== '').join(' ');
  return i.colour === null ? head : `${head} (${i.colour.name})`;
}

const conditionWords = (c: 'N' | 'U' | null) => (c === 'N' ? 'new' : c === 'U' ? 'used' : 'condition not given');

const FROM_WORDS: Record<NonNullable<PutAwayEntryView['from']>, string> = {
  typed: 'typed',
  item: "where the item's other lots are",
  category: "where its category's lots are",
};

function entryLine(e: PutAwayEntryView): string {
  const what = `${itemWords(e.item)}, ${conditionWords(e.condition)}: ${e.quantity}`;
  if (e.kind === 'existing') {
    const lot = e.lotId === null ? 'its lot (no BrickLink lot id)' : `lot ${e.lotId}`;
    return `  ${e.location ?? '(no location)'}  ${what} into ${lot}: ${e.before ?? 0} → ${e.after ?? 0}  [line ${e.line}, ${e.where}]`;
  }
  const where =
    e.location === null
      ? `, nowhere to suggest: type one with --location ${e.line}=BIN`
      : ` at ${e.location} (${FROM_WORDS[e.from ?? 'typed']})`;
  return `  ${e.location ?? '(type one)'}  ${what}, a new lot${where}  [line ${e.line}, ${e.where}]`;
}

/** The list in words: lots the stock has (before → after), new lots with their location or "type one", the rest apart. */
export function putAwayText(list: PutAwayListView): string {
  const existing = list.entries.filter((e) => e.kind === 'existing');
  const news = list.entries.filter((e) => e.kind === 'new');
  return [
    `Put-away list of order ${list.order.reference} (#${list.order.id}) against the stock ${list.stock.fileName}, imported on ${shownTime(list.stock.importedAt)}:`,
    existing.length === 0 ? 'Into lots the stock has: none.' : `Into lots the stock has (${existing.length}):`,
    ...existing.map(entryLine),
    news.length === 0 ? 'New lots: none.' : `New lots (${news.length}):`,
    ...news.map(entryLine),
    ...(list.unplaced.length === 0 ? [] : [`Unplaced, not put away (${list.unplaced.length}):`]),
    ...list.unplaced.map((u) => `  ${u.what}, ${u.quantity} × [line ${u.line}, ${u.where}]: ${u.text}`),
    ...(list.nothingReceived.length === 0 ? [] : [`Nothing received (${list.nothingReceived.length}):`]),
    ...list.nothingReceived.map((u) => `  ${u.what}, 0 × [line ${u.line}, ${u.where}]`),
    list.note,
  ].join('\n');
}

/** What the export wrote, each file with what it holds, and every line it left out. */
function exportText(done: PutAwayExportView): string {
  const file = (f: PutAwayExportView['update']) =>
    f === null ? [] : [`Wrote ${f.savedTo ?? f.name}: ${f.note ?? ''}`.trim(), ...sharedLines(f.shared)];
  return [...file(done.update), ...file(done.upload), ...leftOutLines(done.leftOut), done.note].join('\n');
}

export const putAway: ContractCommand = {
  name: ['put-away'],
  synopsis: 'ORDER_ID [--location LINE_ID=BIN …] [--export bricklink --out DIR] [--accept no-bricklink-number]',
  summary:
    "an order coming in against the stock: each line into the lot the stock has (before → after) or a new lot, its location from the item's other lots, its category's, or --location; --export bricklink writes BrickLink's Mass Update and Mass Upload into DIR (nothing is sent)",
  options: {
    location: { type: 'string', multiple: true },
    export: { type: 'string' },
    out: { type: 'string' },
    accept: { type: 'string' },
  },
  args: { min: 1, max: 1 },
  calls: ['putAway.list', 'putAway.export'],
  words: { locations: '--location', accept: '--accept' },
  outIsFolder: true,
  async run(api, [orderId], options) {
    const locations = typedLocations(options['location']);
    const target = options['export'];
    const out = options['out'];
    if (target !== undefined && target !== 'bricklink') throw new UsageError('--export takes bricklink');
    if (target === undefined && (out !== undefined || options['accept'] !== undefined))
      throw new UsageError('--out and --accept go with --export bricklink');
    if (target !== undefined) {
      if (typeof out !== 'string') throw new UsageError('--export bricklink writes two files: give --out DIR');
      if (!fs.statSync(out, { throwIfNoEntry: false })?.isDirectory())
        throw new UsageError(`--out ${out} is not a folder: the put-away files go into one`);
    }
    const args = { orderId: numberArg(orderId), ...(locations === undefined ? {} : { locations }) };
    const accept = acknowledgements(options['accept']);
    const exportArgs = { ...args, ...(accept === undefined ? {} : { accept }) };
    if (target !== undefined) api.check('putAway.export', exportArgs);
    const list = await api.call('putAway.list', args);
    if (target === undefined) return { json: list, text: putAwayText(list) };
    const done = await api.call('putAway.export', exportArgs);
    return { json: { ...list, export: done }, text: `${putAwayText(list)}\n\n${exportText(done)}` };
  },
};
