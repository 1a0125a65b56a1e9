import { counted } from '../../vocabulary/words.ts';
import { acknowledgements, leftOutLines, sharedLines } from './exports.ts';
import { numberText } from './orders.ts';
import type { ArgsOf, CompareRowView, CompareView } from '../../api/contract.ts';
import { COMPARE_EXPORTS, type CompareExport } from '../../vocabulary/compare-kinds.ts';
import { UsageError, numberArg, type CliApi, type ContractCommand } from '../command.ts';

type SideArg = ArgsOf<'compare.run'>['left'];

/** `order:ID`, `document:ID`, or a file's path. */
function sideOf(api: CliApi, word: string): SideArg {
  const m = /^(order|document):(.*)$/.exec(word);
  if (m === null) return { kind: 'file', file: api.readFile(word, 'document') };
  const id = numberArg(m[2] ?? '');
  if (!Number.isSafeInteger(id) || id < 1)
    throw new UsageError(`${word}: ${m[1]}: takes a positive whole number, e.g. ${m[1]}:12`);
  return m[1] === 'order' ? { kind: 'order', orderId: id } : { kind: 'document', documentId: id };
}

const named = (r: CompareRowView): string =>
  r.item === null
    ? `${r.given.type ?? 'P'} ${r.given.no ?? `“${r.given.name ?? ''}”`} (unplaced)${r.given.colourId !== null ? ` colour ${r.given.colourId}` : ''}`
    : `${r.item.type} ${numberText(r.item)}${r.item.colourName ? ` in ${r.item.colourName}` : r.item.colour !== null ? ` colour ${r.item.colour}` : ''}${r.condition ? ` (${r.condition})` : ''}`;

function text(v: CompareView): string {
  const group = (title: string, rows: readonly CompareRowView[], line: (r: CompareRowView) => string) =>
    rows.length === 0 ? [] : [`${title} (${rows.length}):`, ...rows.map((r) => `  ${line(r)}`)];
  const t = v.totals;
  return [
    `Left:  ${v.left.label}: ${counted(t.left.lots, 'lot')}, ${counted(t.left.pieces, 'piece')}`,
    `Right: ${v.right.label}: ${counted(t.right.lots, 'lot')}, ${counted(t.right.pieces, 'piece')}`,
    ...group('Only left', v.onlyLeft, (r) => `${named(r)}: ${r.left}`),
    ...group('Only right', v.onlyRight, (r) => `${named(r)}: ${r.right}`),
    ...group(
      'Quantity differs',
      v.quantityDiffers,
      (r) => `${named(r)}: ${r.left} → ${r.right} (${r.difference > 0 ? '+' : ''}${r.difference})`,
    ),
    ...group('Price differs', v.priceDiffers, (r) => `${named(r)}: ${r.leftUnitPrice} → ${r.rightUnitPrice}`),
    ...group('Unplaced, listed apart', v.unplaced, (r) => `${named(r)}: ${r.left} → ${r.right}`),
    `Same: ${counted(v.same.length, 'lot')}.`,
    `Missing on the right: ${counted(t.missing, 'piece')} (${t.missingValue}); extra on the right: ${counted(t.extra, 'piece')} (${t.extraValue}).`,
  ].join('\n');
}

export const compare: ContractCommand = {
  name: ['compare'],
  synopsis: 'LEFT RIGHT [--prices] [--out FILE --as csv|wanted|upload|rebrickable] [--accept CODE]',
  summary:
    'compare two sides (order:ID, document:ID or a file) by what their lines are; writes nothing to the store. ' +
    '--as exports the difference: csv, the shortfall as a BrickLink wanted list or a Rebrickable part list, or the extra as a mass upload',
  options: { prices: { type: 'boolean' }, out: { type: 'string' }, as: { type: 'string' }, accept: { type: 'string' } },
  args: { min: 2, max: 2 },
  calls: ['compare.run', 'compare.export'],
  async run(api, [left, right], options) {
    const as = options['as'];
    if (as !== undefined && !(COMPARE_EXPORTS as readonly unknown[]).includes(as))
      throw new UsageError(`--as takes ${COMPARE_EXPORTS.join(', ')}`);
    if (options['out'] !== undefined && as === undefined)
      throw new UsageError('--out needs --as: csv (the difference), wanted (the shortfall) or upload (the extra)');
    const view = await api.call('compare.run', {
      left: sideOf(api, left ?? ''),
      right: sideOf(api, right ?? ''),
      ...(options['prices'] === true ? { prices: true } : {}),
    });
    if (as === undefined) return { json: view, text: text(view) };
    const accept = acknowledgements(options['accept']);
    const file = await api.call('compare.export', {
      compareId: view.compareId,
      as: as as CompareExport,
      ...(accept === undefined ? {} : { accept }),
    });
    if (file.note !== undefined) api.progress(file.note);
    for (const line of [...leftOutLines(file.leftOut), ...sharedLines(file.shared)]) api.progress(line);
    // Without --out the file itself is printed, to be piped; with it, what was compared and where it went.
    return file.savedTo === null
      ? { json: { ...view, export: file }, text: file.content.replace(/\r?\n$/, '') }
      : { json: { ...view, export: file }, text: `${text(view)}\nWrote ${file.savedTo}` };
  },
};
