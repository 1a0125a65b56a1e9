/**
 * The soak's held lock (issue 26; SPEC §11): the browser host — the app's core, its writer, suggestion
 * and job runner threads — works while another process holds the store's write lock for random spans
 * of 1–15 s (past the 10 s busy timeout about a third of the time), ended by a COMMIT or by SIGKILL.
 * Meanwhile it is asked, over real HTTP, for hand placements, imports, settings, catalogue loads (the
 * runner thread) and the screens' reads. No answer may be `internal` or `interrupted`; a write refused
 * as `store-busy` must have changed nothing and is asked again; every write answered done must be in
 * the store once; every catalogue load must end (done, or failed in words) and the last one, after the
 * spans, must be done — a dead runner would never end it; reads must answer while the lock is held.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { openStore } from '../../src/store/open.ts';
import { files } from './catalogue-files.ts';
import { REPO_ROOT } from './cli.ts';
import { hostArgs } from './built.ts';
import { insertColour, insertDocument, insertItem, insertLine, insertOrder } from './store-builder.ts';
import { integrityOf, staleReasons, type KindResult } from './soak-checks.ts';
import { rand, sleep } from './soak-workers.ts';
import { lines as linesOf } from './workers.ts';

export interface LockSoakOptions {
  readonly dir: string;
  /** Spans of the held lock; about half end with a SIGKILL of the process holding it. */
  readonly spans: number;
  readonly onKill?: () => void;
  /** The longest span (ms): 15 s as the issue asks; shorter in the test of the harness. */
  readonly longestSpanMs?: number;
  /**
   * The slowest a screen's read may answer while the lock is held (`npm run soak`: a second, issue 45);
   * absent, the slowest is only reported (`npm test` runs this kind beside other files: no timed bar there).
   */
  readonly slowestReadMs?: number;
}

type Answer = { ok: true; value: any } | { ok: false; error: { code: string; message: string } };

/** Codes a call may answer while the lock is held: the store is busy (asked again), or, for a load, a load is under way. */
const EXPECTED_REFUSALS = new Set(['store-busy', 'busy']);

const LINES = 300;
const DOCUMENTS = 40;

/** The longest a screen's read may take while the lock is held (issue 45): far over any real read, far under a busy wait. */
export const SLOWEST_READ_MS = 1000;
/** A host answering a call that reads no store within this keeps its own pace: its reads' times mean something. */
const STEADY_PACE_MS = 200;

export async function soakLock(o: LockSoakOptions): Promise<KindResult> {
  const t0 = performance.now();
  const dir = path.join(o.dir, 'lock');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'brick-work.sqlite');
  const problems: string[] = [];
  const lineIds = await makeStore(file);
  const host = await startHost(file, dir);
  const counts = {
    kills: 0,
    busy: 0,
    writesDone: 0,
    loadsDone: 0,
    loadsFailed: 0,
    maxReadMs: 0,
    slowestRead: '',
    maxPaceMs: 0,
  };
  const unexpected = (what: string, a: Answer) => {
    if (!a.ok && EXPECTED_REFUSALS.has(a.error.code)) {
      counts.busy += 1;
      return false;
    }
    if (!a.ok) problems.push(`${what}: answered ${a.error.code}: ${a.error.message}`);
    return !a.ok;
  };
  let holding = true;
  // A worker that throws (the host gone, a connection refused) is a problem in the report, not a crash
  // of the whole soak with an unhandled rejection before its table is printed.
  const asProblem = (what: string, work: () => Promise<void>) =>
    work().catch((e: unknown) => void problems.push(`${what}: ${e instanceof Error ? e.message : String(e)}`));

  // Hand placements, one line after another: each one asked again until it is done.
  const placed = new Set<number>();
  const placer = asProblem('placing lines', async () => {
    for (const lineId of lineIds) {
      for (;;) {
        const a = await host.call('lines.place', { lineId, type: 'P', no: '3001', colourId: null });
        if (a.ok) {
          placed.add(lineId);
          counts.writesDone += 1;
          break;
        }
        if (unexpected(`placing line ${lineId}`, a)) break;
      }
      if (holding) await sleep(rand([100, 600]));
    }
  });

  // Imports of documents with keys of their own: each asked again until it is done, never twice.
  const imported = new Set<string>();
  const importer = asProblem('importing', async () => {
    for (let k = 1; k <= DOCUMENTS; k++) {
      const name = `held-${k}.csv`;
      const content = new TextEncoder().encode(
        `Part,Color,Quantity\n${Array.from({ length: 25 }, (_, i) => `${3001 + (i % 2)},5,${k + i}`).join('\n')}\n`,
      );
      for (;;) {
        const a = await host.call('import.confirm', { file: { name, content } });
        if (a.ok) {
          imported.add(name);
          counts.writesDone += 1;
          break;
        }
        if (!a.ok && a.error.code === 'duplicate-document') {
          problems.push(`${name}: refused as a duplicate after a refusal said it was not imported: ${a.error.message}`);
          break;
        }
        if (unexpected(`importing ${name}`, a)) break;
      }
      if (holding) await sleep(rand([500, 2500]));
    }
  });

  // The daily call limit, set again and again: the last value answered done is the one kept.
  let lastLimit: number | null = null;
  const settings = asProblem('setting the limit', async () => {
    for (let n = 1000; holding; n++) {
      const a = await host.call('settings.set', { key: 'daily-call-limit', value: String(n) });
      if (a.ok) lastLimit = n;
      else unexpected('setting the daily call limit', a);
      await sleep(rand([300, 1500]));
    }
  });

  // The screens' reads: they answer while the lock is held (WAL), never waiting for it.
  const reader = asProblem('reading', async () => {
    while (holding) {
      for (const [name, args] of [
        ['orders.list', {}],
        ['lines.list', { orderId: 1 }],
        ['catalogue.status', {}],
      ] as const) {
        // A call that reads no store, just before: the host's own pace at this moment (a machine busy
        // with other work slows both). What the read takes beyond it is what it waited for.
        const c = performance.now();
        await host.call('shopServer.get', {});
        const pace = performance.now() - c;
        const t = performance.now();
        const a = await host.call(name, args);
        const took = performance.now() - t;
        counts.maxPaceMs = Math.max(counts.maxPaceMs, pace);
        // Only while the host keeps its own pace can a slow read be told to have waited (a starved
        // machine slows every answer alike: then the read says nothing of the lock).
        if (pace < STEADY_PACE_MS && took - pace > counts.maxReadMs) {
          counts.maxReadMs = took - pace;
          counts.slowestRead = `${name} (${took.toFixed(0)} ms, beside ${pace.toFixed(0)} ms for a call that reads no store)`;
        }
        if (!a.ok) problems.push(`${name}: answered ${a.error.code}: ${a.error.message}`);
      }
      await sleep(rand([100, 400]));
    }
  });

  // Catalogue loads on the runner thread, one after another: each ends, done or failed in words.
  const loads: { parts: string[]; outcome: string }[] = [];
  const load = async (k: number): Promise<void> => {
    const parts = Array.from({ length: 30 }, (_, i) => `L${k}-${i}`);
    const content = new TextEncoder().encode(
      files.rebrickableParts(parts.map((no) => ({ no, name: `Loaded part ${no}` }))),
    );
    const ended = host.nextLoadEnd();
    const a = await host.call('catalogue.load', { files: [{ name: `parts-${k}.csv`, content }] });
    if (!a.ok) {
      ended.cancel();
      unexpected(`catalogue load ${k}`, a);
      loads.push({ parts, outcome: `refused: ${a.error.code}` });
      return;
    }
    const outcome = await Promise.race([ended.state, sleep(120_000).then(() => 'never ended')]);
    loads.push({ parts, outcome });
    if (outcome === 'done') counts.loadsDone += 1;
    else if (outcome.startsWith('failed: ') && !/internal|undefined/i.test(outcome)) counts.loadsFailed += 1;
    else problems.push(`catalogue load ${k}: ${outcome}`);
  };
  const loader = asProblem('loading the catalogue', async () => {
    for (let k = 1; holding; k++) {
      await load(k);
      await sleep(rand([1000, 4000]));
    }
  });

  // The held lock: spans of 1–15 s, a second or three apart, each ended by a COMMIT or a SIGKILL.
  const longest = o.longestSpanMs ?? 15_000;
  for (let s = 0; s < o.spans; s++) {
    const holder = await holdLock(file);
    await sleep(rand([1000, longest]));
    if (s % 2 === 0) {
      holder.kill('SIGKILL');
      counts.kills += 1;
      o.onKill?.();
    } else holder.stdin?.write('commit\n');
    await new Promise((resolve) => (holder.exitCode !== null ? resolve(null) : holder.once('exit', resolve)));
    await sleep(rand([500, 3000]));
  }
  holding = false;
  await Promise.all([placer, importer, settings, reader, loader]);
  // After the spans: the runner still runs a load to its end.
  await load(0);
  if (loads.at(-1)?.outcome !== 'done')
    problems.push(`the last catalogue load, with no lock held, ended ${loads.at(-1)?.outcome}`);
  await host.stop();
  // A thread may fail to open the store while the lock is held (it says why, and starts again); one that
  // stops for anything else, or a call that ends in `internal`, is what this kind exists to catch.
  for (const line of host.log().split('\n'))
    if (/stopped: |internal/i.test(line)) problems.push(`the host's log: ${line}`);

  // What the answers said is what the store holds.
  const db = new Database(file, { readonly: true });
  let lostWork = 0;
  let doubleRuns = 0;
  try {
    const byHand = new Set(db.prepare("SELECT id FROM order_line WHERE placed_by = 'hand'").pluck().all() as number[]);
    for (const id of lineIds) {
      if (placed.has(id) !== byHand.has(id)) {
        lostWork += 1;
        problems.push(
          `line ${id}: ${placed.has(id) ? 'placed by the answer, not in the store' : 'placed, though no answer said so'}`,
        );
      }
    }
    const documents = db
      .prepare(
        "SELECT doc_key AS key, count(*) AS n FROM document WHERE state = 'imported' AND doc_key LIKE 'held-%' GROUP BY doc_key",
      )
      .all() as { key: string; n: number }[];
    for (const d of documents) {
      if (d.n > 1) {
        doubleRuns += 1;
        problems.push(`${d.key}: imported ${d.n} times`);
      }
      if (!imported.has(d.key)) problems.push(`${d.key}: in the store, though no answer said it was imported`);
    }
    for (const key of imported)
      if (!documents.some((d) => d.key === key)) {
        lostWork += 1;
        problems.push(`${key}: answered imported, not in the store`);
      }
    const limit = db.prepare("SELECT value FROM setting WHERE key = 'daily-call-limit'").pluck().get() as
      string | undefined;
    if (lastLimit !== null && limit !== String(lastLimit)) {
      lostWork += 1;
      problems.push(`the daily call limit is ${limit}, but the last one answered done was ${lastLimit}`);
    }
    const inCatalogue = db.prepare("SELECT count(*) FROM catalogue_item WHERE item_type = 'P' AND item_no = ?").pluck();
    for (const l of loads) {
      const present = l.parts.filter((p) => (inCatalogue.get(p) as number) > 0).length;
      if (l.outcome === 'done' && present !== l.parts.length) {
        lostWork += 1;
        problems.push(`a load answered done has ${present} of its ${l.parts.length} parts in the catalogue`);
      }
      if (l.outcome !== 'done' && present !== 0 && present !== l.parts.length)
        problems.push(
          `a load that ended "${l.outcome}" left ${present} of its ${l.parts.length} parts: a part of a file`,
        );
    }
    const stale = staleReasons(db);
    problems.push(...stale.examples);
    // The screens' reads never wait for the write lock another process holds (WAL lets them through).
    if (o.slowestReadMs !== undefined && counts.maxReadMs > o.slowestReadMs)
      problems.push(
        `${counts.slowestRead} waited ${counts.maxReadMs.toFixed(0)} ms more than the host's own pace while another process held the write lock (at most ${o.slowestReadMs} ms: reads never wait for it)`,
      );
    return {
      kind: 'lock',
      kills: counts.kills,
      runs: counts.writesDone + counts.loadsDone + counts.loadsFailed,
      doubleRuns,
      lostWork,
      staleReasons: stale.count,
      ownerLost: 0,
      integrity: integrityOf(db),
      problems,
      notes:
        `${o.spans} spans of a held lock; ${counts.writesDone} writes done, ${counts.busy} refused as busy and asked again; ` +
        `${counts.loadsDone} loads done, ${counts.loadsFailed} failed in words; the slowest read beyond the host's pace: ${counts.slowestRead}; the slowest call that reads no store ${counts.maxPaceMs.toFixed(0)} ms`,
      ms: performance.now() - t0,
    };
  } finally {
    db.close();
  }
}

/** A store with two parts, a colour, and an order of lines none of whose numbers the catalogue has. */
async function makeStore(file: string): Promise<number[]> {
  const store = await openStore(file);
  try {
    insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
    insertItem(store.db, { no: '3002', name: 'Brick 2 x 3' });
    insertColour(store.db, { id: 5, name: 'Red' });
    const orderId = insertOrder(store.db, { reference: 'Held' });
    const documentId = insertDocument(store.db, { orderId, key: 'held' });
    return store.db.transaction(() =>
      Array.from({ length: LINES }, (_, i) =>
        insertLine(store.db, {
          documentId,
          position: i + 1,
          given: { no: `u-${i}`, name: `Unknown ${i}`, colourId: 5 },
        }),
      ),
    )();
  } finally {
    store.close();
  }
}

/** Another process takes the store's write lock (test/workers/write-lock-holder.ts) and keeps it until told to commit, or killed. */
export async function holdLock(file: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'test', 'workers', 'write-lock-holder.ts'), file],
    { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await linesOf(child).waitFor(/^locked$/);
  return child;
}

interface Host {
  call(name: string, args: unknown): Promise<Answer>;
  /** The state the next catalogue load ends with ("done", "failed: …"), from the event stream; `cancel` when it was refused. */
  nextLoadEnd(): { state: Promise<string>; cancel(): void };
  log(): string;
  stop(): Promise<void>;
}

/** The browser host on `file` (a real process), with its event stream read. */
async function startHost(file: string, dir: string): Promise<Host> {
  const renderer = path.join(dir, 'renderer');
  fs.mkdirSync(renderer, { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>brick-work</title>');
  const child = spawn(process.execPath, [...hostArgs(), '--db', file, '--renderer', renderer], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = new URL((await linesOf(child).waitFor(/^open http/)).replace(/^open /, ''));
  const port = Number(url.port);
  const token = /#token=([\w-]+)/.exec(url.hash)?.[1] ?? '';
  const headers = { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}` };

  const waiting: ((state: string) => void)[] = [];
  const events = http.get({ host: '127.0.0.1', port, path: '/api/events', headers }, (res) => {
    let buffer = '';
    res.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (name !== 'job.progress' || data === undefined) continue;
        const p = JSON.parse(data) as { kind: string; state: string };
        if (p.kind === 'catalogue-load' && p.state !== 'running') waiting.shift()?.(p.state);
      }
    });
  });
  events.on('error', () => {});

  return {
    call: (name, args) =>
      new Promise((resolve, reject) => {
        const req = http.request(
          // A connection of its own per call: a kept-alive one the host closes as idle just as it is reused
          // ends in "socket hang up" with nothing asked, which is the client's race, not the host's fault.
          { host: '127.0.0.1', port, path: `/api/call/${name}`, method: 'POST', headers, agent: false },
          (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => resolve(decodeWire(text) as Answer));
          },
        );
        req.on('error', reject);
        req.end(encodeWire(args));
      }),
    nextLoadEnd: () => {
      let waiter: (state: string) => void = () => {};
      const state = new Promise<string>((resolve) => (waiter = resolve));
      waiting.push(waiter);
      return { state, cancel: () => void waiting.splice(waiting.indexOf(waiter), 1) };
    },
    log: () => stderr,
    stop: async () => {
      events.destroy();
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    },
  };
}
