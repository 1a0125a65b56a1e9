/**
 * The soak's 4.1 → 4.2 upgrades: copies of a 4.1 store (test/helpers/store-builder.ts, with 8,000
 * unplaced lines, so the upgrade takes a while) opened read-write by worker processes — sometimes two at
 * once — killed at a moment of the upgrade (on one of its progress reports, or after a random pause).
 * After every kill the file is either the 4.1 store, intact and unchanged row for row, or a complete
 * 4.2 store (its schema a new store's, every line there and placed by the 4.2 rule, the backup the 4.1
 * store) — never anything between; the next open finishes it; only one open ever upgrades a file.
 * Reuses the approach of test/store/upgrade-kill.test.ts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { StoreDb } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { addUnplacedLines, populate41 } from './fixtures.ts';
import { integrityOf, staleReasons, worse, type KindResult } from './soak-checks.ts';
import { crashOf, rand, sleepUntil, startWorker, type SoakProcess, type WorkerBundles } from './soak-workers.ts';
import { buildStore, dumpRows, normalisedSchema } from './store-builder.ts';

export interface UpgradeSoakOptions {
  readonly dir: string;
  readonly kills: number;
  readonly bundles: WorkerBundles;
  /** Unplaced lines in the 4.1 store (8,000). */
  readonly lines?: number;
  readonly onKill?: () => void;
}

const rowsHash = (db: StoreDb) =>
  createHash('sha256')
    .update(JSON.stringify(dumpRows(db)))
    .digest('hex');

export async function soakUpgrade(o: UpgradeSoakOptions): Promise<KindResult> {
  const t0 = performance.now();
  const dir = path.join(o.dir, 'upgrade');
  fs.mkdirSync(dir, { recursive: true });
  const template = path.join(dir, 'template-4.1.sqlite');
  const db41 = buildStore(template, '4.1');
  populate41(db41);
  addUnplacedLines(db41, o.lines ?? 8000);
  db41.pragma('wal_checkpoint(TRUNCATE)');
  const before = rowsHash(db41);
  const lineCount = db41.prepare('SELECT count(*) FROM order_line').pluck().get() as number;
  db41.close();
  const fresh = await openStore(path.join(dir, 'fresh.sqlite'));
  const schema42 = JSON.stringify(normalisedSchema(fresh.db));
  fresh.close();

  const problems: string[] = [];
  const all: SoakProcess[] = [];
  let kills = 0;
  let integrity = 'ok';
  let doubles = 0;
  let lost = 0;
  let stale = 0;
  let upgradeMs = 500;
  let progressLines = 3;

  /** 401 or 402; judged whole either way. */
  const inspect = (file: string, when: string): number => {
    const db = new Database(file, { readonly: true });
    try {
      const version = db.pragma('user_version', { simple: true }) as number;
      const i = integrityOf(db);
      integrity = worse(integrity, i);
      if (i !== 'ok') problems.push(`upgrade ${when}: integrity ${i}`);
      if (version === 401) {
        if (rowsHash(db) !== before) {
          lost += 1;
          problems.push(`upgrade ${when}: the file is still 4.1, but its rows are not the 4.1 store's any more`);
        }
      } else if (version === 402) {
        const wrong: string[] = [];
        if (JSON.stringify(normalisedSchema(db)) !== schema42) wrong.push("its schema is not a new 4.2 store's");
        const lines = db.prepare('SELECT count(*) FROM order_line').pluck().get() as number;
        if (lines !== lineCount) wrong.push(`${lines} lines of ${lineCount}`);
        const torn = db
          .prepare('SELECT count(*) FROM order_line WHERE (item_no IS NULL) <> (unplaced_reason IS NOT NULL)')
          .pluck()
          .get() as number;
        if (torn > 0) wrong.push(`${torn} lines placed and unplaced at once`);
        const s = staleReasons(db);
        stale += s.count;
        if (s.count > 0) wrong.push(`${s.count} stale reasons, e.g. ${s.examples.join('; ')}`);
        const bak = `${file}.4.1.bak`;
        if (!fs.existsSync(bak)) wrong.push('no backup');
        else {
          const b = new Database(bak, { readonly: true });
          try {
            if (rowsHash(b) !== before) wrong.push('its backup is not the 4.1 store');
          } finally {
            b.close();
          }
        }
        if (wrong.length > 0) {
          lost += 1;
          problems.push(`upgrade ${when}: the file is 4.2 but not complete: ${wrong.join('; ')}`);
        }
      } else {
        lost += 1;
        problems.push(`upgrade ${when}: the file is at user_version ${version}`);
      }
      return version;
    } finally {
      db.close();
    }
  };
  const open = (file: string) => {
    const w = startWorker(o.bundles, 'upgrade-worker', [file]);
    all.push(w);
    return w;
  };
  const progress = (w: SoakProcess) => w.lines.filter((l) => l.startsWith('progress ')).length;
  const timeOf = (w: SoakProcess, what: string) => {
    const l = w.lines.find((x) => x.startsWith(`${what} `));
    return l === undefined ? null : BigInt(l.split(' ').at(-1) ?? 0);
  };

  for (let round = 0; kills < o.kills; round++) {
    const file = path.join(dir, `store-${round}`, 'brick-work.sqlite');
    fs.mkdirSync(path.dirname(file));
    fs.copyFileSync(template, file);
    const openers: SoakProcess[] = [];
    let version = 401;

    if (round === 0) {
      // One upgrade, unkilled: how long it takes here, and how many progress reports it makes.
      const w = open(file);
      openers.push(w);
      await w.closed;
      const [from, to] = [timeOf(w, 'ready'), timeOf(w, 'upgraded')];
      if (from !== null && to !== null) upgradeMs = Number(to - from) / 1e6;
      progressLines = Math.max(1, progress(w));
      version = inspect(file, 'unkilled');
    }

    for (let attempt = 0; version === 401 && attempt < 4 && kills < o.kills; attempt++) {
      const both = [open(file)];
      if (Math.random() < 0.3) both.push(open(file));
      openers.push(...both);
      let at: string;
      if (Math.random() < 0.5) {
        // On one of its progress reports: from inside the upgrade's transaction.
        const nth = 1 + Math.floor(Math.random() * progressLines);
        at = `on progress report ${nth}`;
        let struck = false;
        await new Promise<void>((resolve) => {
          for (const w of both)
            w.onLine(() => {
              if (struck || progress(w) < nth) return;
              struck = true;
              if (w.kill()) {
                kills += 1;
                o.onKill?.();
              }
              resolve();
            });
          void Promise.all(both.map((w) => w.closed)).then(() => resolve());
        });
      } else {
        await Promise.all(both.map((w) => w.waitFor(/^ready /)));
        const delay = rand([0, upgradeMs * 1.15]);
        at = `${Math.round(delay)} ms in`;
        await sleepUntil(
          (timeOf(both[0] as SoakProcess, 'ready') ?? process.hrtime.bigint()) + BigInt(Math.round(delay * 1e6)),
        );
        const upgrading = both.find((w) => progress(w) > 0 && w.alive()) ?? both[0];
        if (upgrading?.kill()) {
          kills += 1;
          o.onKill?.();
        }
      }
      await Promise.all(both.map((w) => w.closed));
      version = inspect(file, `store ${round}, killed ${at}`);
      if (version !== 402 && both.some((w) => w.lines.some((l) => l.startsWith('upgraded ')))) {
        lost += 1;
        problems.push(`upgrade store ${round}: an open said it upgraded the file, yet it is ${version}`);
      }
    }
    if (version === 401) {
      const last = open(file);
      openers.push(last);
      await last.closed;
      version = inspect(file, `store ${round}, opened again`);
      if (version !== 402) problems.push(`upgrade store ${round}: an open after the kills did not upgrade it`);
    }
    const upgraders = openers.filter((w) => w.lines.some((l) => l.startsWith('upgraded ')));
    if (upgraders.length > 1) {
      doubles += upgraders.length - 1;
      problems.push(`upgrade store ${round}: ${upgraders.length} opens each upgraded it`);
    }
    for (const w of openers) {
      const crash = crashOf(w);
      if (crash) problems.push(crash);
    }
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }

  return {
    kind: 'upgrade',
    kills,
    runs: all.filter((w) => progress(w) > 0).length,
    doubleRuns: doubles,
    lostWork: lost,
    staleReasons: stale,
    ownerLost: 0,
    integrity,
    problems,
    notes: `${all.length} opens of 4.1 stores of ${lineCount} lines, an upgrade ${Math.round(upgradeMs)} ms`,
    ms: performance.now() - t0,
  };
}
