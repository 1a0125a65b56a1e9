import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock.ts';
import { BrickWorkError, readOnlyStore, toErrorValue } from '../errors.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { budgetStatus } from '../catalogue/budget.ts';
import { confirmImport, planImport, type PlannedDocument } from '../documents/import.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import { bricklinkXml } from '../exports/bricklink-xml.ts';
import { summaryCsv } from '../exports/summary.ts';
import { catalogueJobStatus, requestCatalogueJobCancel } from '../jobs/catalogue-job.ts';
import { cancelJob, listJobs, type RecoveredJob } from '../jobs/queue.ts';
import { forgetMemory, placeByHand } from '../placement/hand.ts';
import { reasonOf } from '../placement/reasons.ts';
import { documentsOfOrder } from '../store/documents.ts';
import { getLine, orderLines, type LineView } from '../store/lines.ts';
import { colourMemories, colourName, itemMemories } from '../store/memories.ts';
import { listOrders, orderSummary, type OrderSummary } from '../store/orders.ts';
import { getSetting, setSetting } from '../store/settings.ts';
import type { UpgradeReport } from '../store/upgrade-runner.ts';
import { catalogueIndex, suggestFor } from '../suggest/catalogue-index.ts';
import { nextRedo, nextUndo, redo, undo } from '../undo/history.ts';
import { APP_VERSION } from '../version.ts';
import type { ApiCalls, ApiEvents, CallName, EventName, ExportFileView, LineRowView, OrderView, PreviewDocumentView, Result, SettingsView } from './contract.ts';
import { checkArguments } from './validate.ts';

/** Starts the background work; the app and the browser host run it off their main thread. */
export interface JobControl {
  startCatalogueLoad(files: readonly { name: string; content: Uint8Array }[], type: string): void;
  startLookup(limit: number | null, credentials: Credentials, apiUrl: string): number;
}

/** Where the BrickLink credentials live: encrypted by Electron's safeStorage in the app; in memory in the browser host. */
export interface CredentialStore {
  readonly encrypted: boolean;
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
  readonly readOnly?: { readonly reason: string; readonly snapshot: boolean } | null;
  emit<E extends EventName>(name: E, payload: ApiEvents[E]): void;
}

/** The calls that write to the store (or start a job that does): refused up front on a read-only store. */
const WRITING_CALLS: ReadonlySet<CallName> = new Set<CallName>([
  'lines.place',
  'catalogue.load',
  'catalogue.cancel',
  'lookup.start',
  'jobs.cancel',
  'import.confirm',
  'history.undo',
  'history.redo',
  'placements.forget',
  'settings.set',
]);

type Handlers = { [K in CallName]: (args: ApiCalls[K]['args']) => ApiCalls[K]['result'] | Promise<ApiCalls[K]['result']> };

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
  };
}

function lineView(l: LineView): LineRowView {
  return {
    id: l.id,
    documentKey: l.documentKey,
    position: l.position,
    given: l.given,
    quantity: l.quantity,
    unitPrice: l.unitPriceE4 === null ? null : formatMoneyE4(l.unitPriceE4),
    condition: l.condition,
    remarks: l.remarks,
    placed: l.placed,
    reason: l.reason,
  };
}

function previewView(db: Database, d: PlannedDocument): PreviewDocumentView {
  const t = d.target;
  return {
    key: d.parsed.key,
    format: d.parsed.format,
    header: { reference: d.parsed.header.reference, counterparty: d.parsed.header.counterparty, currency: d.parsed.header.currency, orderDate: d.parsed.header.orderDate },
    target:
      t === null
        ? null
        : t.kind === 'new'
          ? { kind: 'new', reference: t.reference, currency: t.currency }
          : { kind: 'order', orderId: t.order.id, reference: t.order.reference, currency: t.order.currency },
    revival:
      d.revival === null
        ? null
        : { documentId: d.revival.document.id, importedAt: d.revival.document.importedAt, undoneAt: d.revival.document.undoneAt, pairs: d.revival.pairs },
    lines: d.lines.map((l) => ({
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
              colourName: l.placement.colourId === null ? null : colourName(db, l.placement.colourId),
            },
      reason: reasonOf(l.placement.reason),
    })),
    counts: d.counts,
    refusal: d.refusal,
  };
}

/**
 * The contract's calls on the core: one handler per call (the typed command map), each argument set
 * checked before use, every refusal a value, and `store.changed` after every write.
 */
export function createApiService(ctx: ServiceContext) {
  const { db, clock } = ctx;
  const changed = (reason: string) => ctx.emit('store.changed', { reason });
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
      readOnly: ctx.readOnly ?? null,
    }),
    'orders.list': ({ query }) => {
      const q = query?.trim().toLowerCase() ?? '';
      return listOrders(db)
        .filter((o) => q === '' || o.reference.toLowerCase().includes(q) || (o.counterparty ?? '').toLowerCase().includes(q))
        .map(orderView);
    },
    'orders.get': ({ orderId }) => {
      return {
        order: orderView(orderSummary(db, orderId)),
        documents: documentsOfOrder(db, orderId).map((d) => ({
          id: d.id,
          key: d.key,
          fileName: d.fileName,
          format: d.format,
          state: d.state,
          importedAt: d.importedAt,
          undoneAt: d.undoneAt,
          lines: d.lineCount,
        })),
      };
    },
    'lines.list': ({ orderId, unplacedOnly }) => orderLines(db, orderId, { unplacedOnly: unplacedOnly === true }).map(lineView),
    'lines.suggest': ({ lineId, limit }) => {
      const line = getLine(db, lineId);
      return suggestFor(db, { name: line.given.name, no: line.given.no }, limit ?? 20);
    },
    'lines.place': ({ lineId, type, no, colourId }) => {
      const result = placeByHand(db, lineId, { type, no, colourId }, clock);
      changed('hand placement');
      return { ...result, line: lineView(result.line) };
    },
    'catalogue.search': ({ query, limit }) => catalogueIndex(db).search(query, limit ?? 20),
    'catalogue.status': () => {
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      const job = catalogueJobStatus(ctx.storePath);
      const detail = job.record?.detail as { files?: unknown } | null | undefined;
      return {
        items: count('catalogue_item'),
        colours: count('colour'),
        categories: count('category'),
        sources: db
          .prepare('SELECT source, count(*) AS items FROM catalogue_item GROUP BY source ORDER BY items DESC')
          .all() as { source: string; items: number }[],
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
                files: Array.isArray(detail?.files) ? detail.files.filter((f): f is string => typeof f === 'string') : [],
                updatedAt: job.record.updatedAt,
              },
        jobProblem: job.problem,
        budget: budgetStatus(db, clock),
      };
    },
    'catalogue.colours': () => db.prepare('SELECT id, name FROM colour ORDER BY name COLLATE NOCASE, id').all() as { id: number; name: string }[],
    'catalogue.load': ({ files, type }) => {
      // Busy is decided by the catalogue job itself, in the runner; refuse early when plainly busy.
      const job = catalogueJobStatus(ctx.storePath);
      if (job.record?.state === 'running' && job.alive) {
        throw new BrickWorkError('busy', `Busy: a catalogue is being loaded by another brick-work process (pid ${job.record.owner.pid}).`);
      }
      ctx.jobs.startCatalogueLoad(files, type ?? 'P');
      return { started: true };
    },
    'catalogue.cancel': () => ({ cancelled: requestCatalogueJobCancel(db, ctx.storePath, clock) }),
    'lookup.start': ({ limit }) => {
      const credentials = ctx.credentials.get();
      if (credentials === null) throw new BrickWorkError('no-credentials', 'Enter the BrickLink credentials in Settings first.');
      const jobId = ctx.jobs.startLookup(limit ?? null, credentials, getSetting(db, 'api-url'));
      changed('look-up job');
      return { jobId };
    },
    'jobs.list': () =>
      listJobs(db).map((j) => ({
        id: j.id,
        kind: j.kind,
        state: j.state,
        progress: j.progress,
        error: j.error,
        notBeforeDay: j.notBeforeDay,
        owner: j.owner,
        alive: j.alive,
        recoveries: j.recoveries,
        updatedAt: j.updatedAt,
      })),
    'jobs.cancel': ({ jobId }) => {
      cancelJob(db, jobId, { clock });
      changed('job cancelled');
      return { cancelled: jobId };
    },
    'import.preview': ({ file, orderId, asNew }) => {
      const plan = planImport(db, { file, orderId: orderId ?? null, asNew: asNew === true });
      return { fileName: plan.fileName, documents: plan.documents.map((d) => previewView(db, d)), refusal: plan.refusal };
    },
    'import.confirm': ({ file, orderId, asNew }) => {
      const results = confirmImport(db, { file, orderId: orderId ?? null, asNew: asNew === true }, clock);
      changed('import');
      return results;
    },
    'history.state': () => ({ undo: nextUndo(db), redo: nextRedo(db) }),
    'history.undo': ({ expectedStep }) => {
      const step = undo(db, clock, expectedStep);
      changed('undo');
      return step;
    },
    'history.redo': ({ expectedStep }) => {
      const step = redo(db, clock, expectedStep);
      changed('redo');
      return step;
    },
    'placements.list': () => ({ items: itemMemories(db), colours: colourMemories(db) }),
    'placements.forget': ({ kind, id }) => {
      const step = forgetMemory(db, kind, id, clock);
      changed('forgot a placement');
      return { forgotten: id, step };
    },
    'export.summary': () => exported('brick-work-summary.csv', summaryCsv(db)),
    'export.bricklink': ({ orderId }) => exported(`order-${orderId}-bricklink.xml`, bricklinkXml(db, orderId)),
    'settings.get': () => settingsView(),
    'settings.set': ({ key, value }) => {
      setSetting(db, key, value);
      changed('settings');
      return settingsView();
    },
    'settings.setCredentials': (credentials) => {
      for (const [k, v] of Object.entries(credentials)) if (v.trim() === '') throw new BrickWorkError('invalid-argument', `The BrickLink ${k} is empty.`);
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
      if (problem !== null) return { ok: false, error: { code: 'invalid-argument', message: `Not a valid request: ${problem}.` } };
      // Any other write that gets through meets the read-only connection, which says the same.
      if (ctx.readOnly && WRITING_CALLS.has(name as CallName)) {
        return { ok: false, error: readOnlyStore(ctx.storePath, ctx.readOnly.reason).toValue() };
      }
      try {
        const handler = handlers[name as CallName] as (a: unknown) => unknown;
        return { ok: true, value: await handler(args === undefined ? {} : args) };
      } catch (e) {
        return { ok: false, error: toErrorValue(e, ctx.storePath) };
      }
    },
  };
}

export type ApiService = ReturnType<typeof createApiService>;
