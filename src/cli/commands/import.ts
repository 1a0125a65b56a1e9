import type { ImportPreviewView } from '../../api/contract.ts';
import { BrickWorkError, type ErrorCode } from '../../errors.ts';
import { numberArg, type ContractCommand } from '../command.ts';

function previewText(plan: ImportPreviewView): string {
  return plan.documents
    .map((d) => {
      const where =
        d.target?.kind === 'new' ? `a new order ${d.target.reference}` : `order ${d.target?.reference ?? '?'}`;
      return `${d.revival ? 'Would revive' : 'Would import'} ${d.key} into ${where}: ${d.counts.total} lines, ${d.counts.placed} placed, ${d.counts.unplaced} unplaced.`;
    })
    .join('\n');
}

export const importDocument: ContractCommand = {
  name: ['import'],
  synopsis: 'FILE [--order ID] [--dry-run] [--as-new]',
  summary: 'import an order document (a preview only with --dry-run); revives an undone one',
  options: { order: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'as-new': { type: 'boolean' } },
  args: { min: 1, max: 1 },
  calls: ['import.preview', 'import.confirm'],
  writes: (_args, options) => options['dry-run'] !== true,
  words: { orderId: '--order' },
  async run(api, [file], options) {
    const order = options['order'];
    const request = {
      file: api.readFile(file ?? ''),
      orderId: typeof order === 'string' ? numberArg(order) : null,
      asNew: options['as-new'] === true,
    };
    if (options['dry-run'] === true) {
      const plan = await api.call('import.preview', request);
      // A preview that will refuse is a refusal on the command line, as the confirm would be.
      if (plan.refusal) throw new BrickWorkError(plan.refusal.code as ErrorCode, plan.refusal.message);
      return { json: plan, text: previewText(plan) };
    }
    const imports = await api.call('import.confirm', request);
    const text = imports
      .map(
        (r) =>
          `${r.revived ? 'Revived' : 'Imported'} ${r.document.key} into order ${r.order.reference} (#${r.order.id}, ${r.order.currency}): ` +
          `${r.lines.total} lines, ${r.lines.placed} placed, ${r.lines.unplaced} unplaced.`,
      )
      .join('\n');
    return { json: { imports }, text };
  },
};
