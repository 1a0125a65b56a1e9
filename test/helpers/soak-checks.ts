/**
 * What the soak checks in a store after its kills, whatever the kind of work, and the row each kind
 * of work reports for the soak's table.
 */
import type { StoreDb } from '../../src/store/db.ts';
import { catalogueLookup } from '../../src/placement/catalogue-lookup.ts';
import { placeItem, type GivenItem } from '../../src/placement/rule.ts';
import type { SoakProcess } from './soak-workers.ts';
import { tallyMismatches } from './tally.ts';

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

/** The first answer of `PRAGMA integrity_check` that is not `ok`, or `ok`; plus foreign keys and each document's tally. */
export function integrityOf(db: Db): string {
  const check = db.pragma('integrity_check', { simple: true }) as string;
  if (check !== 'ok') return check;
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length > 0) return `foreign_key_check: ${fk.length} rows`;
  // A store the soak left at 4.1 (killed before its upgrade) has no tallies yet.
  const tallied = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'document_tally'").get();
  const miscounted = tallied === undefined ? [] : tallyMismatches(db);
  return miscounted.length === 0 ? 'ok' : `document_tally: ${miscounted.length} documents miscounted`;
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

/**
 * A live owner losing its job is the failure the soak exists to catch; a cancel is the one way it may
 * happen. From the workers' lines (`me PID START_TICKS` first, `lost JOB …` when a step or the
 * completion found the job no longer theirs) and the store's `job_event` rows: every `lost` of a job
 * that is not cancelled, and every job taken over (or recovered) from a worker that was alive then —
 * never killed, or killed only later — each with the job's history.
 */
export function ownersLost(db: Db, workers: readonly SoakProcess[], what = 'job'): string[] {
  const found: string[] = [];
  const stateOf = db.prepare('SELECT state FROM job WHERE id = ?').pluck();
  for (const w of workers) {
    for (const line of w.lines) {
      if (!line.startsWith('lost ')) continue;
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
    const me = w.lines.find((l) => l.startsWith('me '))?.split(' ');
    if (me) byIdentity.set(`${me[1]} ${me[2]}`, w);
  }
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
    const w = dead ? byIdentity.get(`${dead.pid} ${dead.startTicks}`) : undefined;
    if (!w) continue;
    // The same wall clock in every process; a second's slack for its own small corrections.
    if (w.killedAtWall === null || Date.parse(e.at) < w.killedAtWall - 1000) {
      found.push(
        `${what} ${e.job_id}: ${e.event} at ${e.at} from worker #${w.n} (pid ${w.child.pid}), which was alive then ` +
          `(${w.killedAtWall === null ? 'never killed' : `killed at ${new Date(w.killedAtWall).toISOString()}`})\n${jobHistory(db, e.job_id)}`,
      );
    }
  }
  return found;
}
