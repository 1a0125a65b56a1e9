/**
 * The soak's catalogue loads: a generated Rebrickable parts.csv (~25,000 parts) loaded into copies of
 * a store whose unplaced lines name some of its numbers, by worker processes killed at any moment —
 * a quarter of the kills right after the merge has committed, before the job has ended. After every
 * kill: the catalogue is as it was or the whole file (never a part of it), no unplaced line keeps a
 * reason the catalogue now answers, the store is intact. A second loader sometimes starts at the same
 * time: refused as Busy while the first one lives, never after it died. The dead owner's catalogue
 * job is then recovered — as the app's start and `jobs recover` do, or by a new load taking over — and
 * the load is finished. Meanwhile another desk (a process of its own) writes a setting every few ms: none
 * of its writes may be refused (issue 61 §2: a load never holds the shop), and the longest is said. Reuses
 * the approach of test/catalogue/load-kill.test.ts.
 */
import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { readCatalogueJob, recoverCatalogueJob } from '../../src/catalogue/catalogue-job.ts';
import { catalogueJobPath } from '../../src/store/catalogue-job-file.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { openStore } from '../../src/store/open.ts';
import { files } from './catalogue-files.ts';
import { bsx } from './documents.ts';
import { integrityOf, staleReasons, worse, type KindResult } from './soak-checks.ts';
import { crashOf, rand, sleepUntil, startWorker, type SoakProcess, type WorkerBundles } from './soak-workers.ts';

export interface CatalogueSoakOptions {
  readonly dir: string;
  readonly kills: number;
  readonly bundles: WorkerBundles;
  /** Parts in the generated parts.csv; not a whole number of 10,000 (the load's progress step). */
  readonly items?: number;
  /** Kills in one store before its load is finished. */
  readonly killsPerStore?: number;
  readonly onKill?: () => void;
}

const SOURCE = 'rebrickable:parts.csv';

export async function soakCatalogue(o: CatalogueSoakOptions): Promise<KindResult> {
  const t0 = performance.now();
  const n = o.items ?? 24_567;
  if (n % 10_000 === 0) throw new Error('the parts file must not be a whole number of progress steps');
  const dir = path.join(o.dir, 'catalogue');
  fs.mkdirSync(dir, { recursive: true });

  const numbers = Array.from({ length: n }, (_, i) => `${3000 + i}${i % 7 === 0 ? 'b' : ''}`);
  const partsFile = path.join(dir, 'parts.csv');
  fs.writeFileSync(
    partsFile,
    files.rebrickableParts(
      numbers.map((no, i) => ({ no, name: `Generated Part ${i} with Stud`, category: (i % 60) + 1 })),
    ),
  );
  // Unplaced lines naming ~200 of its numbers, a few it lacks, and names (one it has, one it doesn't).
  const template = path.join(dir, 'template.sqlite');
  const store = await openStore(template);
  const lines = [
    ...numbers.filter((_, i) => i % 120 === 0).map((no) => ({ no })),
    { no: 'not-a-part-1' },
    { no: 'not-a-part-2' },
    { name: 'Generated Part 1300 with Stud' },
    { name: 'Nothing like it' },
  ];
  confirmImport(
    writeSession(store.db),
    { file: { name: 'order.bsx', content: new TextEncoder().encode(bsx(lines)) } },
    SYSTEM_CLOCK,
  );
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();

  const problems: string[] = [];
  const all: SoakProcess[] = [];
  let kills = 0;
  let integrity = 'ok';
  let stale = 0;
  let lost = 0;
  let doubles = 0;
  let recoveries = 0;
  let loadMs = 1000;

  const inspect = (storePath: string, when: string) => {
    const db = new Database(storePath, { readonly: true });
    try {
      const items = db.prepare('SELECT count(*) FROM catalogue_item WHERE source = ?').pluck().get(SOURCE) as number;
      const s = staleReasons(db);
      const i = integrityOf(db);
      integrity = worse(integrity, i);
      stale += s.count;
      if (s.count > 0) problems.push(`catalogue ${when}: ${s.count} stale reasons, e.g. ${s.examples.join('; ')}`);
      if (items !== 0 && items !== n) {
        lost += 1;
        problems.push(`catalogue ${when}: ${items} of the file's ${n} items are in the store — a part of the file`);
      }
      if (i !== 'ok') problems.push(`catalogue ${when}: integrity ${i}`);
      return items;
    } finally {
      db.close();
    }
  };

  const load = (storePath: string) => {
    const w = startWorker(o.bundles, 'catalogue-load-worker', [storePath, partsFile]);
    all.push(w);
    return w;
  };
  const timeOf = (w: SoakProcess, what: string) => {
    const l = w.lines.find((x) => x.startsWith(`${what} `));
    return l === undefined ? null : BigInt(l.split(' ').at(-1) ?? 0);
  };
  /** When it claimed the catalogue job (null: it never did). */
  const startedAt = (w: SoakProcess) => timeOf(w, 'claimed');
  /** When it logged its `end` (null: it never did). */
  const endOf = (w: SoakProcess) => {
    const l = w.lines.find((x) => x.startsWith('end '));
    return l === undefined ? null : BigInt(l.split(' ')[2] ?? 0);
  };
  /** When it surely no longer held the job: its `end`, or the moment its kill was sent. */
  const endedAt = (w: SoakProcess) => endOf(w) ?? w.death ?? process.hrtime.bigint();
  /** When it was surely dead or done: its `end`, or when its exit was seen (a kill takes effect a little after it is sent). */
  const goneAt = (w: SoakProcess) => endOf(w) ?? w.gone ?? process.hrtime.bigint();

  /** Loads in one store: no two at once, a Busy only while a live loader held the job, a `done` that stayed done. */
  const judge = (loaders: readonly SoakProcess[], items: number, where: string) => {
    const spans = loaders.flatMap((w) => {
      const s = startedAt(w);
      return s === null ? [] : [{ w, start: s, end: endedAt(w), gone: goneAt(w) }];
    });
    spans.sort((a, b) => (a.start < b.start ? -1 : 1));
    for (let i = 1; i < spans.length; i++) {
      const prev = spans[i - 1];
      const cur = spans[i];
      if (prev && cur && cur.start < prev.end) {
        doubles += 1;
        problems.push(`catalogue ${where}: loader #${cur.w.n} started while loader #${prev.w.n} still held the job`);
      }
    }
    for (const w of loaders) {
      // Refused as Busy somewhere between its `ready` and its `busy`: a live loader held the job then.
      const busy = timeOf(w, 'busy');
      const asked = timeOf(w, 'ready');
      if (busy !== null && asked !== null) {
        if (!spans.some((s) => s.start <= busy && asked <= s.gone)) {
          lost += 1;
          problems.push(`catalogue ${where}: loader #${w.n} was refused as Busy while no live loader held the job`);
        }
      }
      const crash = crashOf(w);
      if (crash) problems.push(crash);
    }
    if (loaders.some((w) => w.lines.some((l) => l.startsWith('end done'))) && items !== n) {
      lost += 1;
      problems.push(`catalogue ${where}: a load said it was done, yet the store has ${items} of its items`);
    }
  };

  /** Another desk's small writes in each store while its loads run (issue 61 §2): none refused, the longest kept. */
  let longestWrite = 0;
  let writes = 0;
  let refused = 0;
  const deskWrites = (storePath: string, round: number) => {
    const stop = path.join(path.dirname(storePath), 'stop-writes');
    const w = startWorker(o.bundles, 'small-writes-worker', [storePath, stop]);
    all.push(w);
    return async () => {
      fs.writeFileSync(stop, '');
      await w.closed;
      for (const l of w.lines.filter((x) => x.startsWith('refused '))) {
        refused += 1;
        problems.push(`catalogue store ${round}: a desk's small write was refused while loads ran (${l})`);
      }
      const [, n, ms] = w.lines.find((x) => x.startsWith('end '))?.split(' ') ?? [];
      writes += Number(n ?? 0);
      longestWrite = Math.max(longestWrite, Number(ms ?? 0));
      const crash = crashOf(w);
      if (crash) problems.push(crash);
    };
  };
  /** Where the kills struck: before the file was staged, while it was, after its swap (placing lines again). */
  const struck = { before: 0, staging: 0, swapped: 0 };
  const noteStrike = (w: SoakProcess) => {
    if (!w.killed) return;
    if (w.lines.some((l) => l.startsWith('merged '))) struck.swapped += 1;
    else if (w.lines.some((l) => l.startsWith('staged '))) struck.staging += 1;
    else struck.before += 1;
  };

  for (let round = 0; kills < o.kills; round++) {
    const storePath = path.join(dir, `store-${round}`, 'brick-work.sqlite');
    fs.mkdirSync(path.dirname(storePath));
    fs.copyFileSync(template, storePath);
    const loaders: SoakProcess[] = [];
    const stopWrites = deskWrites(storePath, round);

    if (round === 0) {
      // One load to the end, unkilled: how long a load takes here.
      const w = load(storePath);
      loaders.push(w);
      await w.closed;
      const [from, to] = [timeOf(w, 'ready'), timeOf(w, 'end')];
      if (from !== null && to !== null) loadMs = Number(to - from) / 1e6;
      judge(loaders, inspect(storePath, 'after a whole load'), 'store 0');
      await stopWrites();
      continue;
    }

    const perStore = o.killsPerStore ?? 3;
    for (let k = 0; k < perStore && kills < o.kills; k++) {
      const first = load(storePath);
      const attempt = [first];
      if (Math.random() < 0.3) attempt.push(load(storePath));
      loaders.push(...attempt);
      const holder = () => attempt.find((w) => startedAt(w) !== null && w.alive()) ?? first;
      const afterMerge = Math.random() < 0.25;
      let at: string;
      if (afterMerge) {
        // Strike the moment the merge has committed: the job has not ended yet.
        at = 'right after the merge';
        let struck = false;
        await new Promise<void>((resolve) => {
          for (const w of attempt)
            w.onLine((l) => {
              if (!struck && l.startsWith('merged ')) {
                struck = true;
                if (w.kill()) {
                  kills += 1;
                  o.onKill?.();
                }
                resolve();
              }
            });
          void Promise.all(attempt.map((w) => w.closed)).then(() => resolve());
        });
      } else {
        await first.waitFor(/^ready /);
        const delay = rand([0, loadMs * 1.15]);
        at = `${Math.round(delay)} ms into the load`;
        await sleepUntil((timeOf(first, 'ready') ?? process.hrtime.bigint()) + BigInt(Math.round(delay * 1e6)));
        if (holder().kill()) {
          kills += 1;
          o.onKill?.();
        }
      }
      await Promise.all(attempt.map((w) => w.closed));
      attempt.forEach(noteStrike);
      inspect(storePath, `in store ${round}, killed ${at}`);
    }

    // The dead owner's catalogue job is recovered: by the app's start or `jobs recover` (in this
    // process), or by a new load, which a dead owner's job must not block.
    const job = readCatalogueJob(catalogueJobPath(storePath));
    if (job.status === 'ok' && job.record.state === 'running' && round % 2 === 0) {
      const s = await openStore(storePath);
      try {
        const r = recoverCatalogueJob(s.db, storePath, { clock: SYSTEM_CLOCK });
        if (r === null) problems.push(`catalogue store ${round}: a dead owner's catalogue job was not recovered`);
        else recoveries += 1;
      } finally {
        s.close();
      }
      const after = readCatalogueJob(catalogueJobPath(storePath));
      if (after.status !== 'ok' || after.record.state !== 'failed' || after.record.recovered !== true)
        problems.push(`catalogue store ${round}: after recovery catalogue-job.json is ${JSON.stringify(after)}`);
    }
    const items = inspect(storePath, `in store ${round}, after its kills`);
    const stillRunning = readCatalogueJob(catalogueJobPath(storePath));
    if (items !== n || (stillRunning.status === 'ok' && stillRunning.record.state === 'running')) {
      const last = load(storePath);
      loaders.push(last);
      await last.closed;
      if (!last.lines.some((l) => l.startsWith('end done'))) {
        lost += 1;
        problems.push(
          `catalogue store ${round}: the load after the kills did not finish: ${last.lines.join(' | ')} ${last.stderr()}`,
        );
      }
    }
    judge(loaders, inspect(storePath, `in store ${round}, at the end`), `store ${round}`);
    await stopWrites();
    const end = readCatalogueJob(catalogueJobPath(storePath));
    if (end.status === 'ok' && end.record.state === 'running')
      problems.push(`catalogue store ${round}: catalogue-job.json still says running with every loader gone`);
    fs.rmSync(path.dirname(storePath), { recursive: true, force: true });
  }

  return {
    kind: 'catalogue',
    kills,
    runs: all.filter((w) => startedAt(w) !== null).length,
    doubleRuns: doubles,
    lostWork: lost,
    staleReasons: stale,
    ownerLost: 0,
    integrity,
    problems,
    notes:
      `${all.length} processes (loaders of ${n} parts, and a desk writing beside them), a whole load ${Math.round(loadMs)} ms, ${recoveries} jobs recovered; ` +
      `kills before the file was staged ${struck.before}, while it was ${struck.staging}, after its swap ${struck.swapped}; ` +
      `the desk's ${writes} small writes: the longest ${longestWrite} ms, ${refused} refused`,
    ms: performance.now() - t0,
  };
}
