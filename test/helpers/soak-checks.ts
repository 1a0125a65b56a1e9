/**
 * What the soak checks in a store after its kills, whatever the kind of work, and the row each kind
 * of work reports for the soak's table.
 */
import type { StoreDb } from '../../src/store/db.ts';
import { onServer } from '../../src/store/dialect.ts';
import { catalogueLookup } from '../../src/placement/catalogue-lookup.ts';
import { placeItem, type GivenItem } from '../../src/placement/rule.ts';
import type { SoakProcess } from './soak-workers.ts';
import { tallyMismatches } from './tally.ts';
import { waitingLines } from '../../src/store/line-placements.ts';

type Db = StoreDb;

/** One kind of work's row of the soak's table. */
export interface KindResult {
  readonly kind: string;
  /** Real kills: workers killed with SIGKILL while alive, each once. */
  readonly kills: number;
  /** Runs of the work that started (job runs, loads, imports and undos, upgrades). */
  readonly runs: number;
  /** Work done twice, or two runs at once (see each kind). */
  readonly doubleRuns: number;
  /** Work that was committed (or said so) and is not in the store, or never got done. */
  readonly lostWork: number;
  /** Unplaced lines whose reason the catalogue now answers (null: the kind places no lines). */
  readonly staleReasons: number | null;
  /** A live owner that lost its job (other than by a cancel). */
  readonly ownerLost: number;
  /** `PRAGMA integrity_check` of every store it used: `ok`, or the first thing that was not. */
  readonly integrity: string;
  /** Everything that went wrong, spelled out (empty when nothing did). */
  readonly problems: readonly string[];
  /** A line about what it did, for the log. */
  readonly notes: string;
  readonly ms: number;
}

export function kindOk(r: KindResult): boolean {
  return (
    r.doubleRuns === 0 &&
    r.lostWork === 0 &&
    (r.staleReasons ?? 0) === 0 &&
    r.ownerLost === 0 &&
    r.integrity === 'ok' &&
    r.problems.length === 0
  );
}

/** The soak's table: one row per kind of work. */
export function soakTable(rows: readonly KindResult[]): string {
  const head = ['kind', 'kills', 'runs', 'double runs', 'lost work', 'stale reasons', 'owner lost', 'integrity'];
  const body = rows.map((r) => [
    r.kind,
    String(r.kills),
    String(r.runs),
    String(r.doubleRuns),
    String(r.lostWork),
    r.staleReasons === null ? '-' : String(r.staleReasons),
    String(r.ownerLost),
    r.integrity,
  ]);
  const total = [
    'all',
    String(rows.reduce((n, r) => n + r.kills, 0)),
    String(rows.reduce((n, r) => n + r.runs, 0)),
    String(rows.reduce((n, r) => n + r.doubleRuns, 0)),
    String(rows.reduce((n, r) => n + r.lostWork, 0)),
    String(rows.reduce((n, r) => n + (r.staleReasons ?? 0), 0)),
    String(rows.reduce((n, r) => n + r.ownerLost, 0)),
    rows.every((r) => r.integrity === 'ok') ? 'ok' : 'FAILED',
  ];
  const table = [head, ...body, total];
  const widths = head.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(head), rule, ...body.map(line), rule, line(total)].join('\n');
}

/**
 * The first thing found wrong with a store, or `ok`: on a SQLite file `PRAGMA integrity_check` and
 * `foreign_key_check` (a PostgreSQL server checks its pages and enforces its keys as it writes), then on
 * both each document's tally and the store's own rules (`storeInvariants`).
 */
export function integrityOf(db: Db): string {
  if (!onServer(db)) {
    const check = db.pragma('integrity_check', { simple: true }) as string;
    if (check !== 'ok') return check;
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (fk.length > 0) return `foreign_key_check: ${fk.length} rows`;
  }
  // A store the soak left at 4.1 (killed before its upgrade) has no tallies yet (a server store is born at 4.2).
  const tallied =
    onServer(db) ||
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'document_tally'").get() !== undefined;
  const miscounted = tallied ? tallyMismatches(db) : [];
  if (miscounted.length > 0) return `document_tally: ${miscounted.length} documents miscounted`;
  return storeInvariants(db);
}

/**
 * Rules of the store no constraint states, in plain SQL (either engine): each desk's undo history is a
 * stack — every undone step of a desk newer than every done one of it (Undo takes the desk's newest done
 * step, Redo its oldest undone, a new step drops its undone) — and a running job has an owner. The first broken one, or `ok`.
 */
export function storeInvariants(db: Db): string {
  // Each desk's history is a stack of its own (SPEC §8); steps made before desks were named, one desk's.
  // A store the soak left at 4.1 (or made by a build before desks) names no desks: one desk's.
  const desks =
    onServer(db) ||
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'undo_step_desk'").get() !== undefined;
  const deskOf = (alias: string) =>
    desks ? `coalesce((SELECT k.desk FROM undo_step_desk k WHERE k.step_id = ${alias}.id), '')` : "''";
  const outOfOrder = db
    .prepare(
      `SELECT count(*) FROM undo_step u
        WHERE u.state = 'done' AND EXISTS (
          SELECT 1 FROM undo_step v WHERE v.state = 'undone' AND v.id < u.id AND ${deskOf('v')} = ${deskOf('u')})`,
    )
    .pluck()
    .get() as number;
  if (outOfOrder > 0) return `undo_step: ${outOfOrder} done steps newer than an undone one of their desk`;
  const ownerless = db
    .prepare(
      `SELECT count(*) FROM job j
        WHERE j.state = 'running' AND NOT EXISTS (SELECT 1 FROM job_owner o WHERE o.job_id = j.id)`,
    )
    .pluck()
    .get() as number;
  if (ownerless > 0) return `job: ${ownerless} running jobs without an owner`;
  return 'ok';
}

type Value = string | number | null;

/**
 * Rows that are not what the undo history says they are: for each row a step touched, the oldest undone
 * step's `before` (undo wrote it back) or, when none is undone, the newest done step's `after` (its
 * write, or a redo's) — each for the columns that change holds; a side of null means the row is gone.
 * A step dropped by a newer one leaves no change, and its rows are not checked. Only while nothing but
 * the history writes those rows: the catalogue must not change meanwhile (a load places lines again).
 */
export function historyMismatches(db: Db, limit = 5): { count: number; examples: string[] } {
  const decisive = db
    .prepare(
      // Per row: the oldest step undone since the newest done one (its first change's before), else that
      // newest done step (its last change's after). With one desk every undone step is newer than every
      // done one; with several, a desk's undone step may be older than another desk's later done step,
      // which step-conflict kept from building on it (SPEC §8).
      `WITH t AS (
         SELECT c.table_name, c.row_id, c.id AS cid, c.step_id, s.state, c.before, c.after
           FROM undo_change c JOIN undo_step s ON s.id = c.step_id),
       last_done AS (
         SELECT table_name, row_id, max(step_id) AS d FROM t WHERE state = 'done' GROUP BY table_name, row_id),
       ranked AS (
         SELECT t.*,
                row_number() OVER (PARTITION BY t.table_name, t.row_id
                  ORDER BY CASE WHEN t.state = 'undone' AND t.step_id > coalesce(l.d, -1) THEN 0 ELSE 1 END,
                           CASE WHEN t.state = 'undone' AND t.step_id > coalesce(l.d, -1) THEN t.step_id ELSE -t.step_id END,
                           CASE WHEN t.state = 'undone' AND t.step_id > coalesce(l.d, -1) THEN t.cid ELSE -t.cid END) AS k
           FROM t LEFT JOIN last_done l ON l.table_name = t.table_name AND l.row_id = t.row_id)
       SELECT table_name AS tableName, row_id AS rowId, step_id AS stepId, state, before, after
         FROM ranked WHERE k = 1`,
    )
    .all() as {
    tableName: string;
    rowId: number;
    stepId: number;
    state: string;
    before: string | null;
    after: string | null;
  }[];
  const rowsOf = new Map<string, Map<number, Record<string, Value>>>();
  const rows = (table: string) => {
    let m = rowsOf.get(table);
    if (m === undefined) {
      // The table names come from the store's own history (undo refuses any other: changes.ts).
      if (!/^[a-z_]+$/.test(table)) throw new Error(`undo_change names a table ${table}`);
      m = new Map(
        (db.prepare(`SELECT * FROM ${table}`).all() as Record<string, Value>[]).map((r) => [Number(r['id']), r]),
      );
      rowsOf.set(table, m);
    }
    return m;
  };
  const examples: string[] = [];
  let count = 0;
  for (const d of decisive) {
    const side = d.state === 'undone' ? d.before : d.after;
    const want = side === null ? null : (JSON.parse(side) as Record<string, Value | { $now: true }>);
    const row = rows(d.tableName).get(d.rowId) ?? null;
    const said = `${d.tableName} ${d.rowId} (step ${d.stepId}, ${d.state})`;
    let wrong: string | null = null;
    if (want === null) wrong = row === null ? null : 'is there, though the history says it is gone';
    else if (row === null) wrong = 'is gone, though the history says it is there';
    else {
      for (const [column, value] of Object.entries(want)) {
        // A time the undo or redo wrote itself (NOW): any.
        if (typeof value === 'object' && value !== null) continue;
        const has = row[column] ?? null;
        if (String(has) !== String(value)) {
          wrong = `has ${column} = ${JSON.stringify(has)}, the history says ${JSON.stringify(value)}`;
          break;
        }
      }
    }
    if (wrong === null) continue;
    count += 1;
    if (examples.length < limit) examples.push(`${said} ${wrong}`);
  }
  return { count, examples };
}

/** Keeps the first integrity answer that is not `ok`. */
export function worse(a: string, b: string): string {
  return a === 'ok' ? b : a;
}

interface LineRow extends GivenItem {
  id: number;
  item_no: string | null;
  unplaced_reason: string | null;
}

/**
 * Unplaced lines that keep a reason the catalogue no longer gives them — e.g. "The BrickLink number is
 * not in the catalogue" while `catalogue_item` has that number: the placement rule, run now, places
 * them or gives another reason. (Every line: loads and look-ups place again every unplaced line.)
 */
export function staleReasons(db: Db, limit = 5): { count: number; examples: string[] } {
  const lookup = catalogueLookup(db);
  // Lines a load asked to place again and had not reached when it died wait, said so in the store: the
  // next load or the job's recovery places them (issue 45). Those before where it got to must be right.
  const waiting = waitingLines(db);
  const rows = db
    .prepare(
      `SELECT id, given_type AS type, given_no AS no, given_name AS name, given_colour_id AS colourId,
              given_colour_name AS colourName, item_no, unplaced_reason
         FROM order_line WHERE item_no IS NULL`,
    )
    .all() as LineRow[];
  const examples: string[] = [];
  let count = 0;
  for (const r of rows) {
    if (waiting !== null && r.id > waiting.after) continue;
    const now = placeItem(r, lookup);
    if (now.item === null && now.reason === r.unplaced_reason) continue;
    count += 1;
    if (examples.length < limit)
      examples.push(
        `line ${r.id} (${r.type ?? 'P'} ${r.no ?? ''} ${r.name ?? ''}) says "${r.unplaced_reason}", but the catalogue now ` +
          (now.item ? `has ${now.item.type} ${now.item.no}` : `says "${now.reason}"`),
      );
  }
  return { count, examples };
}

/** A job's row and its `job_event` history, for a report. */
export function jobHistory(db: Db, id: number): string {
  const job = db
    .prepare(
      `SELECT j.kind, j.state, j.payload, j.progress_done, j.error, j.updated_at, o.pid, o.start_ticks, o.claimed_at
         FROM job j LEFT JOIN job_owner o ON o.job_id = j.id WHERE j.id = ?`,
    )
    .get(id) as Record<string, unknown> | undefined;
  const events = db.prepare('SELECT event, detail, at FROM job_event WHERE job_id = ? ORDER BY id').all(id) as {
    event: string;
    detail: string;
    at: string;
  }[];
  return [
    `    job ${id}: ${JSON.stringify(job ?? null)}`,
    ...(events.length === 0
      ? ['    job_event: none']
      : events.map((e) => `    job_event ${e.at} ${e.event} ${e.detail}`)),
  ].join('\n');
}

/** How a kind says when its owners stopped living, where a SIGKILL of their process is not the only way. */
export interface OwnerEnds {
  /**
   * When owner `PID START_TICKS` (as its worker's `me` line said) stopped being alive, wall clock ms; null
   * while it lived to the end. By default its worker's kill.
   */
  readonly endedAt?: (w: SoakProcess, owner: string) => number | null;
  /** A `lost` line that is no failure: its owner had ended before (a desk's cut session). */
  readonly excused?: (w: SoakProcess, line: string) => boolean;
}

/**
 * A live owner losing its job is the failure the soak exists to catch; a cancel is the one way it may
 * happen. From the workers' lines (`me PID START_TICKS` — first, and again whenever its owner identity
 * changed — and `lost JOB …` when a step or the completion found the job no longer theirs) and the
 * store's `job_event` rows: every `lost` of a job that is not cancelled (nor excused), and every job taken
 * over (or recovered) from an owner that was alive then — not ended, or ended only later — each with the
 * job's history.
 */
export function ownersLost(db: Db, workers: readonly SoakProcess[], what = 'job', ends: OwnerEnds = {}): string[] {
  const found: string[] = [];
  const stateOf = db.prepare('SELECT state FROM job WHERE id = ?').pluck();
  for (const w of workers) {
    for (const line of w.lines) {
      if (!line.startsWith('lost ') || ends.excused?.(w, line)) continue;
      const id = Number(line.split(' ')[1]);
      const state = stateOf.get(id) as string | undefined;
      if (state === 'cancelled') continue;
      found.push(
        `${what} ${id}: worker #${w.n} (pid ${w.child.pid}), alive, found it no longer its own (${line}), ` +
          `and it was not cancelled (it is ${state ?? 'gone'})\n${jobHistory(db, id)}`,
      );
    }
  }
  const byIdentity = new Map<string, SoakProcess>();
  for (const w of workers) {
    for (const l of w.lines) {
      const me = l.startsWith('me ') ? l.split(' ') : null;
      if (me) byIdentity.set(`${me[1]} ${me[2]}`, w);
    }
  }
  const endedAt = ends.endedAt ?? ((w: SoakProcess) => w.killedAtWall);
  const events = db.prepare('SELECT job_id, event, detail, at FROM job_event ORDER BY id').all() as {
    job_id: number;
    event: string;
    detail: string;
    at: string;
  }[];
  for (const e of events) {
    let dead: { pid?: number; startTicks?: number | null } | null | undefined;
    try {
      dead = (JSON.parse(e.detail) as { deadOwner?: typeof dead }).deadOwner;
    } catch {
      dead = undefined;
    }
    const owner = dead ? `${dead.pid} ${dead.startTicks}` : '';
    const w = byIdentity.get(owner);
    if (!w) continue;
    const ended = endedAt(w, owner);
    // The same wall clock in every process; a second's slack for its own small corrections.
    if (ended === null || Date.parse(e.at) < ended - 1000) {
      found.push(
        `${what} ${e.job_id}: ${e.event} at ${e.at} from worker #${w.n} (pid ${w.child.pid}), whose owner ${owner} was alive then ` +
          `(${ended === null ? 'it never ended' : `it ended at ${new Date(ended).toISOString()}`})\n${jobHistory(db, e.job_id)}`,
      );
    }
  }
  return found;
}
