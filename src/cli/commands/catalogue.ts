import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_CLOCK } from '../../clock.ts';
import { BrickWorkError } from '../../errors.ts';
import { identityOf } from '../../identity/owner.ts';
import { JobRunner } from '../../jobs/runner.ts';
import { BrickLinkApi } from '../../catalogue/bricklink/api.ts';
import { credentialsFromEnv } from '../../catalogue/bricklink/oauth.ts';
import { budgetStatus } from '../../catalogue/budget.ts';
import { DEFAULT_ITEM_TYPE, isItemType, ITEM_TYPES } from '../../item-types.ts';
import { catalogueLoadSummary, loadCatalogue, loadColoursFromSource } from '../../catalogue/load.ts';
import { enqueueLookup, LOOKUP_JOB_KIND, lookupHandler, type LookupStats } from '../../catalogue/lookup-job.ts';
import { Source } from '../../catalogue/source.ts';
import { getSetting } from '../../store/settings.ts';
import { UsageError, type Command, type OptionValues } from '../command.ts';

function positiveInt(options: OptionValues, name: string): number | null {
  const raw = options[name];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw new UsageError(`--${name} takes a whole number, not "${String(raw)}"`);
  return Number(raw);
}

export const catalogueImport: Command = {
  name: ['catalogue', 'import'],
  synopsis: 'FILE… [--type T]',
  summary: 'load catalogue files (BrickLink downloads; Rebrickable parts, part_categories, sets; .gz too)',
  options: { type: { type: 'string' } },
  args: { min: 1, max: 100 },
  run(ctx, files, options) {
    const type = typeof options['type'] === 'string' ? options['type'].toUpperCase() : DEFAULT_ITEM_TYPE;
    if (!isItemType(type))
      throw new UsageError(`--type is one of ${Object.keys(ITEM_TYPES).join(', ')}, not "${String(options['type'])}"`);
    const contents = files.map((f) => {
      try {
        return { name: path.basename(f), content: fs.readFileSync(f) };
      } catch (e) {
        throw new BrickWorkError(
          'not-found',
          `${f} can't be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
        );
      }
    });
    return ctx.withStore('write', async (store) => {
      let reported = -1;
      const result = await loadCatalogue(store.db, store.path ?? '', contents, {
        type,
        me: identityOf(),
        clock: SYSTEM_CLOCK,
        onProgress: ({ done, total }) => {
          if (done !== reported) ctx.io.stderr(`brick-work: catalogue ${done}/${total ?? '?'} rows\n`);
          reported = done;
        },
      });
      if (result.warning) ctx.io.stderr(`brick-work: ${result.warning}\n`);
      const text = [
        ...result.files.map((f) => `${f.name}: ${f.format}, ${f.rows} rows`),
        catalogueLoadSummary(result),
      ].join('\n');
      return { json: result, text };
    });
  },
};

/** The BrickLink source for the CLI: credentials from the environment, the base URL from BRICKLINK_API_URL or the setting. */
function cliSource(env: NodeJS.ProcessEnv, db: Parameters<typeof getSetting>[0]): Source {
  const { credentials, missing } = credentialsFromEnv(env);
  if (credentials === null) {
    throw new BrickWorkError('no-credentials', `The BrickLink credentials are missing: set ${missing.join(', ')}.`);
  }
  const baseUrl = env['BRICKLINK_API_URL'] || getSetting(db, 'api-url');
  return new Source(db, SYSTEM_CLOCK, new BrickLinkApi(baseUrl, credentials));
}

export const catalogueColours: Command = {
  name: ['catalogue', 'colours'],
  synopsis: '',
  summary: "load the colours from the BrickLink API's colour list (one call; BRICKLINK_* credentials)",
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('write', async (store) => {
      const result = await loadColoursFromSource(store.db, store.path ?? '', cliSource(ctx.io.env, store.db), {
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
      if (result.warning) ctx.io.stderr(`brick-work: ${result.warning}\n`);
      return {
        json: { colours: result.colours, placed: result.placed },
        text: `Loaded ${result.colours} colours from BrickLink; ${result.placed} unplaced lines are now placed.`,
      };
    });
  },
};

export const catalogueLookup: Command = {
  name: ['catalogue', 'lookup'],
  synopsis: '[--limit N]',
  summary: 'ask BrickLink for the numbers unplaced lines name and the catalogue lacks (BRICKLINK_* credentials)',
  options: { limit: { type: 'string' } },
  args: { min: 0, max: 0 },
  run(ctx, _args, options) {
    const limit = positiveInt(options, 'limit');
    return ctx.withStore('write', async (store) => {
      const source = cliSource(ctx.io.env, store.db);
      const stats: LookupStats = { calls: 0, found: 0, notFound: 0, left: 0 };
      const runner = new JobRunner({
        db: store.db,
        handlers: { [LOOKUP_JOB_KIND]: lookupHandler(source, { clock: SYSTEM_CLOCK, stats }) },
        log: (line) => ctx.io.stderr(`brick-work: ${line}\n`),
      });
      // Another run: its limit (or none) is kept with the job, so the app's runner keeps to it too.
      const { id } = enqueueLookup(store.db, SYSTEM_CLOCK, { limit });
      const result = await runner.runJob(id);
      const budget = budgetStatus(store.db, SYSTEM_CLOCK);
      if (result.error?.code === 'budget-exhausted')
        throw new BrickWorkError(
          'budget-exhausted',
          `${result.error.message}. The look-up job waits in the queue for the next UTC day; ${stats.left} numbers are still to ask.`,
        );
      if (result.outcome === 'failed' && result.error)
        throw new BrickWorkError(result.error.code, result.error.message);
      const json = { job: id, outcome: result.outcome, ...stats, budget };
      const text = [
        `Asked BrickLink ${stats.calls} times: ${stats.found} found, ${stats.notFound} not found; ${stats.left} numbers still to ask.`,
        `Today's budget: ${budget.used} of ${budget.limit} calls used, ${budget.left} left.`,
        ...(result.outcome === 'deferred' ? ['The job stays queued; run it again to go on.'] : []),
      ].join('\n');
      return { json, text };
    });
  },
};
