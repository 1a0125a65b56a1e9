import { BrickWorkError, type ErrorCode } from '../../vocabulary/errors.ts';
import type { ItemType } from '../../vocabulary/item-types.ts';
import { numberArg, type ContractCommand } from '../command.ts';

export const catalogueImport: ContractCommand = {
  name: ['catalogue', 'import'],
  synopsis: 'FILE… [--type T]',
  summary:
    'load catalogue files (BrickLink downloads and codes; Rebrickable parts, part_categories, sets, elements, relationships, colour list, cross-references; .gz too)',
  options: { type: { type: 'string' } },
  args: { min: 1, max: 20 },
  calls: ['catalogue.load'],
  async run(api, files, options) {
    const type = typeof options['type'] === 'string' ? options['type'].toUpperCase() : undefined;
    await api.call('catalogue.load', {
      files: files.map((f) => api.readFile(f, 'catalogue')),
      ...(type === undefined ? {} : { type: type as ItemType }),
    });
    // The app's runner thread runs the load; here it runs in this process, and the command waits for it.
    const done = await api.background();
    if (done.kind !== 'catalogue-load') throw new Error(`catalogue import got a ${done.kind} result`);
    if (done.result.warning) api.progress(done.result.warning);
    const text = [...done.result.files.map((f) => `${f.name}: ${f.format}, ${f.rows} rows`), done.summary].join('\n');
    return { json: done.result, text };
  },
};

export const catalogueLookup: ContractCommand = {
  name: ['catalogue', 'lookup'],
  synopsis: '[--limit N]',
  summary: 'ask BrickLink for the numbers unplaced lines name and the catalogue lacks (BRICKLINK_* credentials)',
  options: { limit: { type: 'string' } },
  args: { min: 0, max: 0 },
  calls: ['lookup.start', 'catalogue.status'],
  async run(api, _args, options) {
    const limit = typeof options['limit'] === 'string' ? numberArg(options['limit']) : null;
    await api.call('lookup.start', { limit });
    const done = await api.background();
    if (done.kind !== 'lookup') throw new Error(`catalogue lookup got a ${done.kind} result`);
    const { stats, error } = done;
    if (error?.code === 'budget-exhausted')
      throw new BrickWorkError(
        'budget-exhausted',
        `${error.message}. The look-up job waits in the queue for the next UTC day; ${stats.left} numbers are still to ask.`,
      );
    if (done.outcome === 'failed' && error) throw new BrickWorkError(error.code as ErrorCode, error.message);
    const { budget } = await api.call('catalogue.status', {});
    const json = { job: done.jobId, outcome: done.outcome, ...stats, budget };
    const text = [
      `Asked BrickLink ${stats.calls} times: ${stats.found} found, ${stats.notFound} not found; ${stats.left} numbers still to ask.`,
      `Today's budget: ${budget.used} of ${budget.limit} calls used, ${budget.left} left.`,
      ...(done.outcome === 'deferred' ? ['The job stays queued; run it again to go on.'] : []),
    ].join('\n');
    return { json, text };
  },
};
