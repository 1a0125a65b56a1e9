/**
 * The soak's document imports and their undo: two worker processes (test/workers/import-worker.ts)
 * share one store and import documents of 10,000+ lines (plain CSV, and BrickLink order files with two
 * ORDERs of 5,000 lines each: two documents, imported together or not at all), revive undone ones,
 * undo and redo — while the harness kills them mid-operation. Checks: every document whole or absent
 * (its line count is exactly its file's, or it has no row at all); no key imported twice; each
 * document's state is the one its newest undo step says; nothing a worker saw committed went missing;
 * no stale reason; the store intact.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { catalogueWriters } from '../../src/store/catalogue.ts';
import { openStore } from '../../src/store/open.ts';
import { bumpCatalogueGeneration } from '../../src/store/settings.ts';
import { foldName } from '../../src/placement/fold.ts';
import { csv, orderXml } from './documents.ts';
import { integrityOf, staleReasons, worse, type KindResult } from './soak-checks.ts';
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
  fs.mkdirSync(docs, { recursive: true });
  const storePath = path.join(dir, 'brick-work.sqlite');
  const stopFile = path.join(dir, 'stop');

  // A catalogue of 3,000 parts; a third of the documents' lines name one of them.
  const store = await openStore(storePath);
  const db = store.db;
  db.transaction(() => {
    const write = catalogueWriters(db);
    for (let i = 0; i < CATALOGUE; i++) {
      const name = `Soak Brick ${i} x ${i % 9}`;
      write.item({ type: 'P', no: `${9000 + i}`, name, nameKey: foldName(name), categoryId: 5 }, 'test');
    }
    bumpCatalogueGeneration(db);
  })();
  const line = (doc: number, j: number) =>
    j % 3 === 0 ? `${9000 + ((doc * 131 + j) % CATALOGUE)}` : `soak-${doc}-${j}`;
  // The files, with the documents each holds (key → lines). A CSV's key is its file name; a BrickLink
  // order's, its ORDERID.
  const documents: { name: string; text: string; docs: [string, number][] }[] = [];
  for (let d = 0; d < 6; d++) {
    const name = `soak-doc-${d}.csv`;
    const count = 10_000 + 7 * d;
    const rows = Array.from({ length: count }, (_, j) => [line(d, j), `Thing ${d} ${j}`, '', 1 + (j % 5), '0.10']);
    documents.push({ name, text: csv(['number', 'name', 'colour', 'quantity', 'price'], rows), docs: [[name, count]] });
  }
  for (let d = 0; d < 2; d++) {
    const ids = [700 + 2 * d, 701 + 2 * d];
    const counts = [5000 + d, 5001];
    const orders = ids.map((id, i) => ({
      id: String(id),
      seller: 'soakseller',
      lines: Array.from({ length: counts[i] ?? 0 }, (_, j) => ({ no: line(10 + id, j), colour: 5, qty: 1 + (j % 3) })),
    }));
    documents.push({
      name: `soak-orders-${d}.xml`,
      text: orderXml(orders),
      docs: ids.map((id, i) => [`bricklink-order:${id}`, counts[i] ?? 0]),
    });
  }
  const expected = new Map<string, number>();
  const keysOf = new Map<string, string[]>();
  for (const f of documents) {
    fs.writeFileSync(path.join(docs, f.name), f.text);
    for (const [key, count] of f.docs) expected.set(key, count);
    keysOf.set(
      f.name,
      f.docs.map(([key]) => key),
    );
    fs.writeFileSync(path.join(docs, `${f.name}.keys`), `${f.docs.map(([key]) => key).join('\n')}\n`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();

  const problems: string[] = [];
  const all: SoakProcess[] = [];
  const live = new Set<SoakProcess>();
  let kills = 0;
  let integrity = 'ok';
  let doubles = 0;
  let lost = 0;
  let stale = 0;

  const check = (when: string, full: boolean) => {
    const ro = new Database(storePath, { readonly: true });
    try {
      const rows = ro
        .prepare(
          `SELECT d.id, d.doc_key AS key, d.state, (SELECT count(*) FROM order_line l WHERE l.document_id = d.id) AS lines
             FROM document d ORDER BY d.id`,
        )
        .all() as { id: number; key: string; state: string; lines: number }[];
      const seen = new Map<string, number>();
      for (const r of rows) {
        seen.set(r.key, (seen.get(r.key) ?? 0) + 1);
        const want = expected.get(r.key);
        if (want !== r.lines) {
          lost += 1;
          problems.push(`imports ${when}: document ${r.key} (#${r.id}) has ${r.lines} lines, its file ${want ?? '?'}`);
        }
      }
      for (const [key, count] of seen) {
        if (count > 1) {
          doubles += 1;
          problems.push(`imports ${when}: ${count} documents with the key ${key}`);
        }
      }
      if (!full) return;
      // Each document's state is what its newest remaining undo step says (undone when none is left:
      // its import was undone and then dropped by a newer step).
      const newest = ro.prepare(
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
          lost += 1;
          problems.push(
            `imports ${when}: document ${r.key} is ${r.state}, but its newest step (${c ? `#${c.id}, ${c.state}` : 'none'}) says ${want}`,
          );
        }
      }
      const s = staleReasons(ro);
      if (s.count > 0) problems.push(`imports ${when}: ${s.count} stale reasons, e.g. ${s.examples.join('; ')}`);
      stale += s.count;
      const i = integrityOf(ro);
      if (i !== 'ok') problems.push(`imports ${when}: integrity ${i}`);
      integrity = worse(integrity, i);
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

  // Nothing a worker saw committed is missing: its imports' documents exist (rows are never deleted),
  // and an undo or redo it saw committed holds unless a later one of that step began.
  const ro = new Database(storePath, { readonly: true });
  try {
    const exists = ro.prepare('SELECT count(*) FROM document WHERE doc_key = ?').pluck();
    const stepOf = ro.prepare('SELECT state, created_at AS createdAt FROM undo_step WHERE id = ?');
    // Each committed operation with the moment it began: it committed after that.
    const ops: { what: string; op: string; arg: string; began: bigint; w: number }[] = [];
    for (const w of all) {
      let began = 0n;
      for (const l of w.lines) {
        const p = l.split(' ');
        if (p[0] === 'begin') began = BigInt(p.at(-1) ?? 0);
        if (p[0] === 'begin' || p[0] === 'done')
          ops.push({ what: p[0], op: p[1] ?? '', arg: p[2] ?? '', began, w: w.n });
      }
    }
    for (const e of ops) {
      if (e.what !== 'done') continue;
      if (e.op === 'import') {
        for (const key of keysOf.get(e.arg) ?? []) {
          if (exists.get(key) === 0) {
            lost += 1;
            problems.push(
              `imports: ${e.arg} was imported (the worker saw it committed), yet ${key} is not in the store`,
            );
          }
        }
        continue;
      }
      // An undo or redo of the same step begun after this one began may have changed it again.
      const again = ops.some(
        (x) => x.what === 'begin' && x.op !== 'import' && x.arg === e.arg && x.began > e.began && x !== e,
      );
      if (again) continue;
      const [id, createdAt] = e.arg.split('@');
      const step = stepOf.get(Number(id)) as { state: string; createdAt: string } | undefined;
      if (step !== undefined && step.createdAt !== createdAt) {
        doubles += 1;
        problems.push(
          `imports: step ${id} (made ${createdAt}) was dropped, and its id given to a new step (made ${step.createdAt}): ` +
            'an Undo or Redo naming it would take back the wrong step',
        );
        continue;
      }
      const ok = e.op === 'undo' ? step?.state !== 'done' : step?.state === 'done';
      if (!ok) {
        lost += 1;
        problems.push(`imports: the ${e.op} of step ${e.arg} was committed, yet the step is ${step?.state ?? 'gone'}`);
      }
    }
  } finally {
    ro.close();
  }
  for (const w of all) {
    const crash = crashOf(w);
    if (crash) problems.push(crash);
  }
  const ops = all.flatMap((w) => w.lines.filter((l) => l.startsWith('begin ')));
  const count = (re: RegExp) => all.flatMap((w) => w.lines.filter((l) => re.test(l))).length;
  return {
    kind: 'imports',
    kills,
    runs: ops.length,
    doubleRuns: doubles,
    lostWork: lost,
    staleReasons: stale,
    ownerLost: 0,
    integrity,
    problems,
    notes:
      `${all.length} workers; committed ${count(/^done import/)} imports, ${count(/^done undo/)} undos, ` +
      `${count(/^done redo/)} redos; refused ${count(/^refused /)}`,
    ms: performance.now() - t0,
  };
}
