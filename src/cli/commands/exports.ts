import type { ExportFileView, LeftOutView } from '../../api/contract.ts';
import type { ExportAcknowledgement } from '../../vocabulary/export-kinds.ts';
import { numberArg, type CliApi, type CommandOutput, type ContractCommand } from '../command.ts';
import { fewOf } from './orders.ts';

/** `--accept a,b`: the acknowledgements given (checked by the contract's argument checks). */
export function acknowledgements(value: unknown): ExportAcknowledgement[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '') as ExportAcknowledgement[];
}

/** Each line left out, one to a line, for staff (on stderr when the file itself goes to stdout). */
export function leftOutLines(leftOut: readonly LeftOutView[] | undefined): string[] {
  return (leftOut ?? []).map((l) => `  left out: ${l.what}, ${l.quantity} × (${l.where}): ${l.text}`);
}

/** Each line written under a number that names several catalogue items, with the one it is. */
export function sharedLines(shared: ExportFileView['shared']): string[] {
  return (shared ?? []).map((s) => `  ${s.no} (${s.where}) is ${s.item}, not ${fewOf(s.others)}`);
}

/** The file, written where --out says (the app's save dialog), else printed; what it left out said either way. */
function output(api: CliApi, file: ExportFileView): CommandOutput {
  const said = [
    ...(file.note === undefined ? [] : [file.note]),
    ...leftOutLines(file.leftOut),
    ...sharedLines(file.shared),
  ];
  if (file.savedTo === null) {
    // The file goes to stdout to be piped: what it leaves out goes beside it, on stderr.
    for (const line of said) api.progress(line);
    return { json: file, text: file.content.replace(/\r?\n$/, '') };
  }
  return { json: file, text: [`Wrote ${file.savedTo}`, ...said].join('\n') };
}

export const exportSummary: ContractCommand = {
  name: ['export', 'summary'],
  synopsis: '[--out FILE]',
  summary: 'the summary CSV of the orders with saved lines',
  options: { out: { type: 'string' } },
  args: { min: 0, max: 0 },
  calls: ['export.summary'],
  async run(api) {
    return output(api, await api.call('export.summary', {}));
  },
};

const orderExportOptions = {
  out: { type: 'string' },
  accept: { type: 'string' },
  'include-unplaced': { type: 'boolean' },
} as const;

function orderExportArgs(orderId: string | undefined, options: Record<string, unknown>) {
  const accept = acknowledgements(options['accept']);
  return {
    orderId: numberArg(orderId),
    ...(accept === undefined ? {} : { accept }),
    ...(options['include-unplaced'] === true ? { includeUnplaced: true } : {}),
  };
}

export const exportBricklink: ContractCommand = {
  name: ['export', 'bricklink'],
  synopsis: 'ORDER_ID [--out FILE] [--accept no-bricklink-number] [--include-unplaced]',
  summary:
    "BrickLink XML (mass upload) of an order's saved lines, in BrickLink's numbers; lists each line left out. " +
    '--accept no-bricklink-number leaves out lines BrickLink does not number; --include-unplaced writes unplaced lines as a BrickLink document gave them',
  options: orderExportOptions,
  args: { min: 1, max: 1 },
  calls: ['export.bricklink'],
  words: { accept: '--accept', includeUnplaced: '--include-unplaced' },
  async run(api, [orderId], options) {
    return output(api, await api.call('export.bricklink', orderExportArgs(orderId, options)));
  },
};

export const exportRebrickable: ContractCommand = {
  name: ['export', 'rebrickable'],
  synopsis: 'ORDER_ID [--out FILE] [--accept no-rebrickable-number]',
  summary:
    "Rebrickable part list (Part,Color,Quantity) of an order's saved lines, in Rebrickable's numbers and colours; lists each line left out",
  options: orderExportOptions,
  args: { min: 1, max: 1 },
  calls: ['export.rebrickable'],
  words: { accept: '--accept', includeUnplaced: '--include-unplaced' },
  async run(api, [orderId], options) {
    return output(api, await api.call('export.rebrickable', orderExportArgs(orderId, options)));
  },
};
