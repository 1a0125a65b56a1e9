/**
 * Lines placed again in sets (issue 45, point 4): after a catalogue load, a look-up, an undo that moved
 * the catalogue. A batch of lines is read in one statement and written in one, so a store on a server
 * pays two round trips a batch, not two a line. Lines placed by hand, and the lines of undone documents
 * (a revival places them afresh), are left alone.
 */
import type { StoreDb } from './db.ts';
import { idsOfJson, rowsOfJson } from './dialect.ts';
import { numberingOfFormat, type Numbering } from '../vocabulary/numberings.ts';

/** A line as the placement rule reads it, and whether it was placed before. */
export interface GivenLineRow {
  readonly id: number;
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
  readonly remarks: string | null;
  /** The numbering its document's numbers are in (`numberingOfFormat`). */
  readonly numbering: Numbering | null;
  readonly placedBefore: 0 | 1;
  /** Its placement now: a decision that changes none of it is not written. */
  readonly itemType: string | null;
  readonly itemNo: string | null;
  readonly colour: number | null;
  readonly placedBy: string | null;
  readonly unplacedReason: string | null;
}

/** What the rule decided for a line, as its columns hold it. */
export interface LinePlacement {
  readonly id: number;
  readonly item_type: string | null;
  readonly item_no: string | null;
  readonly colour_id: number | null;
  readonly placed_by: string | null;
  readonly unplaced_reason: string | null;
}

const GIVEN = `SELECT l.id, l.given_type AS type, l.given_no AS no, l.given_name AS name,
         l.given_colour_id AS colourId, l.given_colour_name AS colourName, l.remarks,
         CASE WHEN l.item_no IS NULL THEN 0 ELSE 1 END AS placedBefore,
         l.item_type AS itemType, l.item_no AS itemNo, l.colour_id AS colour, l.placed_by AS placedBy,
         l.unplaced_reason AS unplacedReason, d.format
    FROM order_line l JOIN document d ON d.id = l.document_id`;

/** A row as read, its document's format become the numbering its numbers are in. */
export function withNumbering<R extends { format: string }>(
  rows: readonly R[],
): (Omit<R, 'format'> & { numbering: Numbering | null })[] {
  return rows.map(({ format, ...row }) => ({ ...row, numbering: numberingOfFormat(format) }));
}

type GivenRowAsRead = Omit<GivenLineRow, 'numbering'> & { format: string };

/** Not placed by hand, in a document that is imported (not undone). */
const OURS = `l.placed_by IS DISTINCT FROM 'hand' AND d.state = 'imported'`;

/** The given lines among `ids` that are placed again, in id order: one statement. */
export function givenLines(db: StoreDb, ids: readonly number[]): GivenLineRow[] {
  if (ids.length === 0) return [];
  return withNumbering(
    db
      .prepare(`${GIVEN} WHERE l.id IN (${idsOfJson(db)}) AND ${OURS} ORDER BY l.id`)
      .all(JSON.stringify(ids)) as GivenRowAsRead[],
  );
}

/**
 * Which lines a catalogue's change places again (SPEC §5): `unplaced` every unplaced line; `coloured`
 * the lines the rule placed that give a colour (a catalogue's first colours check them at last);
 * `other-numbering` those that give a colour in another numbering ("Rebrickable colour 4"), when the
 * colour table arrives. Lines of undone documents never; lines placed by hand only when unplaced.
 */
export type PlacingScope = 'unplaced' | 'coloured' | 'other-numbering';

/** The given colour names of a colour in another numbering start so ("Rebrickable colour …"). */
export interface ScopeWords {
  readonly otherNumberings: readonly string[];
}

function scopeSql(scope: readonly PlacingScope[], words: ScopeWords): { sql: string; params: string[] } {
  const params: string[] = [];
  const parts = scope.map((s) => {
    if (s === 'unplaced') return 'l.item_no IS NULL';
    if (s === 'coloured')
      return `(l.item_no IS NOT NULL AND ${OURS_BY_RULE} AND (coalesce(l.given_colour_id, 0) <> 0 OR nullif(trim(l.given_colour_name), '') IS NOT NULL))`;
    params.push(...words.otherNumberings.map((n) => `${n} colour %`));
    return `(l.item_no IS NOT NULL AND ${OURS_BY_RULE} AND (${words.otherNumberings.map(() => 'l.given_colour_name LIKE ?').join(' OR ')}))`;
  });
  return { sql: `d.state = 'imported' AND (${parts.length === 0 ? 'FALSE' : parts.join(' OR ')})`, params };
}

const OURS_BY_RULE = `l.placed_by IS DISTINCT FROM 'hand'`;

/**
 * The next lines of `scope` after line `after`, in id order, at most `limit`: one statement that walks
 * the lines' key from where the last batch ended (no list of every id read first).
 */
export function linesToPlaceAfter(
  db: StoreDb,
  scope: readonly PlacingScope[],
  words: ScopeWords,
  after: number,
  limit: number,
): GivenLineRow[] {
  const { sql, params } = scopeSql(scope, words);
  return withNumbering(
    db
      .prepare(`${GIVEN} WHERE l.id > ? AND ${sql} ORDER BY l.id LIMIT ?`)
      .all(after, ...params, limit) as GivenRowAsRead[],
  );
}

/** How many lines of `scope` there are after line `after`. */
export function countLinesToPlace(db: StoreDb, scope: readonly PlacingScope[], words: ScopeWords, after = 0): number {
  const { sql, params } = scopeSql(scope, words);
  return Number(
    db
      .prepare(`SELECT count(*) FROM order_line l JOIN document d ON d.id = l.document_id WHERE l.id > ? AND ${sql}`)
      .pluck()
      .get(after, ...params),
  );
}

/**
 * Lines waiting to be placed again (issue 45): a catalogue's merge commits with the scope it asks to
 * place again, and each batch of lines placed again commits with how far it got, so that other desks'
 * writes pass between batches and a process that dies meanwhile leaves the rest said, not forgotten.
 * The next load, or the recovery of the dead loader's job, goes on from it.
 */
export interface WaitingLines {
  readonly scope: readonly PlacingScope[];
  /** The last line placed again: the next batch starts after it. */
  readonly after: number;
}

const WAITING_KEY = 'lines.placing-again';

export function waitingLines(db: StoreDb): WaitingLines | null {
  const text = db.prepare('SELECT value FROM setting WHERE key = ?').pluck().get(WAITING_KEY) as string | undefined;
  if (text === undefined) return null;
  try {
    const v = JSON.parse(text) as { scope?: unknown; after?: unknown };
    const scope = Array.isArray(v.scope)
      ? v.scope.filter((s): s is PlacingScope => s === 'unplaced' || s === 'coloured' || s === 'other-numbering')
      : [];
    // A record this build can't read asks for every unplaced line: more work, never less.
    return {
      scope: scope.length > 0 ? scope : ['unplaced'],
      after: Number.isSafeInteger(v.after) ? (v.after as number) : 0,
    };
  } catch {
    return { scope: ['unplaced'], after: 0 };
  }
}

/** Records the lines waiting, or (null) that none are. In the caller's transaction. */
export function setWaitingLines(db: StoreDb, waiting: WaitingLines | null): void {
  if (waiting === null) {
    db.prepare('DELETE FROM setting WHERE key = ?').run(WAITING_KEY);
    return;
  }
  db.prepare(
    'INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(WAITING_KEY, JSON.stringify({ scope: waiting.scope, after: waiting.after }));
}

/** Writes the rule's decisions for a batch of lines: one statement. */
export function setPlacements(db: StoreDb, placements: readonly LinePlacement[]): void {
  if (placements.length === 0) return;
  const rows = rowsOfJson(db, [
    ['id', 'integer'],
    ['t', 'text'],
    ['n', 'text'],
    ['c', 'integer'],
    ['b', 'text'],
    ['r', 'text'],
  ]);
  db.prepare(
    `UPDATE order_line SET item_type = v.t, item_no = v.n, colour_id = v.c, placed_by = v.b, unplaced_reason = v.r
       FROM (${rows}) AS v WHERE order_line.id = v.id`,
  ).run(
    JSON.stringify(placements.map((p) => [p.id, p.item_type, p.item_no, p.colour_id, p.placed_by, p.unplaced_reason])),
  );
}
