/**
 * How a call's handler is registered (issue 27): beside the handler stand its traits — whether it
 * writes (refused up front on a store that can't be written) and which thread of the app runs it — so
 * that `WRITING_CALLS` and `threadOf` are read from the handlers, never kept as separate lists.
 * (Actual Budget's `mutator(undoable(handler))`, per domain.)
 */
import type { CatalogueAnswers } from '../../placement/catalogue-lookup.ts';
import type { ReadableDb, StoreDb } from '../../store/db.ts';
import type { WriteSession } from '../../store/session.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Numbering, NumberedLine, ShownNumber } from '../../catalogue/item-numbers.ts';
import type { CompareResult } from '../../compare/compare.ts';
import type { ImportHooks, PlannedDocument } from '../../documents/import.ts';
import type { translationCounts } from '../../store/catalogue.ts';
import type { SuggestIndex } from '../../suggest/index.ts';
import type {
  ApiCalls,
  CallName,
  ErrorValue,
  ExportFileView,
  SettingsView,
  SuggestionsView,
  SuggestionView,
} from '../contract.ts';
import type { ServiceContext } from '../ports.ts';

/**
 * Where a call runs in the app and the browser host (SPEC §11): the screens' thread, the writer, the reader
 * (a file read and planned: an import's preview, a compare), the suggestion thread.
 */
export type Thread = 'main' | 'writer' | 'reader' | 'suggest';

export type Handler<K extends CallName> = (
  args: ApiCalls[K]['args'],
) => ApiCalls[K]['result'] | Promise<ApiCalls[K]['result']>;

/** A compare's result, kept on the thread that made it for its pages and its exports. */
export interface KeptCompare {
  readonly result: CompareResult;
  /** The sides' labels ("order Falcon", "file arrived.csv"): the exports' file names are made from them. */
  readonly left: string;
  readonly right: string;
}

/** One call as registered: its traits, and how its handler is made from the service's parts. */
export interface Entry<K extends CallName> {
  readonly writes: boolean;
  readonly thread: Thread;
  /**
   * Its answer is a file for staff made on another thread (a kept compare's export): the screens' thread
   * offers it through the app's save dialog, which only it has.
   */
  readonly savesFile?: boolean;
  /**
   * It reads the desk's BrickLink credentials: where it runs on another thread, the screens' thread reads
   * them from the keychain again first, so a Try again after the keychain refused can succeed.
   */
  readonly readsCredentials?: boolean;
  readonly make: (d: ServiceDeps) => Handler<K>;
}

export type CallTable = { readonly [K in CallName]: Entry<K> };
export type PartialCallTable = { readonly [K in CallName]?: Entry<K> };

/** What the handlers share, built once per service (`createApiService`). */
export interface ServiceDeps {
  readonly db: StoreDb;
  /** The connection a write goes through with the desk whose steps, marks and claims it writes (SPEC §8). */
  readonly session: WriteSession;
  /** This desk's name, as the steps it writes record it (Undo and Redo find its steps by it). */
  desk(): string;
  /** Staff renamed this desk (Settings → This desk): the next steps written here and on the app's threads are the new name's. */
  renameDesk(desk: string): void;
  readonly clock: Clock;
  readonly ctx: ServiceContext;
  /** Tells the screens the store changed (`store.changed`), after a write. */
  changed(reason: string): void;
  /** Why the store can't be written now — opened so, or found damaged since — or null. */
  unwritable(): { reason: string; snapshot: boolean; damaged?: boolean } | null;
  readonly suggestions: { ready(): boolean; index(): SuggestIndex | null; why(): ErrorValue | null };
  /** The suggestion index when it is ready; null while it is built, or when it can't be. */
  suggestionIndex(): SuggestIndex | null;
  /** No suggestions yet: being prepared, or why not. */
  notReady(): SuggestionsView;
  /** Whether the catalogue has this part number. */
  inCatalogue(no: string): boolean;
  /** The parts the tables relate to a number (SPEC §7 `related`). */
  relatedSuggestions(no: string, limit: number): SuggestionView[];
  /** An import's progress as events, and its cancel. */
  importHooks(step: 'preview' | 'confirm', fileName: string): ImportHooks;
  /** The last previews' planned documents, by preview id (their lines are asked page by page). */
  readonly previews: Map<string, readonly PlannedDocument[]>;
  /** The last compares' results, by compare id (their rows are asked page by page, their difference exported). */
  readonly compares: Map<string, KeptCompare>;
  /** A compare's progress reading one side, as events. */
  compareHooks(side: 'left' | 'right'): ImportHooks;
  settingsView(): SettingsView;
  /**
   * How the screens name these lines' (or items') numbers: the shop numbering first (SPEC §5 "An item's
   * numbers"), by the rule the exports write them by (`lineNumber`), with the other items a number names.
   */
  numberShower(lines: readonly NumberedLine[]): (line: NumberedLine) => ShownNumber;
  /**
   * The catalogue's answers to the placement rule's questions, kept while the catalogue's generation
   * holds: for a lookup that reads a list of lines (`catalogueLookup`'s snapshot).
   */
  catalogueAnswers(): CatalogueAnswers;
  /** Items' names (by `itemKey`) the screens were shown, kept while the catalogue's generation holds. */
  catalogueNames(): Map<string, string | null>;
  /** The numbering the shop sells in (the `numbering` setting, or the CLI's choice). */
  shopNumbering(): Numbering;
  /** A file made for staff: saved through the app's dialog, or given back to the page. */
  exported(name: string, content: string): Promise<ExportFileView>;
  /** The catalogue's counts, read again only when the catalogue has moved. */
  catalogueCounts(): {
    items: number;
    sources: { source: string; items: number }[];
    translations: ReturnType<typeof translationCounts>;
  };
}

/** The service's context as a call that does not write holds it: no store to write, no jobs to start, no threads. */
export type ReadContext = Omit<ServiceContext, 'db' | 'jobs' | 'threads'>;

/**
 * What a call that does not write is made from: the same parts, its store only to read (Signal's
 * `ReadableDB`), so that a write reached from it fails to compile — and, at run time, a connection the
 * engine keeps from writing (`store/reader.ts`), with no writer's session, jobs or threads in it at all.
 */
export type ReadDeps = Omit<ServiceDeps, 'db' | 'ctx' | 'session'> & {
  readonly db: ReadableDb;
  readonly ctx: ReadContext;
};

/**
 * `entry`'s handler, made from the writer's parts when it writes, else from the reader's. (A registration
 * that does not write was typed for `ReadDeps` by its trait; `Entry` keeps one signature for the table.)
 */
export function makeHandler<K extends CallName>(entry: Entry<K>, writer: ServiceDeps, reader: ReadDeps): Handler<K> {
  return entry.writes ? entry.make(writer) : (entry.make as unknown as (d: ReadDeps) => Handler<K>)(reader);
}

/** The registration of a call with these traits: one that writes is given the store to write. */
function trait(writes: true, thread: Thread): <K extends CallName>(make: (d: ServiceDeps) => Handler<K>) => Entry<K>;
function trait(writes: false, thread: Thread): <K extends CallName>(make: (d: ReadDeps) => Handler<K>) => Entry<K>;
function trait(writes: boolean, thread: Thread) {
  return <K extends CallName>(make: (d: ServiceDeps) => Handler<K>): Entry<K> => ({ writes, thread, make });
}

/** A call that only reads: it runs on the screens' thread (WAL lets it read while another connection writes). */
export const reads = trait(false, 'main');
/** A call that writes: on the writer thread, in turn, and refused up front on a store that can't be written. */
export const writes = trait(true, 'writer');
/** A call that starts background work that writes (the job runner thread does): refused like a write, answered here. */
export const startsWork = trait(true, 'main');
/**
 * A read of a file staff give (an import's preview, a compare): long, and kept on its thread for its pages.
 * Never on the writer (issue 62): what a file costs to read holds up no write.
 */
export const onReader = trait(false, 'reader');
/** A file made on the reader thread from what is kept there, saved through the app's dialog by the screens' thread. */
export const fileOnReader = <K extends CallName>(make: (d: ReadDeps) => Handler<K>): Entry<K> => ({
  ...onReader(make),
  savesFile: true,
});
/** The same registration, for a call that reads the desk's BrickLink credentials. */
export const withCredentials = <K extends CallName>(entry: Entry<K>): Entry<K> => ({
  ...entry,
  readsCredentials: true,
});
/** A read from the suggestion index, on the thread that holds it. */
export const suggests = trait(false, 'suggest');
/** A call that writes nothing to the store, on the screens' thread (the credentials' own keeping; the app's file dialog). */
export const outsideStore = trait(false, 'main');
