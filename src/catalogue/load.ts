import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock.ts';
import { toErrorValue } from '../errors.ts';
import type { OwnerIdentity } from '../identity/owner.ts';
import type { ProcView } from '../identity/proc.ts';
import { CatalogueJob } from './catalogue-job.ts';
import type { JobProgress } from '../jobs/types.ts';
import { foldName } from '../placement/fold.ts';
import {
  placeColouredLinesAgain,
  placeOtherNumberingColoursAgain,
  placeUnplacedLines,
} from '../placement/place-lines.ts';
import { catalogueWriters, inKeyOrder, loadingItems } from '../store/catalogue.ts';
import { bumpCatalogueGeneration } from '../store/settings.ts';
import type { ItemType } from '../item-types.ts';
import { readCatalogueFile, type NamedContent } from './read-file.ts';
import type { CatalogueFile, CatalogueRecord, TranslationRecord } from './records.ts';
import type { Source } from './source.ts';

export interface LoadOptions {
  readonly type: ItemType;
  readonly me: OwnerIdentity;
  readonly clock: Clock;
  readonly proc?: ProcView;
  readonly onProgress?: (progress: JobProgress) => void;
  /** Rows between progress reports (and chances to cancel). */
  readonly progressEvery?: number;
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

const NO_TRANSLATIONS: TranslationTally = { elements: 0, partNumbers: 0, colourTranslations: 0, relationships: 0 };

/** Which tally a record counts in. */
const TALLY_OF = {
  element: 'elements',
  'part-number': 'partNumbers',
  'colour-translation': 'colourTranslations',
  relationship: 'relationships',
} as const satisfies Record<TranslationRecord['kind'], keyof TranslationTally>;

/** Whether the catalogue has any colours: until it has, lines keep their colours unchecked (SPEC §6). */
function hasColours(db: Database): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1;
}

/**
 * After a merge, in its transaction: the unplaced lines are placed again, and when these are the
 * catalogue's first colours, the lines placed with their colour unchecked are checked now.
 */
function placeAfterMerge(db: Database, had: { colours: boolean; colourTable: boolean }): void {
  if (!had.colours && hasColours(db)) placeColouredLinesAgain(db);
  else if (!had.colourTable && hasColourTable(db)) placeOtherNumberingColoursAgain(db);
  placeUnplacedLines(db);
}

/** Whether the colour table (Rebrickable's colours with their external ids) is loaded. */
function hasColourTable(db: Database): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM colour_translation)').pluck().get() === 1;
}

/** Unplaced saved lines by order: what a load placed is told per order (SPEC §9: "how many, in which orders"). */
function unplacedByOrder(db: Database): Map<number, { reference: string; unplaced: number }> {
  const rows = db
    .prepare(
      `SELECT o.id, o.reference, count(*) AS unplaced
         FROM order_line l JOIN document d ON d.id = l.document_id AND d.state = 'imported' JOIN shop_order o ON o.id = d.order_id
        WHERE l.item_no IS NULL GROUP BY o.id`,
    )
    .all() as { id: number; reference: string; unplaced: number }[];
  return new Map(rows.map((r) => [r.id, { reference: r.reference, unplaced: r.unplaced }]));
}

function placedSince(
  db: Database,
  before: Map<number, { reference: string; unplaced: number }>,
): { orderId: number; reference: string; placed: number }[] {
  const after = unplacedByOrder(db);
  return [...before]
    .map(([orderId, b]) => ({
      orderId,
      reference: b.reference,
      placed: b.unplaced - (after.get(orderId)?.unplaced ?? 0),
    }))
    .filter((o) => o.placed > 0);
}

/** What a load did, in staff's words: what it loaded, and how many lines it placed, in which orders. */
export function catalogueLoadSummary(
  r: Pick<LoadResult, 'items' | 'colours' | 'categories' | 'placed' | 'placedByOrder' | 'cancelled'> & {
    readonly translations?: TranslationTally;
  },
): string {
  const t = r.translations ?? NO_TRANSLATIONS;
  const n = (x: number) => x.toLocaleString('en-US');
  const some = (x: number, one: string, many: string) => (x === 0 ? '' : `${n(x)} ${x === 1 ? one : many}`);
  const loaded = [
    some(r.items, 'item', 'items'),
    some(r.colours, 'colour', 'colours'),
    some(r.categories, 'category', 'categories'),
    some(t.elements, 'element id', 'element ids'),
    some(t.partNumbers, 'part translation', 'part translations'),
    some(t.colourTranslations, 'colour translation', 'colour translations'),
    some(t.relationships, 'relationship', 'relationships'),
  ]
    .filter(Boolean)
    .join(', ');
  const placed =
    r.placed === 0
      ? 'no unplaced line could be placed by it'
      : `${n(r.placed)} unplaced line${r.placed === 1 ? ' is' : 's are'} placed now: ${r.placedByOrder.map((o) => `${n(o.placed)} in order ${o.reference}`).join(', ')}`;
  return `${r.cancelled ? 'Cancelled: loaded only' : 'Loaded'} ${loaded || 'nothing new'}; ${placed}.`;
}

/** Merges one record of a catalogue file (`store/catalogue.ts`: insert or update by key, never delete). */
function mergers(db: Database) {
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
 * is written), then merges each file in one transaction with progress, placing every unplaced line
 * again in that same transaction; when staff cancel, the file being merged is rolled back and the job
 * stops. At most one per store
 * (catalogue-job.json): a second one is refused as `busy` while the first one's owner lives.
 */
export async function loadCatalogue(
  db: Database,
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
    const parsed: CatalogueFile[] = files.map((f) => readCatalogueFile(f, { type: options.type }));
    const total = parsed.reduce((n, f) => n + f.records.length, 0);
    const counts = { item: 0, colour: 0, category: 0 };
    const tally: Record<keyof TranslationTally, number> = { ...NO_TRANSLATIONS };
    const merge = mergers(db);
    const writers = catalogueWriters(db);
    const every = options.progressEvery ?? 10_000;
    let done = 0;
    let cancelled = !job.progress({ done, total });
    options.onProgress?.({ done, total });

    // One transaction per file: a file is merged whole or not at all (a cancel or a crash rolls its
    // rows back), and the unplaced lines are placed again in that same transaction, so no moment
    // exists — whenever the process dies — where the catalogue answers a line that still has a
    // reason. Progress goes to catalogue-job.json meanwhile, which other processes read. BEGIN
    // IMMEDIATE: a transaction that has read can't wait for the write lock (SQLite answers SQLITE_BUSY
    // at once, whatever the busy timeout), so one that starts deferred fails whenever another process
    // is writing at that moment; this one waits its turn.
    const unplacedBefore = unplacedByOrder(db);
    for (const file of parsed) {
      if (cancelled) break;
      const before = { ...counts };
      const tallyBefore = { ...tally };
      try {
        db.transaction(() => {
          const had = { colours: hasColours(db), colourTable: hasColourTable(db) };
          // Items in key order and many to a statement (`store/catalogue.ts`); colours and categories,
          // a few hundred at most, one by one.
          const items: Extract<CatalogueRecord, { kind: 'item' }>[] = [];
          let merged = 0;
          const progressed = (n: number) => {
            const before = merged;
            merged += n;
            if (Math.floor(merged / every) > Math.floor(before / every)) {
              options.onProgress?.({ done: done + merged, total });
              if (!job.progress({ done: done + merged, total })) throw new Cancelled();
            }
          };
          for (const r of file.records) {
            if (r.kind === 'item') {
              items.push(r);
            } else {
              merge(r, file.source);
              progressed(1);
            }
            if (r.kind === 'item' || r.kind === 'colour' || r.kind === 'category') counts[r.kind] += 1;
            else tally[TALLY_OF[r.kind]] += 1;
          }
          const sorted = inKeyOrder(items);
          loadingItems(db, () => {
            for (let i = 0; i < sorted.length; i += every) {
              const chunk = sorted.slice(i, i + every);
              writers.items(chunk, file.source, foldName);
              progressed(chunk.length);
            }
          });
          bumpCatalogueGeneration(db);
          placeAfterMerge(db, had);
        }).immediate();
      } catch (e) {
        if (!(e instanceof Cancelled)) throw e;
        Object.assign(counts, before);
        Object.assign(tally, tallyBefore);
        cancelled = true;
        break;
      }
      done += file.records.length;
      options.onProgress?.({ done, total });
      cancelled = !job.progress({ done, total });
      // Let the event loop breathe between files.
      await new Promise((r) => setImmediate(r));
    }
    job.finish(cancelled ? 'cancelled' : 'done');
    const placedByOrder = placedSince(db, unplacedBefore);
    return {
      items: counts.item,
      colours: counts.colour,
      categories: counts.category,
      translations: tally,
      files: parsed.map((f) => ({ name: f.name, format: f.format, rows: f.records.length })),
      placed: placedByOrder.reduce((n, o) => n + o.placed, 0),
      placedByOrder,
      cancelled,
      warning,
    };
  } catch (e) {
    job.finish('failed', toErrorValue(e).message);
    throw e;
  }
}

class Cancelled extends Error {}

/**
 * Colours from the BrickLink API's colour list (SPEC §5), as a catalogue job of its own: one call,
 * counted before it is sent, merged in one transaction; unplaced lines are placed again.
 */
export async function loadColoursFromSource(
  db: Database,
  storePath: string,
  source: Source,
  options: Omit<LoadOptions, 'type'>,
): Promise<{ colours: number; placed: number; placedByOrder: LoadResult['placedByOrder']; warning: string | null }> {
  const { job, warning } = CatalogueJob.start(db, storePath, 'colours-from-bricklink', {}, options);
  try {
    source.reserve();
    const colours = await source.fetchColours();
    const merge = mergers(db);
    // Merged and placed again in one transaction (BEGIN IMMEDIATE), as a catalogue file is.
    const unplacedBefore = unplacedByOrder(db);
    db.transaction(() => {
      const had = { colours: hasColours(db), colourTable: hasColourTable(db) };
      for (const c of colours) merge({ kind: 'colour', id: c.id, name: c.name, rgb: c.rgb }, 'bricklink-api');
      bumpCatalogueGeneration(db);
      placeAfterMerge(db, had);
    }).immediate();
    const placedByOrder = placedSince(db, unplacedBefore);
    const placed = placedByOrder.reduce((n, o) => n + o.placed, 0);
    job.progress({ done: colours.length, total: colours.length });
    job.finish('done');
    return { colours: colours.length, placed, placedByOrder, warning };
  } catch (e) {
    job.finish('failed', toErrorValue(e).message);
    throw e;
  }
}
