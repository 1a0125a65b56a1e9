/**
 * The background work, built the one way for every runner of it (SPEC §1): the app's job runner thread
 * and the CLI, which runs it in its own process. A catalogue load with its summary, and the look-up
 * job's runner over BrickLink's API.
 */
import type { StoreDb } from '../store/db.ts';
import type { WriteSession } from '../store/session.ts';
import type { Clock } from '../platform/clock.ts';
import { BrickLinkApi, type ItemFetcher } from '../catalogue/bricklink/api.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import {
  catalogueLoadSummary,
  loadCatalogue,
  loadColoursFromSource,
  ordersTouched,
  type LoadOptions,
  type LoadResult,
} from '../catalogue/load.ts';
import {
  enqueueLookup,
  LOOKUP_JOB_KIND,
  lookupHandler,
  lookupHasWork,
  type LookupStats,
} from '../catalogue/lookup-job.ts';
import { Source } from '../catalogue/source.ts';
import type { JobOrderLines } from '../api/contract.ts';
import type { JobControl } from '../api/ports.ts';
import type { ErrorValue } from '../vocabulary/errors.ts';
import type { OwnerIdentity } from '../identity/owner.ts';
import { connectionOwner } from '../store/owners.ts';
import { catalogueHeld } from '../store/catalogue.ts';
import { JobRunner, type JobOutcome } from '../jobs/runner.ts';
import type { DamageMark } from '../store/damage.ts';
import { getSetting } from '../store/settings.ts';

/** A catalogue load as the screens and the CLI tell it: the result, its summary, the orders whose lines it moved. */
export interface CatalogueLoadDone {
  readonly result: LoadResult;
  readonly summary: string;
  readonly orders: readonly JobOrderLines[];
}

export type { LoadResult } from '../catalogue/load.ts';
export type { LookupStats } from '../catalogue/lookup-job.ts';
export type { JobOutcome };

/** Loads catalogue files (the catalogue job, SPEC §5; its owner this process unless `me` says) and says what it did. */
export async function runCatalogueLoad(
  session: WriteSession,
  storePath: string,
  files: readonly { name: string; content: Uint8Array }[],
  options: Omit<LoadOptions, 'me'> & { readonly me?: OwnerIdentity },
): Promise<CatalogueLoadDone> {
  const { db, desk } = session;
  const result = await loadCatalogue(db, storePath, files, { ...options, desk, me: options.me ?? connectionOwner(db) });
  // Said beside the rows read: what the catalogue holds now, the Catalogue card's counts (issue 64 §2).
  return { result, summary: catalogueLoadSummary(result, catalogueHeld(db)), orders: ordersTouched(result) };
}

/** BrickLink's API base URL: `BRICKLINK_API_URL` where the environment gives one (the CLI, SPEC §5), else the store's setting. */
export function apiUrlOf(db: StoreDb, env: Readonly<Record<string, string | undefined>> = {}): string {
  return env['BRICKLINK_API_URL'] || getSetting(db, 'api-url');
}

export interface LookupRunnerOptions {
  /** The connection it writes through, and the desk its claims name. */
  readonly session: WriteSession;
  readonly clock: Clock;
  readonly credentials: Credentials;
  readonly apiUrl: string;
  readonly me?: OwnerIdentity;
  readonly log: (line: string) => void;
  readonly stats?: LookupStats;
  readonly damage?: DamageMark;
  /** Told after each answer from BrickLink (the app refreshes its screens). */
  readonly onAnswer?: () => void;
}

/** The runner of look-up jobs (SPEC §5): BrickLink's API behind the budget-keeping Source. */
export function lookupRunner(o: LookupRunnerOptions): JobRunner {
  const { db } = o.session;
  const api = new BrickLinkApi(o.apiUrl, o.credentials);
  const fetcher: ItemFetcher = {
    fetchItem: async (type, no) => {
      const answer = await api.fetchItem(type, no);
      o.onAnswer?.();
      return answer;
    },
    fetchColours: () => api.fetchColours(),
  };
  return new JobRunner({
    session: o.session,
    clock: o.clock,
    ...(o.me ? { me: o.me } : {}),
    handlers: {
      [LOOKUP_JOB_KIND]: lookupHandler(new Source(db, o.clock, fetcher), {
        clock: o.clock,
        ...(o.stats ? { stats: o.stats } : {}),
      }),
    },
    ready: { [LOOKUP_JOB_KIND]: lookupHasWork },
    log: o.log,
    ...(o.damage ? { damage: o.damage } : {}),
  });
}

/**
 * `JobControl.startLookup`, the one way: another run of the look-up job is queued (its limit kept with
 * the job, so every runner keeps to it), then handed to `run` — a thread, or this process.
 */
export function lookupStarter(
  db: StoreDb,
  clock: Clock,
  run: (jobId: number, credentials: Credentials, apiUrl: string) => void,
): JobControl['startLookup'] {
  return (limit, credentials, apiUrl) => {
    const { id } = enqueueLookup(db, clock, { limit });
    run(id, credentials, apiUrl);
    return id;
  };
}

/** Loads the colours from BrickLink's API colour list (one call; `brick-work catalogue colours`) and says what it did. */
export async function loadColoursFromApi(
  session: WriteSession,
  storePath: string,
  options: { readonly clock: Clock; readonly credentials: Credentials; readonly apiUrl: string },
): Promise<{ result: Awaited<ReturnType<typeof loadColoursFromSource>>; summary: string }> {
  const { db, desk } = session;
  const source = new Source(db, options.clock, new BrickLinkApi(options.apiUrl, options.credentials));
  const result = await loadColoursFromSource(db, storePath, source, {
    me: connectionOwner(db),
    desk,
    clock: options.clock,
  });
  const summary = catalogueLoadSummary({
    items: 0,
    colours: result.colours,
    categories: 0,
    placed: result.placed,
    placedByOrder: result.placedByOrder,
    unplacedByOrder: result.unplacedByOrder,
    unplacedBefore: result.unplacedBefore,
    cancelled: false,
  }).replace(/^Loaded (\S+ colours?)/, 'Loaded $1 from BrickLink');
  return { result, summary };
}

/** Background work run in this process, as the CLI runs it, and how it ended. */
export type InProcessResult =
  | { readonly kind: 'catalogue-load'; readonly result: LoadResult; readonly summary: string }
  | {
      readonly kind: 'lookup';
      readonly jobId: number;
      readonly outcome: JobOutcome;
      readonly error: ErrorValue | null;
      readonly stats: LookupStats;
    };

/**
 * The CLI's profile of the job runner (SPEC §1): what the app hands to its runner thread runs in this
 * process instead, one piece per invocation; `pending()` is that piece (null until one is started).
 */
export function inProcessJobs(
  session: WriteSession,
  storePath: string,
  o: {
    readonly clock: Clock;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly log: (line: string) => void;
  },
): JobControl & { pending(): Promise<InProcessResult> | null } {
  const { db } = session;
  let pending: Promise<InProcessResult> | null = null;
  const keep = (p: Promise<InProcessResult>) => {
    pending = p;
    p.catch(() => undefined); // waited for by whoever asks `pending()`, which gives the refusal
  };
  return {
    startCatalogueLoad(files, type) {
      let reported = -1;
      keep(
        runCatalogueLoad(session, storePath, files, {
          type,
          clock: o.clock,
          onProgress: ({ done, total }) => {
            if (done !== reported) o.log(`catalogue ${done}/${total ?? '?'} rows`);
            reported = done;
          },
        }).then((done) => ({ kind: 'catalogue-load', result: done.result, summary: done.summary }) as const),
      );
    },
    startLookup: lookupStarter(db, o.clock, (jobId, credentials) => {
      const stats: LookupStats = { calls: 0, found: 0, notFound: 0, left: 0 };
      const runner = lookupRunner({
        session,
        clock: o.clock,
        credentials,
        apiUrl: apiUrlOf(db, o.env),
        stats,
        log: o.log,
      });
      keep(
        runner
          .runJob(jobId)
          .then((r) => ({ kind: 'lookup', jobId, outcome: r.outcome, error: r.error, stats }) as const),
      );
    }),
    pending: () => pending,
  };
}
