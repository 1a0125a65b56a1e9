import path from 'node:path';
import type { PickEntryView, PickListView, PickMarkView } from '../../api/contract.ts';
import { writeFileAtomically } from '../../platform/files.ts';
import { numberArg, UsageError, type CliApi, type ContractCommand, type OptionValues } from '../command.ts';

/** A stop of the walk in a line: where, how many, what, and what is short or picked. */
function entryText(e: PickEntryView): string {
  const what = [`${e.item.type} ${e.item.shown}`, e.item.name].filter((w) => w !== null).join(' ');
  const colour = e.item.colour === null ? '' : `, ${e.item.colour.name}`;
  const used = e.condition === 'U' ? ' (used)' : '';
  const short = e.short === null ? '' : ` — ${e.short.text}`;
  const picked = e.picked === 0 ? '' : ` [picked ${e.picked} by ${e.pickedBy ?? 'a desk'}]`;
  return `  ${(e.location ?? '(no location)').padEnd(12)} take ${String(e.take).padStart(4)}  ${what}${colour}${used}${short}${picked}  {${e.key}}`;
}

/** The pick list in words: the walk, then what is missing and unplaced, then the progress. */
function listText(l: PickListView): string {
  const apart = [
    [
      'Missing (nothing in stock to take):',
      l.missing.map((m) => `  ${m.where}: ${m.what} × ${m.quantity} — ${m.short.text}`),
    ],
    ['Unplaced (fix the line first):', l.unplaced.map((u) => `  ${u.where}: ${u.what} × ${u.quantity} — ${u.text}`)],
    ['Nothing to take (0 pieces):', l.nothingAsked.map((n) => `  ${n.where}: ${n.what}`)],
  ] as const;
  return [
    `Pick list: order ${l.order.reference} (#${l.order.id}), from the stock ${l.stock.fileName} imported ${l.stock.importedAt.slice(0, 10)}`,
    ...(l.entries.length === 0 ? ['  Nothing to take from the stock.'] : l.entries.map(entryText)),
    ...apart.flatMap(([heading, lines]) => (lines.length === 0 ? [] : [heading, ...lines])),
    `Picked: ${l.progress.text}`,
  ].join('\n');
}

const markText = (m: PickMarkView): string => `${m.step.label}. Picked: ${m.progress.text}`;

/** Where each file goes: `--csv`, `--html`, `--pdf`, each resolved where the command runs. */
function filesAsked(options: OptionValues): { as: 'csv' | 'html' | 'pdf'; file: string }[] {
  return (['csv', 'html', 'pdf'] as const).flatMap((as) => {
    const file = options[as];
    return typeof file === 'string' ? [{ as, file: path.resolve(file) }] : [];
  });
}

async function writeFiles(api: CliApi, orderId: number, options: OptionValues): Promise<string[]> {
  const paper = options['paper'] === undefined ? 'a4' : options['paper'];
  if (paper !== 'a4' && paper !== 'letter') throw new UsageError('--paper is a4 or letter');
  const layout = {
    paper,
    orientation: options['landscape'] === true ? ('landscape' as const) : ('portrait' as const),
    pictures: options['no-pictures'] !== true,
  } as const;
  const wrote: string[] = [];
  for (const { as, file } of filesAsked(options)) {
    const made = await api.call('pick.file', { orderId, as, ...layout });
    writeFileAtomically(file, made.base64 ? Buffer.from(made.content, 'base64') : made.content);
    wrote.push(file);
  }
  return wrote;
}

/** `--mark KEY [--picked N]`: N pieces of the entry (all it takes, by default); `--unmark KEY`. */
async function mark(api: CliApi, orderId: number, options: OptionValues): Promise<PickMarkView> {
  const unmark = options['unmark'];
  if (typeof unmark === 'string') return api.call('pick.unmark', { orderId, key: unmark });
  const key = String(options['mark']);
  const given = options['picked'];
  if (typeof given === 'string') return api.call('pick.mark', { orderId, key, picked: numberArg(given) });
  const entry = (await api.call('pick.list', { orderId })).entries.find((e) => e.key === key);
  // An entry the walk has not: the call says so in its words.
  return api.call('pick.mark', { orderId, key, picked: entry?.take ?? 1 });
}

export const pick: ContractCommand = {
  name: ['pick'],
  synopsis:
    'ORDER_ID [--csv FILE] [--html FILE] [--pdf FILE] [--paper a4|letter] [--landscape] [--no-pictures] | --mark KEY [--picked N] | --unmark KEY',
  summary:
    "an order's pick list against the stock: the walk in bin order with what to take and what is short, the missing and unplaced lines; as CSV, or printable HTML or PDF; --mark/--unmark set or take back an entry's mark (an undo step)",
  options: {
    csv: { type: 'string' },
    html: { type: 'string' },
    pdf: { type: 'string' },
    paper: { type: 'string' },
    landscape: { type: 'boolean' },
    'no-pictures': { type: 'boolean' },
    mark: { type: 'string' },
    picked: { type: 'string' },
    unmark: { type: 'string' },
  },
  args: { min: 1, max: 1 },
  calls: ['pick.list', 'pick.file', 'pick.mark', 'pick.unmark'],
  writes: (_args, options) => options['mark'] !== undefined || options['unmark'] !== undefined,
  words: { key: '--mark', picked: '--picked', paper: '--paper' },
  async run(api, [order], options) {
    const orderId = numberArg(order);
    const marking = options['mark'] !== undefined || options['unmark'] !== undefined;
    if (options['mark'] !== undefined && options['unmark'] !== undefined)
      throw new UsageError('--mark or --unmark, not both');
    if (options['picked'] !== undefined && options['mark'] === undefined)
      throw new UsageError('--picked goes with --mark');
    if (marking && filesAsked(options).length > 0) throw new UsageError('--mark and --unmark write no file');
    if (marking) {
      const m = await mark(api, orderId, options);
      return { json: { mark: m }, text: markText(m) };
    }
    const list = await api.call('pick.list', { orderId });
    const wrote = await writeFiles(api, orderId, options);
    return {
      json: { pick: list, wrote },
      text:
        wrote.length === 0
          ? listText(list)
          : [...wrote.map((f) => `Wrote ${f}`), `Pick list: order ${list.order.reference}, ${list.progress.text}`].join(
              '\n',
            ),
    };
  },
};
