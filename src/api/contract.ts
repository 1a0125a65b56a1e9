/**
 * The one contract between the screens and the core (SPEC §1): every call the renderer can make, with
 * its arguments and result, and every event it can receive. The Electron IPC adapter and the browser
 * host both serve exactly this; the preload object is checked against `BrickWorkApi` with `satisfies`.
 *
 * Self-contained on purpose: the renderer imports these types, and nothing of the core comes with them.
 * Calls that take a file take `{name, content}`: the renderer never names a path.
 */

export type ItemTypeCode = 'P' | 'S' | 'M' | 'B' | 'G' | 'C' | 'I' | 'O';

export interface ErrorValue {
  readonly code: string;
  readonly message: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorValue };

export interface FileArg {
  readonly name: string;
  readonly content: Uint8Array;
}

export interface OrderView {
  readonly id: number;
  readonly reference: string;
  readonly counterparty: string | null;
  readonly currency: string;
  readonly orderDate: string | null;
  readonly documents: number;
  readonly lines: number;
  readonly placed: number;
  readonly unplaced: number;
  readonly totalQuantity: number;
  readonly totalValue: string;
}

export interface DocumentView {
  readonly id: number;
  readonly key: string;
  readonly fileName: string;
  readonly format: string;
  readonly state: 'imported' | 'undone';
  readonly importedAt: string;
  readonly undoneAt: string | null;
  readonly lines: number;
}

export interface GivenView {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
}

export interface LineRowView {
  readonly id: number;
  readonly documentKey: string;
  readonly position: number;
  readonly given: GivenView;
  readonly quantity: number;
  readonly unitPrice: string | null;
  readonly condition: 'N' | 'U' | null;
  readonly remarks: string | null;
  readonly placed: { readonly type: string; readonly no: string; readonly colour: number | null; readonly by: string; readonly name: string | null } | null;
  readonly reason: string | null;
}

export interface SuggestionView {
  readonly type: ItemTypeCode;
  readonly no: string;
  readonly name: string;
  readonly rule: 'prefix' | 'words' | 'number';
}

export interface PreviewLineView {
  readonly position: number;
  readonly given: GivenView;
  readonly quantity: number;
  readonly placed: { readonly type: string; readonly no: string; readonly colour: number | null } | null;
  readonly reason: string | null;
}

export interface PreviewDocumentView {
  readonly key: string;
  readonly format: string;
  readonly header: {
    readonly reference: string | null;
    readonly counterparty: string | null;
    readonly currency: string | null;
    readonly orderDate: string | null;
  };
  readonly target:
    | { readonly kind: 'new'; readonly reference: string; readonly currency: string }
    | { readonly kind: 'order'; readonly orderId: number; readonly reference: string; readonly currency: string }
    | null;
  /** Set when importing this key revives an undone document. */
  readonly revival: {
    readonly documentId: number;
    readonly importedAt: string;
    readonly undoneAt: string | null;
    readonly pairs: readonly { readonly position: number; readonly lineId: number; readonly changed: readonly string[] }[];
  } | null;
  readonly lines: readonly PreviewLineView[];
  readonly counts: { readonly total: number; readonly placed: number; readonly unplaced: number };
  readonly refusal: ErrorValue | null;
}

export interface ImportPreviewView {
  readonly fileName: string;
  readonly documents: readonly PreviewDocumentView[];
  readonly refusal: ErrorValue | null;
}

export interface ImportResultView {
  readonly document: { readonly id: number; readonly key: string; readonly state: 'imported' };
  readonly order: { readonly id: number; readonly reference: string; readonly currency: string };
  readonly lines: { readonly total: number; readonly placed: number; readonly unplaced: number };
  readonly revived: boolean;
}

export interface StepView {
  readonly id: number;
  readonly kind: string;
  readonly label: string;
}

export interface OwnerView {
  readonly pid: number;
  readonly bootId: string | null;
  readonly startTicks: number | null;
}

export interface JobRowView {
  readonly id: number;
  readonly kind: string;
  readonly state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  readonly progress: { readonly done: number; readonly total: number | null };
  readonly error: string | null;
  readonly notBeforeDay: string | null;
  readonly owner: OwnerView | null;
  readonly alive: boolean | null;
  readonly recoveries: number;
  readonly updatedAt: string;
}

export interface CatalogueJobView {
  readonly state: 'running' | 'done' | 'failed' | 'cancelled';
  readonly kind: string;
  readonly owner: OwnerView;
  readonly alive: boolean;
  readonly progress: { readonly done: number; readonly total: number | null };
  readonly error: string | null;
  readonly files: readonly string[];
  readonly updatedAt: string;
}

export interface BudgetView {
  readonly day: string;
  readonly used: number;
  readonly limit: number;
  readonly left: number;
}

export interface CatalogueStatusView {
  readonly items: number;
  readonly colours: number;
  readonly categories: number;
  readonly sources: readonly { readonly source: string; readonly items: number }[];
  readonly job: CatalogueJobView | null;
  /** Why catalogue-job.json could not be read, when it could not. */
  readonly jobProblem: string | null;
  readonly budget: BudgetView;
}

export interface RememberedPlacementView {
  readonly id: number;
  readonly given: { readonly type: string; readonly no: string | null; readonly name: string | null };
  readonly item: { readonly type: string; readonly no: string; readonly name: string | null };
  readonly colourId: number | null;
  readonly createdAt: string;
}

export interface SettingsView {
  readonly dailyCallLimit: string;
  readonly currency: string;
  readonly apiUrl: string;
  /** Whether BrickLink credentials are stored (they are never sent to the screen). */
  readonly credentialsStored: boolean;
  /** Whether this host can keep credentials encrypted (Electron's safeStorage). */
  readonly credentialsEncrypted: boolean;
}

export interface ExportFileView {
  readonly name: string;
  readonly content: string;
  /** Where the app saved it (after the save dialog); null where the page downloads it itself, or staff cancelled. */
  readonly savedTo: string | null;
}

export interface StoreView {
  readonly path: string | null;
  readonly schema: string;
  readonly appVersion: string;
  /** Set when this start upgraded the store, with where the backup is. */
  readonly upgrade: { readonly from: string; readonly to: string; readonly backup: string } | null;
  /** Jobs put back in the queue at this start because their owner had died. */
  readonly recovered: readonly { readonly id: number; readonly kind: string }[];
}

/** Every call: its arguments and its result. */
export interface ApiCalls {
  'store.info': { args: Record<string, never>; result: StoreView };
  'orders.list': { args: { query?: string }; result: readonly OrderView[] };
  'orders.get': { args: { orderId: number }; result: { order: OrderView; documents: readonly DocumentView[] } };
  'lines.list': { args: { orderId: number; unplacedOnly?: boolean }; result: readonly LineRowView[] };
  'lines.suggest': { args: { lineId: number; limit?: number }; result: readonly SuggestionView[] };
  'lines.place': { args: { lineId: number; type: string; no: string; colourId: number | null }; result: LineRowView };
  'catalogue.search': { args: { query: string; limit?: number }; result: readonly SuggestionView[] };
  'catalogue.status': { args: Record<string, never>; result: CatalogueStatusView };
  'catalogue.load': { args: { files: readonly FileArg[]; type?: ItemTypeCode }; result: { started: true } };
  'catalogue.cancel': { args: Record<string, never>; result: { cancelled: boolean } };
  'lookup.start': { args: { limit?: number | null }; result: { jobId: number } };
  'jobs.list': { args: Record<string, never>; result: readonly JobRowView[] };
  'jobs.cancel': { args: { jobId: number }; result: { cancelled: number } };
  'import.preview': { args: { file: FileArg; orderId?: number | null; asNew?: boolean }; result: ImportPreviewView };
  'import.confirm': { args: { file: FileArg; orderId?: number | null; asNew?: boolean }; result: readonly ImportResultView[] };
  'history.state': { args: Record<string, never>; result: { undo: StepView | null; redo: StepView | null } };
  'history.undo': { args: Record<string, never>; result: StepView };
  'history.redo': { args: Record<string, never>; result: StepView };
  'placements.list': { args: Record<string, never>; result: readonly RememberedPlacementView[] };
  'placements.forget': { args: { id: number }; result: { forgotten: number } };
  'export.summary': { args: Record<string, never>; result: ExportFileView };
  'export.bricklink': { args: { orderId: number }; result: ExportFileView };
  'settings.get': { args: Record<string, never>; result: SettingsView };
  'settings.set': { args: { key: 'daily-call-limit' | 'currency' | 'api-url'; value: string }; result: SettingsView };
  'settings.setCredentials': {
    args: { consumerKey: string; consumerSecret: string; token: string; tokenSecret: string };
    result: SettingsView;
  };
  /** Opens the app's file dialog and reads the chosen file; null where there is none (the browser host) or staff cancelled. */
  'file.pick': { args: { purpose: 'document' | 'catalogue' }; result: FileArg | null };
}

export type CallName = keyof ApiCalls;
export type ArgsOf<K extends CallName> = ApiCalls[K]['args'];
export type ResultOf<K extends CallName> = ApiCalls[K]['result'];

/** Every event the renderer can receive. */
export interface ApiEvents {
  /** The store changed (this process or another): views should refresh. */
  'store.changed': { readonly reason: string };
  /** A job or the catalogue job moved on. */
  'job.progress': { readonly kind: string; readonly done: number; readonly total: number | null; readonly state: string };
  /** Undo or Redo chosen from the app's menu (or its shortcut). */
  'menu.command': { readonly command: 'undo' | 'redo' | 'import' | 'search' };
}

export type EventName = keyof ApiEvents;

/** What `window.brickWork` is, in the app (preload) and in the browser host (its HTTP client). */
export interface BrickWorkApi {
  call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<Result<ResultOf<K>>>;
  /** Listens to every event; returns the function that stops listening. */
  onEvent(listener: <E extends EventName>(name: E, payload: ApiEvents[E]) => void): () => void;
}

export const CALL_NAMES: readonly CallName[] = [
  'store.info',
  'orders.list',
  'orders.get',
  'lines.list',
  'lines.suggest',
  'lines.place',
  'catalogue.search',
  'catalogue.status',
  'catalogue.load',
  'catalogue.cancel',
  'lookup.start',
  'jobs.list',
  'jobs.cancel',
  'import.preview',
  'import.confirm',
  'history.state',
  'history.undo',
  'history.redo',
  'placements.list',
  'placements.forget',
  'export.summary',
  'export.bricklink',
  'settings.get',
  'settings.set',
  'settings.setCredentials',
  'file.pick',
];
