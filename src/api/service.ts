import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock.ts';
import { BrickWorkError, damagedStore, readOnlyStore, toErrorValue } from '../errors.ts';
import { DamageMark, isDamage } from '../store/damage.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { budgetStatus } from '../catalogue/budget.ts';
import { confirmImport, planImport, type ImportHooks, type PlannedDocument } from '../documents/import.ts';
import { FORMAT_NAMES, type DocumentFormat } from '../documents/model.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import { bricklinkXml } from '../exports/bricklink-xml.ts';
import { summaryCsv } from '../exports/summary.ts';
import { catalogueJobStatus, requestCatalogueJobCancel } from '../catalogue/catalogue-job.ts';
import { identityOf } from '../identity/owner.ts';
import { cancelJob, listJobs, type RecoveredJob } from '../jobs/queue.ts';
import { forgetMemory, placeByHand } from '../hand/placement.ts';
import { catalogueLookup } from '../placement/catalogue-lookup.ts';
import { relatedParts } from '../placement/related.ts';
import { placeItem, viaOf, type PlacementLookup } from '../placement/rule.ts';
import { reasonOf } from '../reasons.ts';
import { takeBack } from '../documents/take-back.ts';
import { documentsOfOrder, listDocuments, sameFileDocuments, type DocumentRow } from '../store/documents.ts';
import { getLine, orderLines, type LineView } from '../store/lines.ts';
import { colourInfo, listColours } from '../store/colours.ts';
import { catalogueItemName, translationCounts } from '../store/catalogue.ts';
import { colourMemories, itemMemories, taughtNames } from '../store/memories.ts';
import { getOrder, listOrders, orderSummary, type OrderSummary } from '../store/orders.ts';
import { catalogueGeneration, getSetting, setSetting } from '../store/settings.ts';
import type { UpgradeReport } from '../store/upgrade-runner.ts';
import { catalogueIndex, DEFAULT_SUGGESTION_LIMIT, suggestIn } from '../suggest/catalogue-index.ts';
import type { SuggestIndex } from '../suggest/index.ts';
import { nextRedo, nextUndo, redo, undo } from '../undo/history.ts';
import { APP_VERSION } from '../version.ts';
import type {
  ApiCalls,
  ApiEvents,
  CallName,
  DocumentView,
  ErrorValue,
  EventName,
  ExportFileView,
  LineRowView,
  OrderView,
  PreviewDocumentView,
  PreviewLineView,
  Result,
  SettingsView,
  StepView,
  SuggestionsView,
  SuggestionView,
} from './contract.ts';
import { PREVIEW_PAGE, STORE_DAMAGED } from './contract.ts';
import { checkArguments } from './validate.ts';
import { DEFAULT_ITEM_TYPE, type ItemType } from '../item-types.ts';

/** Starts the background work; the app and the browser host run it off their main thread. */
export interface JobControl {
  startCatalogueLoad(files: readonly { name: string; content: Uint8Array }[], type: ItemType): void;
  startLookup(limit: number | null, credentials: Credentials, apiUrl: string): number;
}

/** Where the BrickLink credentials live: encrypted by Electron's safeStorage in the app; in memory in the browser host. */
export interface CredentialStore {
  readonly encrypted: boolean;
  /** What to do when none are stored, in the words of this host (the app: its Settings; the CLI: its environment). */
  readonly whereToEnter?: string;
  get(): Credentials | null;
  set(credentials: Credentials): void;
}

/** The app's own file dialogs; the browser host has none (the page uploads and downloads). */
export interface FileDialogs {
  pick(purpose: 'document' | 'catalogue'): Promise<{ name: string; content: Uint8Array } | null>;
  save(name: string, content: string): Promise<string | null>;
}

export interface ServiceContext {
  readonly db: Database;
  readonly storePath: string;
  readonly schema: string;
  readonly clock: Clock;
  readonly upgrade: UpgradeReport | null;
  readonly recovered: readonly RecoveredJob[];
  readonly jobs: JobControl;
  readonly credentials: CredentialStore;
  readonly files: FileDialogs | null;
  /** Set when the store can't be written and was opened for reading (SPEC §11): why, and whether from a snapshot copy. */
  readonly readOnly?: { readonly reason: string; readonly snapshot: boolean; readonly damaged?: boolean } | null;
  emit<E extends EventName>(name: E, payload: ApiEvents[E]): void;
  /**
   * The app's service threads (SPEC §11): they run the calls `threadOf` does not put on the main thread.
   * Absent (the CLI, a test's service, a service thread's own): every call runs here.
   */
  readonly threads?: CallDispatcher | null;
  /** Where suggestions come from: null while the index is being built. Absent: this connection's index, built when first asked. */
  readonly suggestions?: { ready(): boolean; index(): SuggestIndex | null; why(): ErrorValue | null };
  /** Cancel of imports: `cancel` stops those under way (asked on the main thread); `cancelled` is asked by the one running. */
  readonly imports?: { cancel(): boolean; cancelled(): boolean };
  /** The process's mark of a store found damaged while open (SPEC §11); absent: this service's own. */
  readonly damage?: DamageMark;
}

/** Runs a call on the thread that owns it, and answers with its value; null: it runs on this thread. */
export interface CallDispatcher {
  dispatch(name: CallName, args: unknown): Promise<Result<unknown>> | null;
}

/** The calls that write to the store (or start a job that does): refused up front on a read-only store. */
export const WRITING_CALLS: ReadonlySet<CallName> = new Set<CallName>([
  'lines.place',
  'catalogue.load',
  'catalogue.cancel',
  'lookup.start',
  'jobs.cancel',
  'import.confirm',
  'documents.takeBack',
  'history.undo',
  'history.redo',
  'placements.forget',
  'settings.set',
]);

/** How many previews are kept for their pages: a screen shows one at a time; a second tab, maybe one more. */
const PREVIEWS_KEPT = 2;

/**
 * Which thread runs a call in the app and the browser host (SPEC §11: the thread that answers the screens
 * never writes, nor waits for the write lock): every writing call and the import preview run on the
 * writer thread, in turn; suggestions on the suggestion thread, which holds the index; the rest — reads,
 * which WAL lets run while another connection writes — on the main thread. `catalogue.load` only hands
 * its files to the job runner thread, which does the writing.
 */
export function threadOf(name: CallName): 'main' | 'writer' | 'suggest' {
  if (name === 'lines.suggest' || name === 'catalogue.search') return 'suggest';
  // A preview's pages come from the thread that made it, which keeps it.
  if (name === 'import.preview' || name === 'import.previewLines') return 'writer';
  if (WRITING_CALLS.has(name) && name !== 'catalogue.load') return 'writer';
  return 'main';
}

type Handlers = {
  [K in CallName]: (args: ApiCalls[K]['args']) => ApiCalls[K]['result'] | Promise<ApiCalls[K]['result']>;
};

const formatName = (format: string): string =>
  Object.hasOwn(FORMAT_NAMES, format) ? FORMAT_NAMES[format as DocumentFormat] : format;

/** `first`, then `then`, each item once, at most `limit`. */
function withoutRepeats(
  first: readonly SuggestionView[],
  then: readonly SuggestionView[],
  limit: number,
): SuggestionView[] {
  const seen = new Set(first.map((s) => `${s.type} ${s.no.toLowerCase()}`));
  return [...first, ...then.filter((s) => !seen.has(`${s.type} ${s.no.toLowerCase()}`))].slice(0, limit);
}

/** A step as the contract shows it (the history keeps more). */
const stepView = (s: StepView): StepView => ({ id: s.id, kind: s.kind, label: s.label });
const maybeStep = (s: StepView | null): StepView | null => (s === null ? null : stepView(s));

function orderView(o: OrderSummary): OrderView {
  return {
    id: o.id,
    reference: o.reference,
    counterparty: o.counterparty,
    currency: o.currency,
    orderDate: o.orderDate,
    documents: o.documents,
    lines: o.lines,
    placed: o.placed,
    unplaced: o.unplaced,
    totalQuantity: o.totalQuantity,
    totalValue: formatMoneyE4(o.totalValueE4),
    state: o.state,
    undoneAt: o.undoneAt,
  };
}

/** Documents as the screens show them, each imported one with the others still imported from its file. */
function documentViews(db: Database, rows: readonly DocumentRow[]): DocumentView[] {
  const sameFile = sameFileDocuments(
    db,
    rows.filter((d) => d.state === 'imported').map((d) => d.id),
  );
  return rows.map((d) => ({
    id: d.id,
    key: d.key,
    fileName: d.fileName,
    format: d.format,
    formatName: formatName(d.format),
    state: d.state,
    importedAt: d.importedAt,
    undoneAt: d.undoneAt,
    lines: d.lineCount,
    orderId: d.orderId,
    orderReference: d.orderReference,
    sameFile: sameFile.get(d.id) ?? [],
  }));
}

/** An order's name as part of a file name: without the characters file systems refuse, at most 80 characters. */
function fileNamePart(name: string): string {
  const safe = name
    .replace(/\.(bsx|xml|csv|txt|tsv)$/i, '')
    // eslint-disable-next-line no-control-regex -- control characters are among those refused
    .replace(/[\u0000-\u001f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .replace(/[. ]+$/, '');
  return safe === '' ? 'order' : safe;
}

/** A stored line as the contract shows it; `lookup` reads how another numbering placed it (`via`). */
function lineView(db: Database, l: LineView, lookup: PlacementLookup): LineRowView {
  return {
    id: l.id,
    documentKey: l.documentKey,
    position: l.position,
    given: l.given,
    quantity: l.quantity,
    unitPrice: l.unitPriceE4 === null ? null : formatMoneyE4(l.unitPriceE4),
    condition: l.condition,
    remarks: l.remarks,
    placed:
      l.placed === null
        ? null
        : {
            ...l.placed,
            // A colour the catalogue has no name for (no colours loaded yet) goes by the document's name for it.
            colourName:
              l.placed.colourName ??
              (l.placed.colour !== null && l.placed.colour === l.given.colourId ? l.given.colourName : null),
            via: l.placed.by === 'hand' ? null : viaOf({ ...l.given, remarks: l.remarks }, l.placed, lookup),
          },
    givenColour: l.givenColour,
    reason: l.reason,
    itemFound: l.reason?.code === 'colour-not-in-catalogue' ? itemFound(db, l, lookup) : null,
  };
}

/** The item the rule finds for a line unplaced only for its colour (SPEC §9), with its name. */
function itemFound(db: Database, l: LineView, lookup: PlacementLookup): LineRowView['itemFound'] {
  const p = placeItem({ ...l.given, remarks: l.remarks }, lookup);
  if (p.item !== null || p.found === undefined) return null;
  return { type: p.found.type, no: p.found.no, name: catalogueItemName(db, p.found.type, p.found.no) };
}

function swatchOf(db: Database, id: number | null): { colourName: string | null; colourRgb: string | null } {
  const c = id === null ? null : colourInfo(db, id);
  return { colourName: c?.name ?? null, colourRgb: c?.rgb ?? null };
}

function catalogueColour(db: Database, id: number): { name: string; rgb: string | null } | null {
  const c = colourInfo(db, id);
  return c === null ? null : { name: c.name, rgb: c.rgb };
}

/** A planned line as a preview shows it. */
function previewLineView(db: Database, l: PlannedDocument['lines'][number]): PreviewLineView {
  return {
    position: l.position,
    given: l.given,
    quantity: l.quantity,
    placed:
      l.placement.item === null
        ? null
        : {
            type: l.placement.item.type,
            no: l.placement.item.no,
            colour: l.placement.colourId,
            ...swatchOf(db, l.placement.colourId),
            via: 'via' in l.placement ? (l.placement.via ?? null) : null,
          },
    givenColour: l.given.colourId === null || l.given.colourId === 0 ? null : catalogueColour(db, l.given.colourId),
    reason: reasonOf(l.placement.reason),
    remarks: l.remarks,
  };
}

function previewView(db: Database, d: PlannedDocument): PreviewDocumentView {
  const t = d.target;
  return {
    key: d.parsed.key,
    format: d.parsed.format,
    formatName: formatName(d.parsed.format),
    header: {
      reference: d.parsed.header.reference,
      counterparty: d.parsed.header.counterparty,
      currency: d.parsed.header.currency,
      orderDate: d.parsed.header.orderDate,
    },
    target:
      t === null
        ? null
        : t.kind === 'new'
          ? { kind: 'new', reference: t.reference, currency: t.currency }
          : { kind: 'order', orderId: t.order.id, reference: t.order.reference, currency: t.order.currency },
    revival:
      d.revival === null
        ? null
        : {
            documentId: d.revival.document.id,
            importedAt: d.revival.document.importedAt,
            undoneAt: d.revival.document.undoneAt,
            pairs: d.revival.pairs,
          },
    lines: d.lines.slice(0, PREVIEW_PAGE).map((l) => previewLineView(db, l)),
    counts: d.counts,
    columns: { read: d.parsed.reading.read, notRead: d.parsed.reading.notRead },
    colourNumbering:
      d.colourNumbering === null ? null : { ...d.colourNumbering, choosable: d.colourNumbering.how !== 'format' },
    warnings: d.warnings,
    refusal: d.refusal,
    duplicateOf: d.duplicateOf === null ? null : (documentViews(db, [d.duplicateOf])[0] ?? null),
  };
}

/**
 * The contract's calls on the core: one handler per call (the typed command map), each argument set
 * checked before use, every refusal a value, and `store.changed` after every write.
 */
export function createApiService(ctx: ServiceContext) {
  const { db, clock } = ctx;
  const changed = (reason: string) => ctx.emit('store.changed', { reason });
  /** The last previews' planned documents, by preview id (their lines are asked page by page). */
  const previews = new Map<string, readonly PlannedDocument[]>();
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
        if (damage.note(e)) changed(STORE_DAMAGED);
        ownProblem = toErrorValue(e, ctx.storePath);
        return null;
      }
    },
    why: () => ownProblem,
  };
  /** Why the store can't be written: opened so (SPEC §11), or found damaged since; null when it can. */
  const unwritable = (): { reason: string; snapshot: boolean; damaged?: boolean } | null => {
    const found = damage.found();
    return found !== null ? { reason: found, snapshot: false, damaged: true } : (ctx.readOnly ?? null);
  };
  // Counting the items by source and the translation tables reads them whole (tens of ms): once per
  // catalogue generation, which every writer of the catalogue moves, not at every look at the screen.
  let countsSeen: {
    generation: number;
    items: number;
    sources: { source: string; items: number }[];
    translations: ReturnType<typeof translationCounts>;
  } | null = null;
  const catalogueCounts = () => {
    const generation = catalogueGeneration(db);
    if (countsSeen?.generation !== generation) {
      const sources = db
        .prepare('SELECT source, count(*) AS items FROM catalogue_item GROUP BY source ORDER BY items DESC')
        .all() as { source: string; items: number }[];
      const items = sources.reduce((n, s) => n + s.items, 0);
      countsSeen = { generation, items, sources, translations: translationCounts(db) };
    }
    return countsSeen;
  };
  const suggestionIndex = () => (suggestions.ready() ? suggestions.index() : null);
  /** No suggestions yet: being prepared, or, when the index could not be built, why. */
  const notReady = (): SuggestionsView => {
    const why = suggestions.why();
    return { ready: false, suggestions: [], ...(why === null ? {} : { why }) };
  };
  const partNumber = db.prepare("SELECT 1 FROM catalogue_item WHERE item_type = 'P' AND item_no = ?").pluck();
  const inCatalogue = (no: string) => partNumber.get(no.trim()) !== undefined;
  const relatedSuggestions = (no: string, limit: number): SuggestionView[] =>
    relatedParts(db, no, limit).map((r) => ({ ...r, rule: 'related' as const, matched: [], marks: [] }));
  /** An import's progress as events, a phase's at most every 50 ms, and its cancel. */
  const importHooks = (step: 'preview' | 'confirm', fileName: string): ImportHooks => {
    let last = { phase: '', done: -1, at: 0 };
    return {
      onProgress: (phase, done, total) => {
        const at = performance.now();
        if (phase === last.phase && (done === last.done || (at - last.at < 50 && done !== total))) return;
        last = { phase, done, at };
        ctx.emit('import.progress', { step, fileName, phase, done, total });
      },
      cancelled: () => ctx.imports?.cancelled() ?? false,
    };
  };
  const settingsView = (): SettingsView => ({
    dailyCallLimit: getSetting(db, 'daily-call-limit'),
    currency: getSetting(db, 'currency'),
    apiUrl: getSetting(db, 'api-url'),
    credentialsStored: ctx.credentials.get() !== null,
    credentialsEncrypted: ctx.credentials.encrypted,
  });
  const exported = async (name: string, content: string): Promise<ExportFileView> => ({
    name,
    content,
    savedTo: ctx.files ? await ctx.files.save(name, content) : null,
  });

  const handlers: Handlers = {
    'store.info': () => ({
      path: ctx.storePath,
      schema: ctx.schema,
      appVersion: APP_VERSION,
      upgrade: ctx.upgrade,
      recovered: ctx.recovered.map((r) => ({ id: r.id, kind: r.kind })),
      readOnly: unwritable(),
    }),
    'orders.list': ({ query }) => {
      const q = query?.trim().toLowerCase() ?? '';
      return listOrders(db)
        .filter(
          (o) => q === '' || o.reference.toLowerCase().includes(q) || (o.counterparty ?? '').toLowerCase().includes(q),
        )
        .map(orderView);
    },
    'orders.get': ({ orderId }) => {
      return {
        order: orderView(orderSummary(db, orderId)),
        documents: documentViews(db, documentsOfOrder(db, orderId)),
      };
    },
    'lines.list': ({ orderId, unplacedOnly }) => {
      const lookup = catalogueLookup(db);
      return orderLines(db, orderId, { unplacedOnly: unplacedOnly === true }).map((l) => lineView(db, l, lookup));
    },
    'lines.suggest': ({ lineId, limit }) => {
      const line = getLine(db, lineId);
      const index = suggestionIndex();
      if (index === null) return notReady();
      const n = limit ?? DEFAULT_SUGGESTION_LIMIT;
      // A number the catalogue lacks: the parts the tables relate to it lead (SPEC §7 `related`).
      const related = line.given.no !== null && !inCatalogue(line.given.no) ? relatedSuggestions(line.given.no, n) : [];
      return {
        ready: true,
        suggestions: withoutRepeats(related, suggestIn(index, { name: line.given.name, no: line.given.no }, n), n),
      };
    },
    'lines.place': ({ lineId, type, no, colourId, confirm }) => {
      const result = placeByHand(db, lineId, { type, no, colourId }, clock, confirm ?? []);
      changed('hand placement');
      return { ...result, step: stepView(result.step), line: lineView(db, result.line, catalogueLookup(db)) };
    },
    'catalogue.search': ({ query, limit, by }) => {
      const index = suggestionIndex();
      if (index === null) return notReady();
      const n = limit ?? DEFAULT_SUGGESTION_LIMIT;
      const found =
        by === 'name'
          ? index.byName(query, n)
          : by === 'number'
            ? index.byNumberPrefix(query, n)
            : index.search(query, n);
      // By number (a single word may be one), the parts the tables relate to it come first (SPEC §7).
      const related = by !== 'name' && /^\S+$/.test(query.trim()) ? relatedSuggestions(query, n) : [];
      return { ready: true, suggestions: withoutRepeats(related, found, n) };
    },
    'catalogue.status': () => {
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      const job = catalogueJobStatus(ctx.storePath);
      const detail = job.record?.detail as { files?: unknown } | null | undefined;
      const { items, sources, translations } = catalogueCounts();
      return {
        items,
        colours: count('colour'),
        categories: count('category'),
        sources,
        translations,
        job:
          job.record === null
            ? null
            : {
                state: job.record.state,
                kind: job.record.kind,
                owner: job.record.owner,
                alive: job.alive === true,
                progress: job.record.progress,
                error: job.record.error,
                files: Array.isArray(detail?.files)
                  ? detail.files.filter((f): f is string => typeof f === 'string')
                  : [],
                updatedAt: job.record.updatedAt,
              },
        jobProblem: job.problem,
        budget: budgetStatus(db, clock),
        suggestionsReady: suggestions.ready(),
        suggestionsProblem: suggestions.ready() ? null : suggestions.why(),
      };
    },
    'catalogue.colours': () => listColours(db),
    'catalogue.load': ({ files, type }) => {
      // Busy is decided by the catalogue job itself, in the runner; refuse early when plainly busy.
      const job = catalogueJobStatus(ctx.storePath);
      if (job.record?.state === 'running' && job.alive) {
        throw new BrickWorkError(
          'busy',
          `Busy: a catalogue is being loaded by another brick-work process (pid ${job.record.owner.pid}).`,
        );
      }
      ctx.jobs.startCatalogueLoad(files, type ?? DEFAULT_ITEM_TYPE);
      return { started: true };
    },
    'catalogue.cancel': () => ({ cancelled: requestCatalogueJobCancel(db, ctx.storePath, clock) }),
    'lookup.start': ({ limit }) => {
      const credentials = ctx.credentials.get();
      if (credentials === null) {
        throw new BrickWorkError(
          'no-credentials',
          `The look-up asks BrickLink with the shop’s API credentials, and none are stored yet: ${ctx.credentials.whereToEnter ?? 'enter them in Settings → BrickLink credentials first'}.`,
        );
      }
      const jobId = ctx.jobs.startLookup(limit ?? null, credentials, getSetting(db, 'api-url'));
      changed('look-up job');
      return { jobId };
    },
    'jobs.list': () => {
      const me = identityOf();
      const isMe = (o: { pid: number; bootId: string | null; startTicks: number | null } | null) =>
        o !== null && o.pid === me.pid && o.bootId === me.bootId && o.startTicks === me.startTicks;
      return listJobs(db).map((j) => ({
        id: j.id,
        kind: j.kind,
        state: j.state,
        progress: j.progress,
        error: j.error,
        notBeforeDay: j.notBeforeDay,
        owner: j.owner,
        alive: j.alive,
        ownedHere: isMe(j.owner),
        claimedAt: j.claimedAt,
        recoveries: j.recoveries,
        updatedAt: j.updatedAt,
      }));
    },
    'jobs.cancel': ({ jobId }) => {
      const { was } = cancelJob(db, jobId, { clock });
      changed('job cancelled');
      return { cancelled: jobId, was };
    },
    'import.preview': ({ file, orderId, asNew, acknowledge, colourNumbering }) => {
      const plan = planImport(
        db,
        { file, orderId: orderId ?? null, asNew: asNew === true, acknowledge, colourNumbering },
        importHooks('preview', file.name),
      );
      // Kept for its other lines (`import.previewLines`): the last few previews, on this thread.
      const previewId = randomUUID();
      previews.set(previewId, plan.documents);
      for (const old of previews.keys()) if (previews.size > PREVIEWS_KEPT) previews.delete(old);
      return {
        previewId,
        fileName: plan.fileName,
        documents: plan.documents.map((d) => previewView(db, d)),
        refusal: plan.refusal,
      };
    },
    'import.previewLines': ({ previewId, document, from, count }) => {
      const doc = previews.get(previewId)?.[document];
      if (doc === undefined) {
        throw new BrickWorkError(
          'not-found',
          'That preview is no longer kept: preview the file again to see its lines.',
        );
      }
      return doc.lines.slice(from, from + count).map((l) => previewLineView(db, l));
    },
    'import.confirm': ({ file, orderId, asNew, acknowledge, colourNumbering }) => {
      const results = confirmImport(
        db,
        { file, orderId: orderId ?? null, asNew: asNew === true, acknowledge, colourNumbering },
        clock,
        importHooks('confirm', file.name),
      );
      changed('import');
      return results;
    },
    'import.cancel': () => ({ cancelled: ctx.imports?.cancel() ?? false }),
    'documents.list': ({ orderId }) => {
      if (orderId !== undefined) getOrder(db, orderId); // an unknown order is refused, not an empty list
      return documentViews(db, listDocuments(db, orderId ?? null));
    },
    'documents.takeBack': ({ documentId, wholeFile }) => {
      const r = takeBack(db, documentId, { wholeFile: wholeFile === true }, clock);
      changed('take-back');
      return {
        step: stepView(r.step),
        takenBack: documentViews(db, r.documents),
        stillImported: r.stillImported,
      };
    },
    'history.state': () => ({ undo: maybeStep(nextUndo(db)), redo: maybeStep(nextRedo(db)) }),
    'history.undo': ({ expectedStep }) => {
      const step = undo(db, clock, expectedStep);
      changed('undo');
      return stepView(step);
    },
    'history.redo': ({ expectedStep }) => {
      const step = redo(db, clock, expectedStep);
      changed('redo');
      return stepView(step);
    },
    'placements.list': () => ({ items: itemMemories(db), colours: colourMemories(db), names: taughtNames(db) }),
    'placements.forget': ({ kind, id }) => {
      const step = forgetMemory(db, kind, id, clock);
      changed('forgot a placement');
      return { forgotten: id, step: stepView(step) };
    },
    'export.summary': () => exported('brick-work-summary.csv', summaryCsv(db)),
    'export.bricklink': ({ orderId }) => {
      const xml = bricklinkXml(db, orderId);
      return exported(`${fileNamePart(getOrder(db, orderId).reference)} – BrickLink.xml`, xml);
    },
    'settings.get': () => settingsView(),
    'settings.set': ({ key, value }) => {
      setSetting(db, key, value);
      changed('settings');
      return settingsView();
    },
    'settings.setCredentials': (credentials) => {
      const names: Record<string, string> = {
        consumerKey: 'consumer key',
        consumerSecret: 'consumer secret',
        token: 'token',
        tokenSecret: 'token secret',
      };
      const empty = Object.entries(credentials)
        .filter(([, v]) => v.trim() === '')
        .map(([k]) => names[k] ?? k);
      if (empty.length > 0) {
        throw new BrickWorkError(
          'invalid-argument',
          `Enter all four BrickLink API credentials: the ${empty.slice(0, -1).join(', the ')}${empty.length > 1 ? ' and the ' : ''}${empty.at(-1) ?? ''} ${empty.length === 1 ? 'is' : 'are'} empty. ` +
            'BrickLink shows them to the shop’s account on its API registration page (bricklink.com/v2/api/register_consumer.page).',
        );
      }
      ctx.credentials.set(credentials);
      return settingsView();
    },
    'file.pick': ({ purpose }) => (ctx.files ? ctx.files.pick(purpose) : null),
  };

  return {
    handlers,
    /** Checks the arguments, runs the call, and answers with a value: the result, or the refusal. */
    async call(name: unknown, args: unknown): Promise<Result<unknown>> {
      const problem = checkArguments(name, args);
      if (problem !== null)
        return { ok: false, error: { code: 'invalid-argument', message: `Not a valid request: ${problem}.` } };
      // Any other write that gets through meets the read-only connection, which says the same; a store
      // found damaged since it was opened is never written again by this process (SPEC §11).
      const refused = WRITING_CALLS.has(name as CallName) ? unwritable() : null;
      if (refused !== null) {
        const refusal = refused.damaged
          ? damagedStore(ctx.storePath, refused.reason)
          : readOnlyStore(ctx.storePath, refused.reason);
        return { ok: false, error: refusal.toValue() };
      }
      const checked = args === undefined ? {} : args;
      const elsewhere = ctx.threads?.dispatch(name as CallName, checked);
      if (elsewhere) return elsewhere;
      try {
        const handler = handlers[name as CallName] as (a: unknown) => unknown;
        return { ok: true, value: await handler(checked) };
      } catch (e) {
        // Met here or on another thread of this process: the screens learn that the store is now read-only.
        if (damage.note(e)) changed(STORE_DAMAGED);
        return { ok: false, error: toErrorValue(e, ctx.storePath) };
      }
    },
  };
}

export type ApiService = ReturnType<typeof createApiService>;
