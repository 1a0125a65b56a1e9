import type { StockImportView, StockInfoView, StockPreviewView } from '../../api/contract.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import type { ColourNumbering } from '../../vocabulary/reading.ts';
import { counted } from '../../vocabulary/words.ts';
import { shownTime } from '../../platform/clock.ts';
import { RefusalWithResult, type ContractCommand } from '../command.ts';
import { acceptedCodes, previewText, refuseDryRun, wholePreview } from './import.ts';

/** Where the lots' locations come from, in words. */
function fromWords(locationFrom: string): string {
  return locationFrom === 'remarks' ? 'their remarks' : `the column "${locationFrom}"`;
}

/** The stock's counts in a line: lots, pieces, unplaced, locations. */
function stockText(s: StockInfoView): string {
  const without = s.lotsWithoutLocation === 0 ? '' : `, ${counted(s.lotsWithoutLocation, 'lot')} without one`;
  return (
    `${counted(s.lots, 'lot')}, ${counted(s.pieces, 'piece')}, ${s.unplaced} unplaced; ` +
    `${counted(s.locations, 'location')}${without}; ${counted(s.lotsWithLotId, 'lot')} with a BrickLink lot id.`
  );
}

/** The stock just imported, and the stock it replaced. */
function importedText(done: StockImportView): string {
  const replaced = done.replaced
    .map(
      (r) =>
        `\nIt replaces the stock imported on ${shownTime(r.importedAt)} from ${r.fileName} (undo brings that back).`,
    )
    .join('');
  return (
    `Imported the stock from ${done.stock.fileName} (order #${done.stock.orderId}, document ${done.stock.documentId}): ` +
    `${stockText(done.stock)}${replaced}` +
    (done.stock.unplaced === 0
      ? ''
      : `\nThe unplaced lots are fixed as lines are: brick-work lines ${done.stock.orderId} --unplaced.`)
  );
}

/** What the stock's preview adds to an import's: its locations and the stock it replaces. */
function stockPreviewText(p: StockPreviewView): string {
  const s = p.stock;
  const without = s.lotsWithoutLocation === 0 ? '' : `, ${counted(s.lotsWithoutLocation, 'lot')} without one`;
  const replaces =
    s.replaces === null
      ? 'It would be the first stock.'
      : `It would replace the stock imported on ${shownTime(s.replaces.importedAt)} from ${s.replaces.fileName} (Undo brings that back).`;
  return [
    previewText(p).replace(/^Would import \S+ into (a new order|order) Stock:/, 'Would import the stock:'),
    `  Locations from ${fromWords(s.locationFrom)}: ${counted(s.locations, 'location')}${without}; ${counted(s.lotsWithLotId, 'lot')} with a BrickLink lot id.`,
    `  ${replaces}`,
  ].join('\n');
}

export const stockImport: ContractCommand = {
  name: ['stock', 'import'],
  synopsis:
    'FILE [--location-from remarks|COLUMN] [--dry-run] [--accept CODE,…] [--colours bricklink|rebrickable|ldraw]',
  summary:
    "import the shop's stock (BrickLink's inventory download, a BrickStore file, a CSV), each lot's location from its remarks or a column; replaces the stock before it (undo brings that back)",
  options: {
    'location-from': { type: 'string' },
    'dry-run': { type: 'boolean' },
    accept: { type: 'string' },
    colours: { type: 'string' },
  },
  args: { min: 1, max: 1 },
  calls: ['stock.preview', 'import.previewLines', 'stock.import'],
  writes: (_args, options) => options['dry-run'] !== true,
  words: { locationFrom: '--location-from', acknowledge: '--accept', colourNumbering: '--colours' },
  async run(api, [file], options) {
    const from = options['location-from'];
    const request = {
      file: api.readFile(file ?? '', 'document'),
      locationFrom: typeof from === 'string' ? from : null,
      acknowledge: acceptedCodes(options['accept']) ?? [],
      colourNumbering: typeof options['colours'] === 'string' ? (options['colours'] as ColourNumbering) : null,
    };
    if (options['dry-run'] === true) {
      const whole = await wholePreview(api, await api.call('stock.preview', request));
      refuseDryRun(api, whole, stockPreviewText(whole));
      return { json: whole, text: stockPreviewText(whole) };
    }
    const done = await api.call('stock.import', request).catch(async (e: unknown) => {
      // Refused until its warnings are acknowledged: the preview a person would read, as `import` gives it.
      if (!(e instanceof BrickWorkError) || e.code !== 'needs-acknowledgement') throw e;
      throw new RefusalWithResult(e.code, e.message, await wholePreview(api, await api.call('stock.preview', request)));
    });
    return { json: done, text: importedText(done) };
  },
};

export const stockInfo: ContractCommand = {
  name: ['stock', 'info'],
  synopsis: '',
  summary: "the shop's stock: when it was imported, its lots, pieces and locations, and its lots unplaced",
  args: { min: 0, max: 0 },
  calls: ['stock.info'],
  async run(api) {
    const s = await api.call('stock.info', {});
    if (s === null)
      return {
        json: { stock: null },
        text: 'No stock yet: brick-work stock import FILE imports the shop’s inventory.',
      };
    const by = s.desk === null ? '' : ` by the desk "${s.desk}"`;
    return {
      json: { stock: s },
      text:
        `The stock: ${s.fileName}, imported on ${shownTime(s.importedAt)}${by} (order #${s.orderId}, document ${s.documentId}).\n` +
        stockText(s),
    };
  },
};

export const stockLookup: ContractCommand = {
  name: ['stock', 'lookup'],
  synopsis: '[--dry-run]',
  summary:
    "the shop's stock straight from BrickLink's API: its store inventory in one call within the day's budget (BRICKLINK_* credentials), previewed, then imported as the stock unless --dry-run, each lot's location from its remarks; replaces the stock before it (undo brings that back)",
  options: { 'dry-run': { type: 'boolean' } },
  args: { min: 0, max: 0 },
  calls: ['stock.lookup', 'stock.preview', 'import.previewLines', 'stock.import'],
  async run(api, _args, options) {
    // The call is counted (a write) even for a dry run: BrickLink was asked.
    const got = await api.call('stock.lookup', {});
    const asked =
      `Asked BrickLink for the store's inventory: ${counted(got.fetched, 'lot')}, as ${got.file.name}. ` +
      `Today's budget: ${got.budget.used} of ${got.budget.limit} calls used, ${got.budget.left} left.`;
    const lookup = { fileName: got.file.name, fetched: got.fetched, budget: got.budget };
    // BrickLink's own numbers and colour ids: nothing the reader would assume, so nothing to acknowledge.
    const request = { file: got.file, locationFrom: null, acknowledge: [], colourNumbering: null };
    const whole = await wholePreview(api, await api.call('stock.preview', request));
    const previewed = `${asked}\n${stockPreviewText(whole)}`;
    // A preview that would be refused (the stock already) is said with what it read, as `stock import --dry-run`.
    refuseDryRun(api, whole, previewed);
    if (options['dry-run'] === true) return { json: { lookup, preview: whole }, text: previewed };
    const done = await api.call('stock.import', request);
    return { json: { lookup, ...done }, text: `${asked}\n${importedText(done)}` };
  },
};
