import type { Database } from 'better-sqlite3';
import { isoNow, nextUtcDay, utcDay, type Clock } from '../clock.ts';
import { isBrickWorkError } from '../errors.ts';
import type { JobHandler } from '../jobs/runner.ts';
import { foldName } from '../placement/fold.ts';
import { placeLinesAgain } from '../placement/place-lines.ts';
import { bumpCatalogueGeneration } from '../store/settings.ts';
import type { ItemAnswer } from './bricklink/api.ts';
import { isItemType, type ItemType } from './item-types.ts';
import type { Source } from './source.ts';

export const LOOKUP_JOB_KIND = 'catalogue-lookup';

export interface PendingNumber {
  readonly type: ItemType;
  readonly no: string;
}

/** Given type as the placement rule reads it: trimmed, upper case, P when missing. */
const GIVEN_TYPE = "upper(coalesce(nullif(trim(l.given_type), ''), 'P'))";

/**
 * The distinct BrickLink numbers that unplaced saved lines name, that the catalogue lacks, and that
 * BrickLink has not answered for yet (found or not): what the look-up job still has to ask.
 */
export function pendingLookups(db: Database): PendingNumber[] {
  const rows = db
    .prepare(
      `SELECT DISTINCT ${GIVEN_TYPE} AS type, trim(l.given_no) AS no
         FROM order_line l JOIN document d ON d.id = l.document_id
        WHERE l.item_no IS NULL AND d.state = 'imported' AND nullif(trim(l.given_no), '') IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM catalogue_item c WHERE c.item_type = ${GIVEN_TYPE} AND c.item_no = trim(l.given_no))
          AND NOT EXISTS (SELECT 1 FROM lookup_answer a WHERE a.item_type = ${GIVEN_TYPE} AND a.item_no = trim(l.given_no))
        ORDER BY 1, 2`,
    )
    .all() as { type: string; no: string }[];
  const seen = new Set<string>();
  const out: PendingNumber[] = [];
  for (const r of rows) {
    const key = `${r.type} ${r.no.toLowerCase()}`;
    if (!isItemType(r.type) || seen.has(key)) continue;
    seen.add(key);
    out.push({ type: r.type, no: r.no });
  }
  return out;
}

/** Keeps BrickLink's answer (found or not, so it is never asked twice), adds a found item, places its lines again. */
function recordAnswer(db: Database, asked: PendingNumber, answer: ItemAnswer, clock: Clock): void {
  db.prepare(
    `INSERT INTO lookup_answer (item_type, item_no, found, answered_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (item_type, item_no) DO UPDATE SET found = excluded.found, answered_at = excluded.answered_at`,
  ).run(asked.type, asked.no, answer.found ? 1 : 0, isoNow(clock));
  if (!answer.found) return;
  db.prepare(
    `INSERT INTO catalogue_item (item_type, item_no, name, name_key, category_id, source) VALUES (?, ?, ?, ?, ?, 'bricklink-api')
     ON CONFLICT (item_type, item_no) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
       category_id = coalesce(excluded.category_id, catalogue_item.category_id), source = excluded.source`,
  ).run(asked.type, answer.no, answer.name, foldName(answer.name), answer.categoryId);
  bumpCatalogueGeneration(db);
  const lines = db
    .prepare(`SELECT l.id FROM order_line l WHERE l.item_no IS NULL AND ${GIVEN_TYPE} = ? AND trim(l.given_no) = ? COLLATE NOCASE`)
    .pluck()
    .all(asked.type, asked.no) as number[];
  placeLinesAgain(db, lines);
}

/** Makes the look-up job, unless one is already queued or running (at most one per store): then that one. */
export function enqueueLookup(db: Database, clock: Clock): { id: number; created: boolean } {
  return db
    .transaction(() => {
      const existing = db
        .prepare("SELECT id FROM job WHERE kind = ? AND state IN ('queued', 'running') ORDER BY id LIMIT 1")
        .pluck()
        .get(LOOKUP_JOB_KIND) as number | undefined;
      if (existing !== undefined) return { id: existing, created: false };
      const now = isoNow(clock);
      const id = db
        .prepare("INSERT INTO job (kind, state, payload, created_at, updated_at) VALUES (?, 'queued', '{}', ?, ?)")
        .run(LOOKUP_JOB_KIND, now, now).lastInsertRowid;
      return { id: Number(id), created: true };
    })
    .immediate();
}

export interface LookupStats {
  calls: number;
  found: number;
  notFound: number;
  left: number;
}

/**
 * The look-up job (SPEC §5): asks BrickLink once for each pending number, counting each call before
 * sending it; keeps every answer; places the affected lines again. At the day's budget it goes back to
 * the queue until the next UTC day; `limit` caps the calls of this run (the job then stays queued).
 */
export function lookupHandler(source: Source, options: { limit: number | null; clock: Clock; stats?: LookupStats }): JobHandler {
  return async (_job, ctx) => {
    const stats = options.stats ?? { calls: 0, found: 0, notFound: 0, left: 0 };
    const todo = pendingLookups(ctx.db);
    const total = todo.length;
    stats.left = total;
    if (!ctx.step(null, { done: 0, total })) return;
    for (const [i, asked] of todo.entries()) {
      if (options.limit !== null && stats.calls >= options.limit) {
        ctx.defer(utcDay(options.clock), `stopped after ${stats.calls} calls (the run's limit); ${total - i} numbers still to ask`);
        return;
      }
      try {
        if (!ctx.step(() => source.reserve())) return;
      } catch (e) {
        if (isBrickWorkError(e) && e.code === 'budget-exhausted') {
          ctx.defer(nextUtcDay(options.clock), e.message);
        }
        throw e;
      }
      stats.calls += 1;
      const answer = await source.fetch(asked.type, asked.no);
      if (!ctx.step(() => recordAnswer(ctx.db, asked, answer, options.clock), { done: i + 1, total })) return;
      if (answer.found) stats.found += 1;
      else stats.notFound += 1;
      stats.left -= 1;
    }
    ctx.complete();
  };
}
