/**
 * What the contract's service needs from whoever starts it (SPEC §1): the store, the clock, the job
 * runner, the credentials, the file dialogs, the events, the threads. The app, the browser host, the CLI
 * and each service thread give their own.
 */
import type { StoreDb } from '../store/db.ts';
import type { Clock } from '../platform/clock.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import type { FetchedStock } from '../stock/lookup.ts';
import type { RecoveredJob } from '../jobs/queue.ts';
import type { DamageMark } from '../store/damage.ts';
import type { PicturePort } from '../pictures/port.ts';
import type { UpgradeReport } from '../store/upgrade-runner.ts';
import type { SuggestIndex } from '../suggest/index.ts';
import type { ApiEvents, CallName, ErrorValue, EventName, Result } from './contract.ts';

/** Starts the background work; the app and the browser host run it off their main thread. */
export interface JobControl {
  /** `type`: the kind of item in BrickLink items downloads, as chosen; null where each file's name says. */
  startCatalogueLoad(files: readonly { name: string; content: Uint8Array }[], type: ItemType | null): void;
  startLookup(limit: number | null, credentials: Credentials, apiUrl: string): number;
  /**
   * The shop's store inventory from BrickLink's API (`stock.lookup`), off the writer thread: the job
   * runner thread counts the call and sends it. Absent (the CLI, a test's service): in this process.
   */
  fetchStoreInventory?(credentials: Credentials, apiUrl: string): Promise<FetchedStock>;
}

/** Where the BrickLink credentials live: encrypted by Electron's safeStorage in the app; in memory in the browser host. */
export interface CredentialStore {
  readonly encrypted: boolean;
  /** What to do when none are stored, in the words of this host (the app: its Settings; the CLI: its environment). */
  readonly whereToEnter?: string;
  get(): Credentials | null;
  set(credentials: Credentials): void;
}

/** A shop server a desk opens its store on (SPEC §14): where, and as whom. */
export interface ShopServerConfig {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password: string;
}

/**
 * Where this desk keeps its "Shop server" choice (Settings): with its password, as it keeps the
 * BrickLink credentials — encrypted by the operating system in the app, in memory in the browser host.
 */
export interface ShopServerPort {
  readonly encrypted: boolean;
  get(): ShopServerConfig | null;
  set(config: ShopServerConfig): void;
  clear(): void;
}

/**
 * Where this desk keeps its name (Settings → This desk, SPEC §8): beside the app's other choices of this
 * computer, never in the store (a shop server's store is every desk's). Null: the computer's name.
 */
export interface DeskNamePort {
  get(): string | null;
  set(name: string | null): void;
}

/** The app's own file dialogs; the browser host has none (the page uploads and downloads). */
export interface FileDialogs {
  pick(purpose: 'document' | 'catalogue'): Promise<{ name: string; content: Uint8Array } | null>;
  save(name: string, content: string): Promise<string | null>;
}

/**
 * The app's own printing (SPEC §16): a page made by the core printed through the system's print dialog,
 * never through the screens' page. The browser host and the CLI have none (the page prints it there).
 */
export interface PrintPort {
  /** Prints `html` (self-contained) on this paper; answers once the dialog is done: printed, or cancelled. */
  print(html: string, layout: PrintPaper): Promise<'printed' | 'cancelled'>;
}

export interface PrintPaper {
  readonly paper: 'a4' | 'letter';
  readonly orientation: 'portrait' | 'landscape';
}

export interface ServiceContext {
  readonly db: StoreDb;
  readonly storePath: string;
  readonly schema: string;
  readonly clock: Clock;
  readonly upgrade: UpgradeReport | null;
  readonly recovered: readonly RecoveredJob[];
  readonly jobs: JobControl;
  readonly credentials: CredentialStore;
  readonly files: FileDialogs | null;
  /** The app's own printing; absent or null (the browser host, the CLI): a page to print is given back to the page. */
  readonly printer?: PrintPort | null;
  /** The desk's "Shop server" choice; absent where there is none to make (the CLI: `--db`). */
  readonly shopServer?: ShopServerPort | null;
  /** This desk's name (SPEC §8: the steps it writes are its own to undo); absent: the computer's name. */
  readonly desk?: string;
  /** Where the desk's name is kept, so Settings can change it; absent where it is given at the start (`--desk`). */
  readonly deskName?: DeskNamePort | null;
  /** Set when the store can't be written and was opened for reading (SPEC §11): why, and whether from a snapshot copy. */
  readonly readOnly?: { readonly reason: string; readonly snapshot: boolean; readonly damaged?: boolean } | null;
  emit<E extends EventName>(name: E, payload: ApiEvents[E]): void;
  /**
   * Who holds the store's writes, in words, where the store can know (issue 61 §3: a desk's catalogue
   * load, a server session's desk): a `store-busy` refusal names it. Absent: the refusal says "another".
   */
  readonly storeHolder?: () => string | null;
  /**
   * The app's service threads (SPEC §11): they run the calls `threadOf` does not put on the main thread.
   * Absent (the CLI, a test's service, a service thread's own): every call runs here.
   */
  readonly threads?: (CallDispatcher & { tellDesk?(desk: string): void }) | null;
  /** Where suggestions come from: null while the index is being built. Absent: this connection's index, built when first asked. */
  readonly suggestions?: { ready(): boolean; index(): SuggestIndex | null; why(): ErrorValue | null };
  /** Cancel of imports: `cancel` stops those under way (asked on the main thread); `cancelled` is asked by the one running. */
  readonly imports?: { cancel(): boolean; cancelled(): boolean };
  /** The process's mark of a store found damaged while open (SPEC §11); absent: this service's own. */
  readonly damage?: DamageMark;
  /** The numbering items are shown in first, for this service only (the CLI's `--numbering`); absent: the store's setting. */
  readonly numbering?: 'bricklink' | 'rebrickable';
  /** BrickLink's API base URL where the host overrides the store's `api-url` (the CLI's BRICKLINK_API_URL); absent: the setting. */
  readonly apiUrl?: string;
  /** Pictures of items (SPEC §15): the app's and the browser host's; absent (the CLI), every picture is none. */
  readonly pictures?: PicturePort | null;
}

/** Runs a call on the thread that owns it, and answers with its value; null: it runs on this thread. */
export interface CallDispatcher {
  dispatch(name: CallName, args: unknown): Promise<Result<unknown>> | null;
}
