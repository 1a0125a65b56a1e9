/**
 * The soak's document imports and their undo: two worker processes (test/workers/import-worker.ts)
 * share one store and import documents of 10,000+ lines (plain CSV, and BrickLink order files with two
 * ORDERs of 5,000 lines each: two documents, imported together or not at all), revive undone ones,
 * undo and redo — while the harness kills them mid-operation. Checks: every document whole or absent
 * (its line count is exactly its file's, or it has no row at all); no key imported twice; each
 * document's state is the one its newest undo step says, and every row what the undo history says;
 * nothing a worker saw committed went missing; no stale reason; the store intact. The documents and
 * their checks serve the PostgreSQL kind's desks too (`soak-postgres.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { catalogueWriters } from '../../src/store/catalogue.ts';
import type { StoreDb } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { bumpCatalogueGeneration } from '../../src/store/settings.ts';
import { foldName } from '../../src/placement/fold.ts';
import { csv, orderXml } from './documents.ts';
import { historyMismatches, integrityOf, staleReasons, worse, type KindResult } from './soak-checks.ts';
import {
  crashOf,
  lastLine,
  rand,
  sleep,
  sleepUntil,
  startWorker,
  type SoakProcess,
  type WorkerBundles,
} from './soak-workers.ts';

export interface ImportSoakOptions {
  readonly dir: string;
  readonly kills: number;
  readonly bundles: WorkerBundles;
  /** Worker processes at once (2). */
  readonly workers?: number;
  readonly onKill?: () => void;
}

const CATALOGUE = 3000;

export async function soakImports(o: ImportSoakOptions): Promise<KindResult> {
  const t0 = performance.now();
  const dir = path.join(o.dir, 'imports');
  const docs = path.join(dir, 'docs');
  const storePath = path.join(dir, 'brick-work.sqlite');
  const stopFile = path.join(dir, 'stop');

  const store = await openStore(storePath);
  const db = store.db;
  addSoakCatalogue(db);
  const documents = writeSoakDocuments(docs, { csvLines: 10_000, orderLines: 5000 });
  db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();

  const found = new DocumentChecks('imports', documents);
  const all: SoakProcess[] = [];
  const live = new Set<SoakProcess>();
  let kills = 0;
  const check = (when: string, full: boolean) => {
    const ro = new Database(storePath, { readonly: true });
    try {
      found.check(ro, when, full);
    } finally {
      ro.close();
    }
  };

  // Each operation a worker begins is killed, half of the time, at a random moment of it: within how
  // long that kind of operation takes here (from the workers' own times), a little past its end.
  const workers = o.workers ?? 2;
  const opMs = new Map<string, number>([
    ['import', 1000],
    ['undo', 30],
    ['redo', 30],
  ]);
  let scheduled = 0;
  const victims: SoakProcess[] = [];
  const start = () => {
    const w = startWorker(o.bundles, 'import-worker', [storePath, docs, stopFile]);
    all.push(w);
    live.add(w);
    void w.closed.then(() => live.delete(w));
    let begun: { line: string; op: string; at: bigint } | null = null;
    w.onLine((line) => {
      const p = line.split(' ');
      if (p[0] !== 'begin' && p[0] !== 'done' && p[0] !== 'refused') return;
      const at = BigInt(p.at(-1) ?? 0);
      if ((p[0] === 'done' || p[0] === 'refused') && begun !== null) {
        const ms = Number(at - begun.at) / 1e6;
        opMs.set(begun.op, 0.8 * (opMs.get(begun.op) ?? ms) + 0.2 * ms);
        begun = null;
      }
      if (p[0] !== 'begin') return;
      begun = { line, op: p[1] ?? '', at };
      if (kills + scheduled >= o.kills || Math.random() < 0.5) return;
      scheduled += 1;
      const mine = line;
      const delay = rand([0, 1.15 * (opMs.get(p[1] ?? '') ?? 100)]);
      void sleepUntil(at + BigInt(Math.round(delay * 1e6))).then(() => {
        scheduled -= 1;
        if (lastLine(w, 'begin ', 'done ', 'refused ') !== mine || !w.kill()) return;
        kills += 1;
        o.onKill?.();
        victims.push(w);
      });
    });
  };
  for (let i = 0; i < workers; i++) start();
  while (kills < o.kills) {
    await sleep(20);
    for (const v of victims.splice(0)) {
      await v.closed;
      check(`after kill ${kills} (${lastLine(v, 'begin ')})`, kills % 25 === 0);
    }
    while (live.size < workers) start();
  }
  fs.writeFileSync(stopFile, 'stop');
  await Promise.all(all.map((w) => w.closed));
  check('at the end', true);

  const ro = new Database(storePath, { readonly: true });
  try {
    found.committed(ro, all);
  } finally {
    ro.close();
  }
  for (const w of all) {
    const crash = crashOf(w);
    if (crash) found.problems.push(crash);
  }
  const ops = all.flatMap((w) => w.lines.filter((l) => l.startsWith('begin ')));
  const count = (re: RegExp) => all.flatMap((w) => w.lines.filter((l) => re.test(l))).length;
  return {
    kind: 'imports',
    kills,
    runs: ops.length,
    doubleRuns: found.doubles,
    lostWork: found.lost,
    staleReasons: found.stale,
    ownerLost: 0,
    integrity: found.integrity,
    problems: found.problems,
    notes:
      `${all.length} workers; committed ${count(/^done import/)} imports, ${count(/^done undo/)} undos, ` +
      `${count(/^done redo/)} redos; refused ${count(/^refused /)}`,
    ms: performance.now() - t0,
  };
}

/** A part number of the soak's catalogue (3,000 parts) or a number no catalogue has: a third of the lines name a part. */
function soakLine(doc: number, j: number): string {
  return j % 3 === 0 ? `${9000 + ((doc * 131 + j) % CATALOGUE)}` : `soak-${doc}-${j}`;
}

/** The soak's catalogue: 3,000 parts, `9000` … `11999`. */
export function addSoakCatalogue(db: StoreDb): void {
  db.transaction(() => {
    const write = catalogueWriters(db);
    for (let i = 0; i < CATALOGUE; i++) {
      const name = `Soak Brick ${i} x ${i % 9}`;
      write.item({ type: 'P', no: `${9000 + i}`, name, nameKey: foldName(name), categoryId: 5 }, 'test');
    }
    bumpCatalogueGeneration(db);
  })();
}

/** The documents a soak's workers import: files in `dir`, each with its `.keys` (`test/workers/soak-files.ts`). */
export interface SoakDocuments {
  /** Each document's key and its lines. */
  readonly expected: ReadonlyMap<string, number>;
  /** Each file's name and the keys of the documents it holds. */
  readonly keysOf: ReadonlyMap<string, readonly string[]>;
}

/**
 * Writes `csvFiles` (6) CSV files of `csvLines`+ lines and two BrickLink order files of two ORDERs of `orderLines`
 * lines each (two documents, imported together or not at all). A CSV's key is its file name; an order's,
 * its ORDERID.
 */
export function writeSoakDocuments(
  dir: string,
  size: { csvLines: number; orderLines: number; csvFiles?: number },
): SoakDocuments {
  fs.mkdirSync(dir, { recursive: true });
  const files: { name: string; text: string; docs: [string, number][] }[] = [];
  for (let d = 0; d < (size.csvFiles ?? 6); d++) {
    const name = `soak-doc-${d}.csv`;
    const count = size.csvLines + 7 * d;
    const rows = Array.from({ length: count }, (_, j) => [soakLine(d, j), `Thing ${d} ${j}`, '', 1 + (j % 5), '0.10']);
    files.push({ name, text: csv(['number', 'name', 'colour', 'quantity', 'price'], rows), docs: [[name, count]] });
  }
  for (let d = 0; d < 2; d++) {
    const ids = [700 + 2 * d, 701 + 2 * d];
    const counts = [size.orderLines + d, size.orderLines + 1];
    const orders = ids.map((id, i) => ({
      id: String(id),
      seller: 'soakseller',
      lines: Array.from({ length: counts[i] ?? 0 }, (_, j) => ({
        no: soakLine(10 + id, j),
        colour: 5,
        qty: 1 + (j % 3),
      })),
    }));
    files.push({
      name: `soak-orders-${d}.xml`,
      text: orderXml(orders),
      docs: ids.map((id, i) => [`bricklink-order:${id}`, counts[i] ?? 0]),
    });
  }
  const expected = new Map<string, number>();
  const keysOf = new Map<string, string[]>();
  for (const f of files) {
    fs.writeFileSync(path.join(dir, f.name), f.text);
    for (const [key, count] of f.docs) expected.set(key, count);
    keysOf.set(
      f.name,
      f.docs.map(([key]) => key),
    );
    fs.writeFileSync(path.join(dir, `${f.name}.keys`), `${f.docs.map(([key]) => key).join('\n')}\n`);
  }
  return { expected, keysOf };
}

/**
 * What a kind's checks of its documents found, added up over its run: on a SQLite file (read-only) or a
 * store on a server alike. The workers' lines are the import worker's and the desks': `begin OP ARG … T`,
 * `done OP ARG … T` (OP: import FILE, undo STEP, redo STEP, place LINE with the STEP it wrote), where a
 * STEP is `ID@CREATED_AT`.
 */
export class DocumentChecks {
  lost = 0;
  doubles = 0;
  stale = 0;
  integrity = 'ok';
  readonly problems: string[] = [];

  constructor(
    private readonly kind: string,
    private readonly documents: SoakDocuments,
  ) {}

  /**
   * Every document whole or absent (its line count is exactly its file's) and no key twice; `full`: also
   * each document's state is what its newest undo step says, every row is what the history says, no
   * stale reason, the store intact.
   */
  check(db: StoreDb, when: string, full: boolean): void {
    const { kind, problems } = this;
    const rows = db
      .prepare(
        `SELECT d.id, d.doc_key AS key, d.state, (SELECT count(*) FROM order_line l WHERE l.document_id = d.id) AS lines
           FROM document d ORDER BY d.id`,
      )
      .all() as { id: number; key: string; state: string; lines: number }[];
    const seen = new Map<string, number>();
    for (const r of rows) {
      seen.set(r.key, (seen.get(r.key) ?? 0) + 1);
      const want = this.documents.expected.get(r.key);
      if (want !== r.lines) {
        this.lost += 1;
        problems.push(`${kind} ${when}: document ${r.key} (#${r.id}) has ${r.lines} lines, its file ${want ?? '?'}`);
      }
    }
    for (const [key, count] of seen) {
      if (count > 1) {
        this.doubles += 1;
        problems.push(`${kind} ${when}: ${count} documents with the key ${key}`);
      }
    }
    if (!full) return;
    // Each document's state is what its newest remaining undo step says (undone when none is left:
    // its import was undone and then dropped by a newer step).
    const newest = db.prepare(
      `SELECT s.id, s.state, c.before, c.after FROM undo_change c JOIN undo_step s ON s.id = c.step_id
        WHERE c.table_name = 'document' AND c.row_id = ? ORDER BY s.id DESC, c.id DESC LIMIT 1`,
    );
    for (const r of rows) {
      const c = newest.get(r.id) as { id: number; state: string; before: string; after: string } | undefined;
      const want =
        c === undefined
          ? 'undone'
          : ((JSON.parse(c.state === 'done' ? c.after : c.before) as { state?: string }).state ?? '?');
      if (want !== r.state) {
        this.lost += 1;
        problems.push(
          `${kind} ${when}: document ${r.key} is ${r.state}, but its newest step (${c ? `#${c.id}, ${c.state}` : 'none'}) says ${want}`,
        );
      }
    }
    const history = historyMismatches(db);
    if (history.count > 0)
      problems.push(
        `${kind} ${when}: ${history.count} rows not what the undo history says, e.g. ${history.examples.join('; ')}`,
      );
    this.lost += history.count;
    const s = staleReasons(db);
    if (s.count > 0) problems.push(`${kind} ${when}: ${s.count} stale reasons, e.g. ${s.examples.join('; ')}`);
    this.stale += s.count;
    const i = integrityOf(db);
    if (i !== 'ok') problems.push(`${kind} ${when}: integrity ${i}`);
    this.integrity = worse(this.integrity, i);
  }

  /**
   * Nothing a worker saw committed is missing: its imports' documents exist (rows are never deleted); an
   * undo or redo it saw committed holds, and a hand placement's step is there, unless another undo or
   * redo of that step can have committed after it; a step's id is never given to another step.
   */
  committed(db: StoreDb, workers: readonly SoakProcess[]): void {
    const { kind, problems } = this;
    const exists = db.prepare('SELECT count(*) FROM document WHERE doc_key = ?').pluck();
    const stepOf = db.prepare('SELECT state, created_at AS createdAt FROM undo_step WHERE id = ?');
    // Each operation with the moment it began (it committed after that) and the last moment it can have
    // committed: its `done` line (printed after the commit), never when refused, and for one cut short
    // by a kill, when its process was surely dead.
    type Op = {
      what: string;
      op: string;
      arg: string;
      step: string;
      began: bigint;
      latest: bigint | null;
      /** A `done` line's `begin`. */
      from?: Op;
    };
    const ops: Op[] = [];
    const NEVER_SEEN_DEAD = BigInt(Number.MAX_SAFE_INTEGER) * 1_000_000n;
    for (const w of workers) {
      let began = 0n;
      let open: Op | null = null;
      for (const l of w.lines) {
        const p = l.split(' ');
        if (p[0] !== 'begin' && p[0] !== 'done' && p[0] !== 'refused') continue;
        const at = BigInt(p.at(-1) ?? 0);
        if (p[0] === 'begin') {
          began = at;
          open = { what: 'begin', op: p[1] ?? '', arg: p[2] ?? '', step: '-', began, latest: null };
          ops.push(open);
        } else if (p[0] === 'refused' && open !== null) {
          open.latest = -1n;
          open = null;
        }
        if (p[0] === 'done') {
          const step = p.length > 4 ? (p[3] ?? '-') : '-';
          ops.push({
            what: 'done',
            op: p[1] ?? '',
            arg: p[2] ?? '',
            step,
            began,
            latest: at,
            ...(open ? { from: open } : {}),
          });
          if (open !== null) open.latest = at;
          open = null;
        }
      }
      if (open !== null) open.latest = w.gone ?? NEVER_SEEN_DEAD;
    }
    // Another undo or redo of the same step that can have committed after this one did may have changed
    // it again: one begun later, and as well one begun earlier that was still waiting for the write lock
    // (a worker that read "undo step 2" before another undid and redid it commits its undo after the redo).
    const movedAgain = (step: string, self: Op) =>
      ops.some(
        (x) =>
          x.what === 'begin' &&
          (x.op === 'undo' || x.op === 'redo') &&
          x.arg === step &&
          x !== self.from &&
          (x.latest === null || x.latest > self.began),
      );
    for (const e of ops) {
      if (e.what !== 'done') continue;
      if (e.op === 'import') {
        for (const key of this.documents.keysOf.get(e.arg) ?? []) {
          if (exists.get(key) === 0) {
            this.lost += 1;
            problems.push(
              `${kind}: ${e.arg} was imported (the worker saw it committed), yet ${key} is not in the store`,
            );
          }
        }
        continue;
      }
      if (e.op !== 'undo' && e.op !== 'redo' && e.op !== 'place') continue;
      const named = e.op === 'place' ? e.step : e.arg;
      // An undo or redo of the same step begun after this one began may have changed it again.
      if (movedAgain(named, e)) continue;
      const [id, createdAt] = named.split('@');
      const step = stepOf.get(Number(id)) as { state: string; createdAt: string } | undefined;
      if (step !== undefined && step.createdAt !== createdAt) {
        this.doubles += 1;
        problems.push(
          `${kind}: step ${id} (made ${createdAt}) was dropped, and its id given to a new step (made ${step.createdAt}): ` +
            'an Undo or Redo naming it would take back the wrong step',
        );
        continue;
      }
      const ok = e.op === 'undo' ? step?.state !== 'done' : step?.state === 'done';
      if (!ok) {
        this.lost += 1;
        problems.push(
          e.op === 'place'
            ? `${kind}: the hand placement of line ${e.arg} (step ${named}) was committed, yet its step is ${step?.state ?? 'gone'} and no undo of it began`
            : `${kind}: the ${e.op} of step ${e.arg} was committed, yet the step is ${step?.state ?? 'gone'}`,
        );
      }
    }
  }
}
