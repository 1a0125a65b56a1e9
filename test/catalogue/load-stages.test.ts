/**
 * Issue 61 §2: a catalogue load never holds the shop. A file's rows are staged apart as the file is read
 * — on the loading connection, where no other connection sees them and no lock of the store is taken —
 * and swapped into the catalogue in one short transaction. So another desk's small write passes at
 * every step of a file's merge instead of waiting for all of it (it used to hold the write lock for the
 * whole file: 2.5–6.4 s on a server store), and a reader sees the old catalogue or the new one, never a
 * part of a file. On a SQLite file and on a PostgreSQL server.
 */
import Database from 'better-sqlite3';
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { dataVersion } from '../../src/store/data-version.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import { openStore } from '../../src/store/open.ts';
import { PostgresDatabase } from '../../src/store/postgres/database.ts';
import { TABLES_WITH_ID } from '../../src/store/schema/tables-4.2.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { describeEachStore, type Stores } from '../helpers/stores.ts';
import { exited, lines, spawnWorker } from '../helpers/workers.ts';

const PARTS = Array.from({ length: 24_000 }, (_, i) => ({ no: `${10_000 + i}`, name: `Staged Part ${i} with Stud` }));
const CODES = PARTS.map((p, i) => ({ no: p.no, colour: i % 2 ? 'Red' : 'Black', element: `${600_000 + i}` }));
const LOAD = [
  { name: 'parts.csv', content: bytes(files.rebrickableParts(PARTS)) },
  { name: 'codes.txt', content: bytes(files.bricklinkCodes(CODES)) },
];

/** Another desk's connection whose writes never wait for the write lock: a wait is a refusal at once. */
function impatientDesk(stores: Stores, location: string): { write(value: string): void } {
  const sql =
    "INSERT INTO setting (key, value) VALUES ('test.other-desk', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value";
  if (stores.kind === 'sqlite') {
    const db = new Database(location, { timeout: 0 });
    onTestFinished(() => void db.close());
    const write = db.prepare(sql);
    return { write: (v) => void write.run(v) };
  }
  const db = PostgresDatabase.connect(location, { busyTimeoutMs: 1, tablesWithId: TABLES_WITH_ID });
  onTestFinished(() => db.close());
  const write = db.prepare(sql);
  return { write: (v) => void write.run(v) };
}

describeEachStore('a catalogue load and the other desks (issue 61 §2)', (stores) => {
  // A server's swap only: declared on that store (a SQLite swap holds the lock, as the next test allows).
  if (stores.kind === 'postgres')
    it("on a server a file's swap takes no writer lock: it commits while another desk holds the lock and writes, unseen before its COMMIT; the data version moves after it", async () => {
      const location = stores.location();
      const store = await openStore(location);
      onTestFinished(() => store.close());
      const db = store.db as PostgresDatabase;
      // Another desk: a write transaction of its own, holding the writer lock (and the data version's row).
      const other = PostgresDatabase.connect(location, { busyTimeoutMs: 300, tablesWithId: TABLES_WITH_ID });
      onTestFinished(() => other.close());
      const reader = await openStore(location, { readOnly: true });
      onTestFinished(() => reader.close());
      const categories = () => reader.db.prepare('SELECT count(*) FROM category').pluck().get();
      const version = dataVersion(reader.db);
      other.exec('BEGIN IMMEDIATE');
      other.prepare("INSERT INTO setting (key, value) VALUES ('test.other-desk', 'a')").run();
      db.withoutWriterLock(() => {
        db.prepare("INSERT INTO category (id, name, source) VALUES (1, 'Brick', 'test')").run();
        db.prepare("INSERT INTO setting (key, value) VALUES ('test.swap', 'b')").run();
        expect(categories()).toBe(0);
        // The other desk writes on, and commits, while the swap is open.
        other.prepare("UPDATE setting SET value = 'c' WHERE key = 'test.other-desk'").run();
        other.exec('COMMIT');
        other.prepare("UPDATE setting SET value = 'd' WHERE key = 'test.other-desk'").run();
      });
      expect(categories()).toBe(1);
      expect(dataVersion(reader.db)).toBeGreaterThan(version);
    });

  it("another desk's small write passes at every step of a file's merge, without waiting for the file", async () => {
    const location = stores.location();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    const other = impatientDesk(stores, location);
    const passed: number[] = [];
    const refused: string[] = [];
    const result = await loadCatalogue(store.db, location, LOAD, {
      type: 'P',
      me: connectionOwner(store.db),
      clock: SYSTEM_CLOCK,
      progressEvery: 2_000,
      onProgress: (p) => {
        // Within a file's rows: its merge is under way.
        if (p.done === 0 || p.total === null || p.done >= p.total) return;
        try {
          other.write(String(p.done));
          passed.push(p.done);
        } catch (e) {
          refused.push(`at ${p.done}: ${String(e)}`);
        }
      },
    });
    expect(refused).toEqual([]);
    expect(passed.length).toBeGreaterThanOrEqual(20);
    expect(result).toMatchObject({ items: PARTS.length, translations: { elements: CODES.length } });
    expect(store.db.prepare('SELECT count(*) FROM catalogue_item').pluck().get()).toBe(PARTS.length);
    expect(store.db.prepare('SELECT count(*) FROM element_code').pluck().get()).toBe(CODES.length);
  });

  it('another process reading all along sees the old catalogue or the new one, never a part of a file', async () => {
    const location = stores.location();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    const reader = spawnWorker('catalogue-snapshots', [location, 'rebrickable:parts.csv'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const said = lines(reader);
    await said.waitFor(/^ready$/, 60_000);
    // A connection of this process reading at every step of the merges, besides.
    const other = await openStore(location, { readOnly: true });
    onTestFinished(() => other.close());
    const seen: number[][] = [];
    const snapshot = other.db
      .prepare(
        `SELECT (SELECT count(*) FROM catalogue_item WHERE source = 'rebrickable:parts.csv') AS i,
                (SELECT count(*) FROM element_code) AS e`,
      )
      .raw();
    await loadCatalogue(store.db, location, LOAD, {
      type: 'P',
      me: identityOf(),
      clock: SYSTEM_CLOCK,
      progressEvery: 4_000,
      onProgress: () => void seen.push((snapshot.get() as unknown[]).map(Number)),
    });
    // A few reads after the last commit, then the reader says what it saw.
    await new Promise((r) => setTimeout(r, 300));
    reader.stdin?.write('stop\n');
    const report = JSON.parse(await said.waitFor(/^\{/, 30_000)) as { reads: number; states: number[][] };
    await exited(reader);

    const whole = ([, items, elements]: number[]) =>
      (items === 0 || items === PARTS.length) && (elements === 0 || elements === CODES.length);
    expect(report.states.filter((s) => !whole(s))).toEqual([]);
    expect(seen.filter((s) => !whole([0, ...s]))).toEqual([]);
    // Before, between and after the two files — each state with a generation of its own, in that order.
    expect(report.states.map(([, i, e]) => [i, e])).toEqual([
      [0, 0],
      [PARTS.length, 0],
      [PARTS.length, CODES.length],
    ]);
    const generations = report.states.map(([g]) => g ?? 0);
    expect(new Set(generations).size).toBe(3);
    expect([...generations].sort((a, b) => a - b)).toEqual(generations);
    expect(report.reads).toBeGreaterThan(report.states.length);
  });
});
