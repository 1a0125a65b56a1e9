import { SETTING_FIELDS, type SettingKey } from '../vocabulary/setting-keys.ts';
/**
 * The contract's service (SPEC §1): one handler per call, registered by domain with its traits
 * (`handlers/`), each argument set checked before use (`validate.ts`), every refusal a value, and
 * `store.changed` after every write. The app, the browser host, the CLI and each service thread make one
 * over their own store connection and ports (`ports.ts`).
 */
import { thisComputer } from '../identity/desk.ts';
import { readerBeside } from '../store/reader.ts';
import { writeSession } from '../store/session.ts';
import { credentialsRefusal, readCredentials, type CredentialsRead } from './credentials.ts';
import { numberShower, numbersMemo, type Numbering } from '../catalogue/item-numbers.ts';
import { catalogueAnswers } from '../placement/catalogue-lookup.ts';
import { damagedStore, readOnlyStore, storeBusy, type ErrorValue } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import { relatedParts } from '../placement/related.ts';
import { itemsBySource, partNumbers, translationCounts } from '../store/catalogue.ts';
import { DamageMark, isDamage } from '../store/damage.ts';
import { allSettings, catalogueGeneration, getSetting } from '../store/settings.ts';
import { catalogueIndex } from '../suggest/catalogue-index.ts';
import type { PlannedDocument } from '../documents/import.ts';
import {
  STORE_DAMAGED,
  type ArgsOf,
  type CallName,
  type ExportFileView,
  type Result,
  type ResultOf,
  type SuggestionsView,
} from './contract.ts';
import { CALL_TABLE, readsCredentials, WRITING_CALLS } from './handlers/index.ts';
import { makeHandler, type Handler, type KeptCompare, type ReadDeps, type ServiceDeps } from './handlers/define.ts';
import type { ServiceContext } from './ports.ts';
import { checkArguments } from './validate.ts';

export type { ServiceContext } from './ports.ts';

type Handlers = { [K in CallName]: Handler<K> };

/** The contract's calls on the core, over `ctx`'s store and ports. */
export function createApiService(ctx: ServiceContext) {
  const { writer: deps, reader } = handlerDeps(ctx);
  const handlers = Object.fromEntries(
    (Object.keys(CALL_TABLE) as CallName[]).map((name) => [name, makeHandler(CALL_TABLE[name], deps, reader)]),
  ) as Handlers;
  const { damage } = deps;

  /**
   * Checks the arguments, runs the call, and answers with a value: the result, or the refusal. Typed for
   * callers in the core (the CLI, the app's menu); untyped for what arrives from outside (IPC, HTTP).
   */
  function call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<Result<ResultOf<K>>>;
  function call(name: unknown, args: unknown): Promise<Result<unknown>>;
  async function call(name: unknown, args: unknown): Promise<Result<unknown>> {
    const problem = checkArguments(name, args);
    if (problem !== null)
      return { ok: false, error: { code: 'invalid-argument', message: `Not a valid request: ${problem}.` } };
    // Any other write that gets through meets the read-only connection, which says the same; a store
    // found damaged since it was opened is never written again by this process (SPEC §11).
    const refused = WRITING_CALLS.has(name as CallName) ? deps.unwritable() : null;
    if (refused !== null) {
      const refusal = refused.damaged
        ? damagedStore(ctx.storePath, refused.reason)
        : readOnlyStore(ctx.storePath, refused.reason);
      return { ok: false, error: refusal.toValue() };
    }
    const checked = args === undefined ? {} : args;
    // Refused for what it is at once, before it queues for the writer thread or waits for the store's lock.
    const noCredentials = readsCredentials(name as CallName) ? credentialsRefusal(ctx.credentials) : null;
    if (noCredentials !== null) return { ok: false, error: noCredentials.toValue() };
    const elsewhere = ctx.threads?.dispatch(name as CallName, checked);
    if (elsewhere) return CALL_TABLE[name as CallName].savesFile === true ? offerToSave(await elsewhere) : elsewhere;
    try {
      const handler = handlers[name as CallName] as (a: unknown) => unknown;
      return { ok: true, value: await handler(checked) };
    } catch (e) {
      // Met here or on another thread of this process: the screens learn that the store is now read-only.
      damage.note(e);
      if (damage.firstToTell()) deps.changed(STORE_DAMAGED);
      return { ok: false, error: named(toErrorValue(e, ctx.storePath)) };
    }
  }

  /** A `store-busy` refusal, naming who holds the store where it can know (issue 61 §3). */
  function named(error: ErrorValue): ErrorValue {
    if (error.code !== 'store-busy' || ctx.storeHolder === undefined || !error.message.startsWith('Another '))
      return error;
    const who = ctx.storeHolder();
    return who === null ? error : storeBusy(ctx.storePath, who).toValue();
  }

  /** A file made on another thread, offered through the app's save dialog (which only this thread has). */
  async function offerToSave(answer: Result<unknown>): Promise<Result<unknown>> {
    if (!answer.ok || !ctx.files) return answer;
    const file = answer.value as ExportFileView;
    return { ok: true, value: { ...file, savedTo: await ctx.files.save(file.name, file.content) } };
  }

  /** This desk was renamed (a service thread told so): the next steps written here are the new name's. */
  const renameDesk = (desk: string) => {
    deps.session.desk = desk;
  };

  return { handlers, call, renameDesk };
}

export type ApiService = ReturnType<typeof createApiService>;

type Progress = (phase: 'reading' | 'placing' | 'writing', done: number, total: number | null) => void;

/** Progress passed on at most every 50 ms per phase, and always at a phase's end. */
function throttled(report: Progress): Progress {
  let last = { phase: '', done: -1, at: 0 };
  return (phase, done, total) => {
    const at = performance.now();
    if (phase === last.phase && (done === last.done || (at - last.at < 50 && done !== total))) return;
    last = { phase, done, at };
    report(phase, done, total);
  };
}

/**
 * What the calls that write are made from, and what those that only read are: the same parts, but for
 * them a connection that can't write in place of the writer's (opened at the first read, once for the
 * service: `store/reader.ts`), and a context without the jobs and the threads (issue 66 §2).
 */
export function handlerDeps(ctx: ServiceContext): {
  readonly writer: ServiceDeps & { readonly damage: DamageMark };
  readonly reader: ReadDeps;
} {
  const writer = serviceDeps(ctx);
  const { db: _db, ctx: _ctx, session: _session, ...shared } = writer;
  const { db: _ctxDb, jobs: _jobs, threads: _threads, ...readContext } = ctx;
  const connection = readerBeside(ctx.db);
  const reader: ReadDeps = {
    ...shared,
    ctx: readContext,
    get db() {
      return connection();
    },
  };
  return { writer, reader };
}

/** What the handlers share, made once per service. */
function serviceDeps(ctx: ServiceContext): ServiceDeps & { readonly damage: DamageMark } {
  const { db, clock } = ctx;
  // The steps written through this connection are this desk's (SPEC §8), made once for the service.
  const session = writeSession(db, ctx.desk ?? thisComputer());
  const changed = (reason: string) => ctx.emit('store.changed', { reason });
  const damage = ctx.damage ?? new DamageMark();
  /** This connection's own index (the CLI, a read-only store): built when first asked; a damaged catalogue says why there is none. */
  let ownProblem: ErrorValue | null = null;
  const suggestions = ctx.suggestions ?? {
    ready: () => ownProblem === null,
    index: () => {
      try {
        return catalogueIndex(db);
      } catch (e) {
        if (!isDamage(e)) throw e;
        damage.note(e);
        if (damage.firstToTell()) changed(STORE_DAMAGED);
        ownProblem = toErrorValue(e, ctx.storePath);
        return null;
      }
    },
    why: () => ownProblem,
  };
  // Counting the items by source and the translation tables reads them whole (tens of ms): once per
  // catalogue generation, which every writer of the catalogue moves, not at every look at the screen.
  let countsSeen: (ReturnType<ServiceDeps['catalogueCounts']> & { generation: number }) | null = null;
  // What the catalogue alone answers (items' numbers and names, the placement rule's questions), kept for its generation.
  let answersFor: {
    generation: number;
    answers: ReturnType<typeof catalogueAnswers>;
    numbers: ReturnType<typeof numbersMemo>;
    names: Map<string, string | null>;
  } | null = null;
  const kept = () => {
    const generation = catalogueGeneration(db);
    if (answersFor?.generation !== generation)
      answersFor = { generation, answers: catalogueAnswers(), numbers: numbersMemo(), names: new Map() };
    return answersFor;
  };
  const inCatalogue = partNumbers(db);
  const shopNumbering = () => ctx.numbering ?? (getSetting(db, 'numbering') as Numbering);
  return {
    db,
    session,
    desk: () => session.desk,
    renameDesk: (desk) => {
      session.desk = desk;
      ctx.threads?.tellDesk?.(desk);
    },
    clock,
    ctx,
    damage,
    changed,
    unwritable: () => {
      const found = damage.found();
      return found !== null ? { reason: found, snapshot: false, damaged: true } : (ctx.readOnly ?? null);
    },
    suggestions,
    suggestionIndex: () => (suggestions.ready() ? suggestions.index() : null),
    notReady: (): SuggestionsView => {
      const why = suggestions.why();
      return { ready: false, suggestions: [], ...(why === null ? {} : { why }) };
    },
    inCatalogue,
    relatedSuggestions: (no, limit) =>
      relatedParts(db, no, limit).map((r) => ({ ...r, rule: 'related' as const, matched: [], marks: [] })),
    // An import's progress as events, a phase's at most every 50 ms, and its cancel.
    importHooks: (step, fileName) => ({
      onProgress: throttled((phase, done, total) =>
        ctx.emit('import.progress', { step, fileName, phase, done, total }),
      ),
      cancelled: () => ctx.imports?.cancelled() ?? false,
    }),
    previews: new Map<string, readonly PlannedDocument[]>(),
    compares: new Map<string, KeptCompare>(),
    // A file side is read and placed as a preview is; it writes nothing, so it has nothing to cancel.
    compareHooks: (side) => ({
      onProgress: throttled((phase, done, total) => {
        if (phase !== 'writing') ctx.emit('compare.progress', { side, phase, done, total });
      }),
      cancelled: () => false,
    }),
    settingsView: () => ({
      ...(Object.fromEntries(Object.entries(allSettings(db)).map(([k, v]) => [SETTING_FIELDS[k as SettingKey], v])) as {
        [K in SettingKey as (typeof SETTING_FIELDS)[K]]: string;
      }),
      ...credentialsView(readCredentials(ctx.credentials)),
      credentialsEncrypted: ctx.credentials.encrypted,
    }),
    numberShower: (lines) => numberShower(db, lines, shopNumbering(), kept().numbers),
    catalogueAnswers: () => kept().answers,
    catalogueNames: () => kept().names,
    shopNumbering: () => shopNumbering(),
    exported: async (name, content) => ({
      name,
      content,
      savedTo: ctx.files ? await ctx.files.save(name, content) : null,
    }),
    catalogueCounts: () => {
      const generation = catalogueGeneration(db);
      if (countsSeen?.generation !== generation) {
        const sources = itemsBySource(db);
        const items = sources.reduce((n, s) => n + s.items, 0);
        countsSeen = { generation, items, sources, translations: translationCounts(db) };
      }
      return countsSeen;
    },
  };
}

function credentialsView(read: CredentialsRead): { credentialsStored: boolean; credentialsRefused: string | null } {
  return { credentialsStored: read.credentials !== null || read.refused !== null, credentialsRefused: read.refused };
}
