import type { StoreDb } from '../store/db.ts';
import type { Clock } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import type { OwnerIdentity } from '../identity/owner.ts';
import type { ProcView } from '../identity/proc.ts';
import { CatalogueJob } from './catalogue-job.ts';
import type { JobProgress } from '../jobs/types.ts';
import { foldName } from '../placement/fold.ts';
import { askToPlaceAgain, linesWaiting, placeNextBatch, placingAgain } from '../placement/place-lines.ts';
import type { PlacingScope } from '../store/line-placements.ts';
import { reasonOf } from '../vocabulary/reasons.ts';
import { analyzeCatalogue, catalogueWriters, type CatalogueHeld } from '../store/catalogue.ts';
import { openStage, swapTransaction, type CatalogueStage } from '../store/catalogue-stage.ts';
import { bumpCatalogueGeneration } from '../store/settings.ts';
import {
  hasColours,
  hasColourTable,
  placedLinesByOrder,
  unplacedLinesByOrder,
  unplacedSavedLines,
} from '../store/catalogue-load.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import { readCatalogue, type NamedContent } from './read-file.ts';
import { ReaderStopped, type ReaderThread, type StreamMessage } from './read-stream.ts';
import type { CatalogueFile, CatalogueRecord, TranslationRecord } from './records.ts';
import type { Source } from './source.ts';

export interface LoadOptions {
  /** The kind of item in BrickLink items downloads, as chosen; null: each file's name says (SPEC §5). */
  readonly type: ItemType | null;
  readonly me: OwnerIdentity;
  /** The desk loading, as the catalogue job's words name it; absent: this computer's name. */
  readonly desk?: string;
  readonly clock: Clock;
  readonly proc?: ProcView;
  readonly onProgress?: (progress: JobProgress) => void;
  /** Rows between progress reports (and chances to cancel). */
  readonly progressEvery?: number;
  /** A thread that reads a file while this one writes it (`read-stream.ts`); without it, files are read here first. */
  readonly reader?: ReaderThread;
  /** How long a transaction of lines placed again may hold the write lock (`PLACE_AGAIN_SLICE_MS`). */
  readonly placeAgainSliceMs?: number;
}

export interface LoadResult {
  readonly items: number;
  readonly colours: number;
  readonly categories: number;
  /** Rows of the translation tables read (SPEC §5): element ids, part numbers, colour translations, relationships. */
  readonly translations: TranslationTally;
  readonly files: readonly { name: string; format: string; rows: number }[];
  /** Saved lines that were unplaced and are placed now. */
  readonly placed: number;
  /** …by order. */
  readonly placedByOrder: readonly { readonly orderId: number; readonly reference: string; readonly placed: number }[];
  /** Saved lines that were placed and are unplaced now (a catalogue's first colours can do that: SPEC §5), by order and why. */
  readonly unplacedByOrder: readonly UnplacedByOrder[];
  /** Unplaced saved lines before the load. */
  readonly unplacedBefore: number;
  readonly cancelled: boolean;
  /** catalogue-job.json could not be read when the job started (it was treated as no job). */
  readonly warning: string | null;
}

/** Rows of each translation table a load read. */
export interface TranslationTally {
  readonly elements: number;
  readonly partNumbers: number;
  readonly colourTranslations: number;
  readonly relationships: number;
}

export interface UnplacedByOrder {
  readonly orderId: number;
  readonly reference: string;
  readonly unplaced: number;
  readonly reasons: readonly { readonly code: string; readonly text: string; readonly count: number }[];
}

const NO_TRANSLATIONS: TranslationTally = { elements: 0, partNumbers: 0, colourTranslations: 0, relationships: 0 };

/** Which tally a record counts in. */
const TALLY_OF = {
  element: 'elements',
  'part-number': 'partNumbers',
  'colour-translation': 'colourTranslations',
  relationship: 'relationships',
} as const satisfies Record<TranslationRecord['kind'], keyof TranslationTally>;

/**
 * After a merge, in its transaction (a file's swap): the unplaced lines are asked to be placed again, and
 * when these are the catalogue's first colours (or its first colour table), the lines placed with their
 * colour unchecked (or in another numbering) too. They are placed after it commits (`placeAfterMerge`).
 */
function askAfterMerge(db: StoreDb, had: { colours: boolean; colourTable: boolean }): void {
  const scope: PlacingScope[] = ['unplaced'];
  if (!had.colours && hasColours(db)) scope.push('coloured');
  else if (!had.colourTable && hasColourTable(db)) scope.push('other-numbering');
  askToPlaceAgain(db, scope);
}

/**
 * How long one transaction of lines placed again may hold the write lock: batches go on in it until then.
 * Short enough that another desk's small write waits a fraction of a second; long enough that a server
 * store flushes a commit every few batches, not every one.
 */
export const PLACE_AGAIN_SLICE_MS = 250;

/**
 * The lines a merge asked to be placed again, batches to a transaction of at most `sliceMs` (BEGIN
 * IMMEDIATE, as the merge's): other desks' and processes' writes pass between transactions, and each
 * batch records how far it got, so a process that dies meanwhile leaves the rest waiting for the next
 * load or the job's recovery (issue 45).
 */
async function placeAfterMerge(
  db: StoreDb,
  onLines?: (done: number, total: number) => void,
  sliceMs: number = PLACE_AGAIN_SLICE_MS,
): Promise<LinesChanged> {
  const total = linesWaiting(db);
  const run = placingAgain();
  onLines?.(0, total);
  for (let more = true; more;) {
    more = db
      .transaction(() => {
        const began = performance.now();
        let placed = placeNextBatch(db, run);
        while (placed && performance.now() - began < sliceMs) placed = placeNextBatch(db, run);
        return placed;
      })
      .immediate();
    onLines?.(Math.min(run.tally.lines, total), total);
    // The thread's other work (a cancel asked, a progress event) between transactions.
    await new Promise((r) => setImmediate(r));
  }
  return { placed: run.tally.placedIds, unplaced: run.tally.unplaced.map((l) => l.id) };
}

/** The saved lines a load placed (unplaced before), and those placed before it that it unplaced. */
interface LinesChanged {
  readonly placed: readonly number[];
  readonly unplaced: readonly number[];
}

/**
 * What a load did to the saved lines (of imported documents), by order: those it placed, and those
 * placed before it that it unplaced, with why. A line one file of the load placed and a later one
 * unplaced (a load of parts and colours together) was unplaced before and is now: it counts in neither.
 */
function linesByOrder(
  db: StoreDb,
  changed: LinesChanged,
): Pick<LoadResult, 'placed' | 'placedByOrder' | 'unplacedByOrder'> {
  const placed = new Set(changed.placed);
  const unplaced = new Set(changed.unplaced);
  const only = (ids: Set<number>, not: Set<number>) => [...ids].filter((id) => !not.has(id));
  const placedByOrder = placedLinesByOrder(db, only(placed, unplaced));
  const rows = unplacedLinesByOrder(db, only(unplaced, placed));
  const out = new Map<
    number,
    { orderId: number; reference: string; unplaced: number; reasons: UnplacedByOrder['reasons'][number][] }
  >();
  for (const r of rows) {
    let o = out.get(r.orderId);
    if (o === undefined)
      out.set(r.orderId, (o = { orderId: r.orderId, reference: r.reference, unplaced: 0, reasons: [] }));
    o.unplaced += r.n;
    o.reasons.push({ code: reasonOf(r.reason)?.code ?? 'other', text: r.reason, count: r.n });
  }
  return {
    placed: placedByOrder.reduce((n, o) => n + o.placed, 0),
    placedByOrder,
    unplacedByOrder: [...out.values()],
  };
}

/**
 * What a load did, in staff's words: what it loaded, and what it did to saved lines — placed (by order),
 * unplaced (by reason and order), or, when it changed none, that the lines waiting stay as they were.
 * Nothing about lines when there are none.
 */
export function catalogueLoadSummary(
  r: Pick<LoadResult, 'items' | 'colours' | 'categories' | 'placed' | 'placedByOrder' | 'cancelled'> & {
    readonly translations?: TranslationTally;
    readonly unplacedByOrder?: readonly UnplacedByOrder[];
    readonly unplacedBefore?: number;
  },
  /**
   * What the catalogue holds after it (`catalogueHeld`): where a kind's rows read are not what it holds
   * now (a file's rows repeat an id, or name one the catalogue had), both are said, each with its
   * meaning, and the second is the Catalogue card's count (issue 64 §2).
   */
  held?: CatalogueHeld,
): string {
  const t = r.translations ?? NO_TRANSLATIONS;
  const n = (x: number) => x.toLocaleString('en-US');
  const inAll = (x: number, kind: keyof CatalogueHeld) =>
    held === undefined || held[kind] === x ? '' : ` (${n(held[kind])} in the catalogue now)`;
  const some = (x: number, one: string, many: string, kind?: keyof CatalogueHeld) =>
    x === 0 ? '' : `${n(x)} ${x === 1 ? one : many}${kind === undefined ? '' : inAll(x, kind)}`;
  const lines = (x: number) => `${n(x)} line${x === 1 ? '' : 's'}`;
  const loaded = [
    some(r.items, 'item', 'items', 'items'),
    some(r.colours, 'colour', 'colours', 'colours'),
    some(r.categories, 'category', 'categories', 'categories'),
    some(t.elements, 'element id', 'element ids', 'elementIds'),
    some(t.partNumbers, 'part translation', 'part translations', 'partTranslations'),
    some(t.colourTranslations, 'colour translation', 'colour translations', 'colourTranslations'),
    some(t.relationships, 'relationship', 'relationships', 'relationships'),
  ]
    .filter(Boolean)
    .join(', ');
  const unplacedBy = r.unplacedByOrder ?? [];
  const unplaced = unplacedBy.reduce((x, o) => x + o.unplaced, 0);
  const said: string[] = [];
  if (r.placed > 0) {
    said.push(
      `${n(r.placed)} unplaced line${r.placed === 1 ? ' is' : 's are'} placed now: ${r.placedByOrder.map((o) => `${n(o.placed)} in order ${o.reference}`).join(', ')}`,
    );
  }
  if (unplaced > 0) {
    const byReason = new Map<string, { text: string; orders: string[] }>();
    for (const o of unplacedBy)
      for (const reason of o.reasons) {
        const entry = byReason.get(reason.code) ?? { text: reason.text, orders: [] };
        entry.orders.push(`${n(reason.count)} in order ${o.reference}`);
        byReason.set(reason.code, entry);
      }
    said.push(
      `${lines(unplaced)} placed before ${unplaced === 1 ? 'is' : 'are'} unplaced now — ${[...byReason.values()]
        .map((e) => `${e.text.toLowerCase()}: ${e.orders.join(', ')}`)
        .join('; ')}`,
    );
  }
  if (said.length === 0 && (r.unplacedBefore ?? 0) > 0)
    said.push(`none of the ${lines(r.unplacedBefore ?? 0)} waiting could be placed by it`);
  const head = `${r.cancelled ? 'Cancelled: loaded only' : 'Loaded'} ${loaded || 'nothing new'}`;
  return said.length === 0 ? `${head}.` : `${head}; ${said.join('; ')}.`;
}

/** What a load did to each order's lines, for the screens' links to them (SPEC §9). */
export function ordersTouched(
  r: Pick<LoadResult, 'placedByOrder' | 'unplacedByOrder'>,
): { orderId: number; reference: string; placed: number; unplaced: number }[] {
  const out = new Map<number, { orderId: number; reference: string; placed: number; unplaced: number }>();
  for (const o of r.placedByOrder)
    out.set(o.orderId, { orderId: o.orderId, reference: o.reference, placed: o.placed, unplaced: 0 });
  for (const o of r.unplacedByOrder) {
    const had = out.get(o.orderId) ?? { orderId: o.orderId, reference: o.reference, placed: 0, unplaced: 0 };
    out.set(o.orderId, { ...had, unplaced: o.unplaced });
  }
  return [...out.values()];
}

/** Merges one record of a catalogue file (`store/catalogue.ts`: insert or update by key, never delete). */
function mergers(db: StoreDb) {
  const write = catalogueWriters(db);
  return (r: CatalogueRecord, source: string) => {
    if (r.kind === 'item') write.item({ ...r, nameKey: foldName(r.name) }, source);
    else if (r.kind === 'colour') write.colour({ ...r, nameKey: foldName(r.name) }, source);
    else if (r.kind === 'category') write.category(r, source);
    else write.translation(r, source);
  };
}

/**
 * The catalogue job (SPEC §5): reads every file whole first (a bad file refuses the load before anything
 * is written), then merges each file: its rows staged apart as they are counted, with progress and a
 * chance to cancel, then swapped into the catalogue in one short transaction, which also records the
 * lines to place again (issue 61 §2, ADR 0034: no desk waits for the staging, and no reader sees a part
 * of a file). Those lines are placed after the swaps, in transactions of a few batches
 * (`placeAfterMerge`). When staff cancel, the file being staged is dropped and the job stops. With a
 * reader thread (the app's), a single file is read there while this thread stages what it has read
 * (`read-stream.ts`): a bad row then drops the rows staged before it, so nothing is kept.
 * At most one per store (catalogue-job.json): a second one is refused as `busy` while the first one's owner lives.
 */
export async function loadCatalogue(
  db: StoreDb,
  storePath: string,
  files: readonly NamedContent[],
  options: LoadOptions,
): Promise<LoadResult> {
  const { job, warning } = CatalogueJob.start(
    db,
    storePath,
    'catalogue-load',
    { files: files.map((f) => f.name) },
    options,
  );
  try {
    const run = new MergeRun(db, job, options);
    const waiting = unplacedSavedLines(db);
    let outcome: { files: LoadResult['files']; cancelled: boolean } | null = null;
    const [only] = files;
    if (options.reader !== undefined && files.length === 1 && only !== undefined) {
      outcome = await mergeStreamed(run, only, options.reader, options);
    }
    if (outcome === null) {
      const parsed: CatalogueFile[] = [];
      for (const f of files) parsed.push(await readCatalogue(f, { type: options.type }));
      run.total = parsed.reduce((n, f) => n + f.records.length, 0);
      let cancelled = !run.progress(0);
      for (const file of parsed) {
        if (cancelled) break;
        cancelled = !run.merged(file.source, (write) => {
          write(file.records);
          write.end();
        });
        if (!cancelled) cancelled = !run.progress(0);
        // Let the event loop breathe between files.
        await new Promise((r) => setImmediate(r));
      }
      outcome = { files: parsed.map((f) => ({ name: f.name, format: f.format, rows: f.records.length })), cancelled };
    }
    await run.placeAgain();
    // What the load did is counted while it still holds the job: once it ends, another load may start.
    const result: LoadResult = {
      items: run.counts.item,
      colours: run.counts.colour,
      categories: run.counts.category,
      translations: run.tally,
      files: outcome.files,
      ...linesByOrder(db, run.changed),
      unplacedBefore: waiting,
      cancelled: outcome.cancelled,
      warning,
    };
    job.finish(outcome.cancelled ? 'cancelled' : 'done');
    return result;
  } catch (e) {
    finishFailed(job, e);
    throw e;
  }
}

/**
 * Ends the job as failed with the reason, if it can be written: a disk too full for the load may be too
 * full for catalogue-job.json too — the load's own error is what the caller is told, either way.
 */
function finishFailed(job: CatalogueJob, e: unknown): void {
  try {
    job.finish('failed', toErrorValue(e).message);
  } catch {
    // Left as it is: `recoverCatalogueJob` ends it once its owner is gone, and a load then is not refused as busy for good.
  }
}

/**
 * One file read on the reader thread and staged here as its rows arrive, then swapped in (`MergeRun.file`).
 * Null when the thread stopped before the file was read: what was staged is dropped, and the caller reads
 * the file on this thread.
 */
async function mergeStreamed(
  run: MergeRun,
  file: NamedContent,
  reader: ReaderThread,
  options: LoadOptions,
): Promise<{ files: LoadResult['files']; cancelled: boolean } | null> {
  const stream = reader.stream(file, options.type);
  const kept = run.keep();
  let end: Extract<StreamMessage, { kind: 'end' }>;
  let stage: CatalogueStage | null = null;
  try {
    const first = await stream.next();
    if (first.kind === 'error') throw new BrickWorkError(first.error.code, first.error.message);
    run.total = first.kind === 'start' ? first.estimatedRows : 0;
    if (!run.progress(0)) throw new Cancelled();
    let write: FileWriter | null = null;
    for (;;) {
      const m = await stream.next();
      if (m.kind === 'error') throw new BrickWorkError(m.error.code, m.error.message);
      if (m.kind === 'end') {
        end = m;
        break;
      }
      if (m.kind !== 'rows') continue;
      if (write === null) ({ write, stage } = run.fileWithStage(m.source));
      write(m.records);
    }
    if (write === null) ({ write, stage } = run.fileWithStage(end.source));
    write.end();
  } catch (e) {
    stream.cancel();
    run.restore(kept);
    if (e instanceof ReaderStopped) return null;
    if (e instanceof Cancelled) return { files: [], cancelled: true };
    throw e;
  } finally {
    stage?.clear();
  }
  run.total = run.done;
  run.progress(0);
  return { files: [{ name: end.name, format: end.format, rows: end.rows }], cancelled: false };
}

class Cancelled extends Error {}

/** Stages a file's records as they come, then `end` swaps them in (`MergeRun.file`). */
type FileWriter = ((records: readonly CatalogueRecord[]) => void) & { end(): void };

/**
 * What a load has merged so far and told of: the counts, the progress (every `progressEvery` rows, and a
 * chance to cancel), and how a file's records are merged (staged, then swapped in: `file`).
 */
class MergeRun {
  readonly counts = { item: 0, colour: 0, category: 0 };
  readonly tally: Record<keyof TranslationTally, number> = { ...NO_TRANSLATIONS };
  total = 0;
  done = 0;
  /** The saved lines the files' merges placed, and those placed before that they unplaced (swapped files only: see `restore`). */
  readonly changed: { placed: number[]; unplaced: number[] } = { placed: [], unplaced: [] };
  private readonly every: number;

  constructor(
    readonly db: StoreDb,
    private readonly job: CatalogueJob,
    private readonly options: LoadOptions,
  ) {
    this.every = options.progressEvery ?? 10_000;
  }

  /** Counts `n` rows more; tells the progress when it passes a multiple of `every` (always for 0). False: staff asked to stop. */
  progress(n: number): boolean {
    const before = this.done;
    this.done += n;
    if (n !== 0 && Math.floor(this.done / this.every) === Math.floor(before / this.every)) return true;
    const progress = { done: this.done, total: Math.max(this.total, this.done) };
    this.options.onProgress?.(progress);
    return this.job.progress(progress);
  }

  keep(): { counts: MergeRun['counts']; tally: MergeRun['tally']; done: number; placed: number; unplaced: number } {
    return {
      counts: { ...this.counts },
      tally: { ...this.tally },
      done: this.done,
      placed: this.changed.placed.length,
      unplaced: this.changed.unplaced.length,
    };
  }

  /** After a file was dropped: its rows never reached the catalogue. */
  restore(kept: ReturnType<MergeRun['keep']>): void {
    Object.assign(this.counts, kept.counts);
    Object.assign(this.tally, kept.tally);
    this.done = kept.done;
    this.changed.placed.length = kept.placed;
    this.changed.unplaced.length = kept.unplaced;
  }

  /**
   * One file merged whole or not at all: `fn` stages its rows and swaps them in (`file`). A cancel drops
   * what was staged (false); a crash takes it with the process. Its staging tables are emptied after.
   */
  merged(source: string, fn: (write: FileWriter) => void): boolean {
    const kept = this.keep();
    const { write, stage } = this.fileWithStage(source);
    try {
      fn(write);
      return true;
    } catch (e) {
      if (!(e instanceof Cancelled)) throw e;
      this.restore(kept);
      return false;
    } finally {
      stage.clear();
    }
  }

  /** `file`, and its stage (to empty after). */
  fileWithStage(source: string): { write: FileWriter; stage: CatalogueStage } {
    const stage = openStage(this.db, source);
    return { write: this.file(stage), stage };
  }

  /**
   * A writer for one file's records: each staged apart as it comes (no lock of the store: other desks
   * write meanwhile), counted, with progress. `end` swaps them into the catalogue in one transaction
   * (`swapTransaction`: BEGIN IMMEDIATE on SQLite, as short as the rows take to merge; on a server, no
   * writer lock), which also records the lines to place again, so no moment exists — whenever the
   * process dies — where the catalogue answers a line that still has a reason and is not said to wait.
   */
  private file(stage: CatalogueStage): FileWriter {
    const { db } = this;
    const write = (records: readonly CatalogueRecord[]): void => {
      // A piece of `every` rows at most between progress reports (and chances to cancel).
      for (let at = 0; at < records.length;) {
        const end = Math.min(records.length, at + this.every);
        for (let i = at; i < end; i++) this.stage(stage, records[i] as CatalogueRecord);
        this.step(end - at);
        at = end;
      }
    };
    return Object.assign(write, {
      end: () => {
        stage.settle();
        swapTransaction(db, () => {
          const had = { colours: hasColours(db), colourTable: hasColourTable(db) };
          stage.swap();
          analyzeCatalogue(db);
          bumpCatalogueGeneration(db);
          askAfterMerge(db, had);
        });
      },
    });
  }

  private stage(stage: CatalogueStage, r: CatalogueRecord): void {
    if (r.kind === 'item') {
      stage.item(r, nameKeyOf(r));
      this.counts.item += 1;
    } else if (r.kind === 'colour') {
      stage.colour({ ...r, nameKey: foldName(r.name) });
      this.counts.colour += 1;
    } else if (r.kind === 'category') {
      stage.category(r);
      this.counts.category += 1;
    } else {
      stage.translation(r);
      this.tally[TALLY_OF[r.kind]] += 1;
    }
  }

  /**
   * Places again the lines the swapped files asked for (and any a dead load left waiting), in
   * transactions of a few batches; the bar counts on after the files' rows while they are (issue 45).
   */
  async placeAgain(): Promise<void> {
    const rows = this.done;
    const changed = await placeAfterMerge(
      this.db,
      (done, total) => {
        const progress = { done: rows + done, total: Math.max(this.total, rows) + total };
        this.options.onProgress?.(progress);
        this.job.progress(progress);
      },
      this.options.placeAgainSliceMs,
    );
    for (const id of changed.placed) this.changed.placed.push(id);
    for (const id of changed.unplaced) this.changed.unplaced.push(id);
  }

  private step(n: number): void {
    if (!this.progress(n)) throw new Cancelled();
  }
}

/** An item's folded name: folded already by the reader thread, or here. */
const nameKeyOf = (r: { readonly name: string; readonly nameKey?: string }): string => r.nameKey ?? foldName(r.name);

/**
 * Colours from the BrickLink API's colour list (SPEC §5), as a catalogue job of its own: one call,
 * counted before it is sent, merged in one transaction; unplaced lines are placed again.
 */
export async function loadColoursFromSource(
  db: StoreDb,
  storePath: string,
  source: Source,
  options: Omit<LoadOptions, 'type'>,
): Promise<
  Pick<LoadResult, 'placed' | 'placedByOrder' | 'unplacedByOrder' | 'unplacedBefore'> & {
    colours: number;
    warning: string | null;
  }
> {
  const { job, warning } = CatalogueJob.start(db, storePath, 'colours-from-bricklink', {}, options);
  try {
    source.reserve();
    const colours = await source.fetchColours();
    const merge = mergers(db);
    // Merged in one transaction (BEGIN IMMEDIATE), then its lines placed again, as a catalogue file's are.
    const waiting = unplacedSavedLines(db);
    db.transaction(() => {
      const had = { colours: hasColours(db), colourTable: hasColourTable(db) };
      for (const c of colours) merge({ kind: 'colour', id: c.id, name: c.name, rgb: c.rgb }, 'bricklink-api');
      bumpCatalogueGeneration(db);
      askAfterMerge(db, had);
    }).immediate();
    const changed = await placeAfterMerge(db);
    job.progress({ done: colours.length, total: colours.length });
    job.finish('done');
    return { colours: colours.length, ...linesByOrder(db, changed), unplacedBefore: waiting, warning };
  } catch (e) {
    finishFailed(job, e);
    throw e;
  }
}
