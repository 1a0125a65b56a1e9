import type { ImportPreviewView } from '../../api/contract.ts';
import { BrickWorkError, type ErrorCode } from '../../vocabulary/errors.ts';
import { COLOUR_NUMBERING_NAMES, type ColourNumbering, type WarningCode } from '../../vocabulary/reading.ts';
import { counted } from '../../vocabulary/words.ts';
import { numberArg, RefusalWithResult, type CliApi, type ContractCommand } from '../command.ts';

/** How a preview read a document, in words: the numbering of its colour numbers, the columns it did not read, its warnings. */
function readingText(d: ImportPreviewView['documents'][number]): string[] {
  const out: string[] = [];
  const c = d.colourNumbering;
  if (c !== null) out.push(`  Colour numbers read as ${COLOUR_NUMBERING_NAMES[c.numbering]}'s (${HOW[c.how]}).`);
  if (d.columns.notRead.length > 0) out.push(`  Not read: ${d.columns.notRead.join(', ')}.`);
  for (const w of d.warnings) out.push(`  Warning (${w.code}${w.acknowledged ? ', accepted' : ''}): ${w.message}`);
  return out;
}

const HOW = {
  format: 'the format says so',
  title: 'the column title says so',
  shape: 'the list’s shape says so',
  chosen: 'as chosen',
  names: 'the colour names agree',
  guessed: 'guessed: --colours chooses',
} as const;

export function previewText(plan: ImportPreviewView): string {
  return plan.documents
    .map((d) => {
      // No target: the document is refused before one was found (a duplicate, say), as said below.
      const where =
        d.target === null
          ? ''
          : d.target.kind === 'new'
            ? ` into a new order ${d.target.reference}`
            : ` into order ${d.target.reference}`;
      return [
        `${d.revival ? 'Would revive' : 'Would import'} ${d.key}${where}: ${counted(d.counts.total, 'line')}, ${d.counts.placed} placed, ${d.counts.unplaced} unplaced.`,
        ...readingText(d),
      ].join('\n');
    })
    .join('\n');
}

/** A preview with every line of every document: the answer brings the first page, the rest are asked page by page. */
export async function wholePreview<P extends ImportPreviewView>(api: CliApi, plan: P): Promise<P> {
  const documents = [];
  for (const [index, d] of plan.documents.entries()) {
    const lines = [...d.lines];
    while (lines.length < d.counts.total) {
      const page = await api.call('import.previewLines', {
        previewId: plan.previewId,
        document: index,
        from: lines.length,
        count: 5_000,
      });
      if (page.length === 0) break;
      lines.push(...page);
    }
    documents.push({ ...d, lines });
  }
  return { ...plan, documents };
}

/**
 * A dry run's preview that will refuse is a refusal on the command line, as the confirm would be: the
 * preview (`text`) is said first, each warning once; then why it would not import (with --json: beside
 * the whole preview).
 */
export function refuseDryRun(api: CliApi, whole: ImportPreviewView, text: string): void {
  if (!whole.refusal) return;
  for (const line of text.split('\n')) api.progress(line.trim());
  if (whole.refusal.code === 'needs-acknowledgement') {
    const open = [
      ...new Set(whole.documents.flatMap((d) => d.warnings.filter((w) => !w.acknowledged).map((w) => w.code))),
    ];
    throw new RefusalWithResult(
      'needs-acknowledgement',
      `The import would be refused until the ${open.length === 1 ? 'warning above is' : 'warnings above are'} acknowledged: --accept ${open.join(',')}.`,
      whole,
    );
  }
  throw new RefusalWithResult(whole.refusal.code as ErrorCode, whole.refusal.message, whole);
}

/** `--accept a,b`: the warning codes acknowledged (checked by the contract's argument checks). */
export function acceptedCodes(value: unknown): WarningCode[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '') as WarningCode[];
}

export const importDocument: ContractCommand = {
  name: ['import'],
  synopsis: 'FILE [--order ID] [--dry-run] [--as-new] [--accept CODE,…] [--colours bricklink|rebrickable|ldraw]',
  summary:
    'import an order document (a preview only with --dry-run); revives an undone one; --accept acknowledges the preview’s warnings',
  options: {
    order: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'as-new': { type: 'boolean' },
    accept: { type: 'string' },
    colours: { type: 'string' },
  },
  args: { min: 1, max: 1 },
  calls: ['import.preview', 'import.previewLines', 'import.confirm'],
  writes: (_args, options) => options['dry-run'] !== true,
  words: { orderId: '--order', acknowledge: '--accept', colourNumbering: '--colours' },
  async run(api, [file], options) {
    const order = options['order'];
    const request = {
      file: api.readFile(file ?? '', 'document'),
      orderId: typeof order === 'string' ? numberArg(order) : null,
      asNew: options['as-new'] === true,
      acknowledge: acceptedCodes(options['accept']) ?? [],
      colourNumbering: typeof options['colours'] === 'string' ? (options['colours'] as ColourNumbering) : null,
    };
    if (options['dry-run'] === true) {
      // A script gets every line, with its placement or its reason, whether or not the import would be refused.
      const whole = await wholePreview(api, await api.call('import.preview', request));
      refuseDryRun(api, whole, previewText(whole));
      return { json: whole, text: previewText(whole) };
    }
    const imports = await api.call('import.confirm', request).catch(async (e: unknown) => {
      // Refused until its warnings are acknowledged: a script gets the preview a person would read before
      // accepting (with --json, beside the error, as a dry run's), not the error alone (issue 64 §5).
      if (!(e instanceof BrickWorkError) || e.code !== 'needs-acknowledgement') throw e;
      throw new RefusalWithResult(
        e.code,
        e.message,
        await wholePreview(api, await api.call('import.preview', request)),
      );
    });
    const text = imports
      .map(
        (r) =>
          `${r.revived ? 'Revived' : 'Imported'} ${r.document.key} into order ${r.order.reference} (#${r.order.id}, ${r.order.currency}): ` +
          `${counted(r.lines.total, 'line')}, ${r.lines.placed} placed, ${r.lines.unplaced} unplaced.`,
      )
      .join('\n');
    return { json: { imports }, text };
  },
};
