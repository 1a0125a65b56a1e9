import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { claimJob, claimNext, enqueueJob, getJob } from '../../src/jobs/queue.ts';
import { copyStore } from '../../src/store/copy/index.ts';
import { connectionOwner } from '../../src/store/owners.ts';
import type { StoreDb } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files, TABLES } from '../helpers/catalogue-files.ts';
import { cli, cliJson, finished, spawnCli } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { addUnplacedLines, populate41 } from '../helpers/fixtures.ts';
import { needs } from '../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { serviceFor } from '../helpers/service.ts';
import {
  buildFileWithHeader,
  buildStore,
  dumpRows,
  insertColourPlacement,
  insertJob,
  insertJobOwner,
  tableNames,
} from '../helpers/store-builder.ts';
import { storeFingerprint } from '../helpers/stores.ts';
import { talliedDocuments, tallyMismatches } from '../helpers/tally.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

/**
 * `store copy` (issue 29, SPEC §14, ADR 0027 §8): a shop's store moves between a SQLite file and a
 * PostgreSQL server, row for row, in one transaction on the receiving side, checked before it commits.
 */

/** Tables only a server store has: its meta row, and the catalogue job's record (not carried). */
const SERVER_ONLY = ['brick_work_meta', 'catalogue_job_state'];

/** Every table's rows, each table's as a sorted list: the engines order texts differently, nothing else may differ. */
function rowsByTable(db: StoreDb): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(dumpRows(db, SERVER_ONLY))) {
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

async function rowsAt(location: string): Promise<Record<string, string[]>> {
  const store = await openStore(location, { readOnly: true });
  try {
    return rowsByTable(store.db);
  } finally {
    store.close();
  }
}

const call = async (service: ReturnType<typeof serviceFor>, name: string, args: unknown) => {
  const r = (await service.call(name as never, args as never)) as {
    ok: boolean;
    value?: any;
    error?: { code: string; message: string };
  };
  if (!r.ok) throw new Error(`${name}: ${r.error?.code} ${r.error?.message}`);
  return r.value;
};

/**
 * A 4.2 store as a shop leaves it: a catalogue with its translation tables, orders with lines placed
 * and unplaced, the stock, a hand placement with a taught name and a colour placement, an undo history whose
 * newest step is undone, jobs with owners, answers, a call budget and settings. Texts that sort
 * differently by locale, by case and byte by byte. Every table holds rows.
 */
async function shopStore(location: string): Promise<void> {
  const store = await openStore(location);
  try {
    const { db } = store;
    const load = (name: string, text: string) =>
      loadCatalogue(db, location, [{ name, content: bytes(text) }], {
        type: 'P',
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
    await load(
      'Parts.txt',
      files.bricklinkItemsTab([
        { no: '3001', name: 'Brick 2 x 4', category: 5 },
        { no: '3003', name: 'Brick 2 x 2', category: 5 },
        { no: '3001a', name: 'Brick 2 x 4 without Bottom Tubes' },
        { no: '3001B', name: 'Brick 2 x 4 with Cross Supports' },
        { no: 'Z99', name: 'Zebra Plate' },
        { no: 'a99', name: 'Ärmel Straße 1 x 2' },
        { no: '_x1', name: 'Élan Tile' },
        { no: '6141', name: 'Plate Round 1 x 1' },
        { no: '4073', name: 'Plate, Round 1 x 1' },
      ]),
    );
    await load(
      'colors.txt',
      files.bricklinkColoursTab([
        { id: 1, name: 'White' },
        { id: 5, name: 'Red' },
        { id: 11, name: 'Black' },
        { id: 88, name: 'Reddish Brown' },
      ]),
    );
    await load('categories.txt', files.bricklinkCategoriesTab([{ id: 5, name: 'Brick' }]));
    await load('codes.txt', TABLES.codes);
    await load('elements.csv', TABLES.elements);
    await load('colors.json', TABLES.colourTable);
    await load('part-crossrefs.ron', TABLES.crossrefs);
    await load('part_relationships.csv', TABLES.relationships);

    const service = serviceFor(db, location);
    await call(service, 'import.confirm', {
      file: file(
        'Market Street.bsx',
        bsx([
          { no: '3001', colour: 5, qty: 4, price: '0.125' },
          { no: '3003', colour: 11, qty: 2, price: '0.07' },
          { no: 'nope-1', name: 'Brick Thing', colour: 5, qty: 1, price: '1.5' },
          { no: '4073', colour: 4, colourName: 'Orange', qty: 3 },
        ]),
      ),
    });
    const [second] = await call(service, 'import.confirm', {
      file: file(
        'PAB.bsx',
        bsx([
          { no: 'a99', colour: 1, qty: 10, price: '0.02' },
          { no: 'x777', name: 'Some Élan Tile', colour: 5 },
          { no: '3001b', colour: 88 },
        ]),
      ),
    });
    // The shop's stock: its order, a lot with its bin and lot id (SPEC §16).
    await call(service, 'stock.import', {
      file: file('inventory.bsx', bsx([{ no: '3003', colour: 11, qty: 30, remarks: 'B-1-10' }])),
    });
    // A pick mark: Market Street's 2 × 3003 in Black, taken from that bin.
    const going = (await call(service, 'orders.list', {})).find((o: any) => o.reference === 'Market Street.bsx');
    const walk = await call(service, 'pick.list', { orderId: going.id });
    await call(service, 'pick.mark', { orderId: going.id, key: walk.entries[0].key, picked: 2 });
    const lines = await call(service, 'lines.list', { orderId: second.order.id });
    const unplaced = lines.find((l: any) => l.placed === null && l.given.no === 'x777');
    // By hand, under a name that differs from the item's: a remembered placement and a taught name.
    await call(service, 'lines.place', { lineId: unplaced.id, type: 'P', no: '_x1', colourId: 5 });
    await call(service, 'import.confirm', { file: file('Later.bsx', bsx([{ no: '3001', colour: 5 }])) });
    const newest = (await call(service, 'history.state', {})).undo;
    await call(service, 'history.undo', { expectedStep: newest.id });
    await call(service, 'settings.set', { key: 'currency', value: 'EUR' });
    await call(service, 'settings.set', { key: 'daily-call-limit', value: '1234' });

    insertColourPlacement(db, { colourName: 'Orange', to: 88 });
    const running = insertJob(db, { kind: 'catalogue-lookup', state: 'running', payload: { limit: 10 } });
    insertJobOwner(db, { jobId: running, pid: 999_999, identity: { bootId: 'gone-boot', startTicks: 12345 } });
    const done = insertJob(db, { kind: 'catalogue-lookup', state: 'done' });
    insertJobOwner(db, { jobId: done, pid: 4242, identity: { bootId: null, startTicks: null } });
    db.prepare("INSERT INTO job_event (job_id, event, detail, at) VALUES (?, 'recovered', '{}', 'now')").run(running);
    db.prepare("INSERT INTO job_owner_desk (job_id, desk) VALUES (?, 'SHOP-2')").run(running);
    db.prepare(
      "INSERT INTO lookup_answer (item_type, item_no, found, answered_at) VALUES ('P', 'x777', 0, 'now')",
    ).run();
    db.prepare("INSERT INTO call_budget (day, calls) VALUES ('2026-01-01', 17)").run();

    const empty = tableNames(db).filter((t) => t !== 'catalogue_job_state' && rowCount(db, t) === 0);
    expect(empty, 'every table of the shop store holds rows').toEqual([]);
    expect(db.prepare("SELECT count(*) FROM undo_step WHERE state = 'undone'").pluck().get()).toBe(1);
    expect(talliedDocuments(db)).toBe(4);
  } finally {
    store.close();
  }
}

const rowCount = (db: StoreDb, table: string) => db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;

/** The store at `location` works: its newest step undoes, a new import goes in (new ids, no collision), the tally holds. */
async function worksAsAStore(location: string): Promise<void> {
  const store = await openStore(location);
  try {
    const service = serviceFor(store.db, location);
    const newest = (await call(service, 'history.state', {})).undo;
    expect(newest.label).toBe('Hand placement of x777 (PAB.bsx, line 2) on P _x1 in Red');
    await call(service, 'history.undo', { expectedStep: newest.id });
    const redo = (await call(service, 'history.state', {})).redo;
    expect(redo.id).toBe(newest.id);
    const [imported] = await call(service, 'import.confirm', {
      file: file(
        'After the move.bsx',
        bsx([
          { no: '3001', colour: 5 },
          { no: '6141', colour: 1 },
        ]),
      ),
    });
    expect(imported.lines).toMatchObject({ total: 2, placed: 2 });
    expect(tallyMismatches(store.db)).toEqual([]);
  } finally {
    store.close();
  }
}

const tmpLeftovers = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('brick-work-copy-')).length;

describe('store copy between two SQLite files (no server needed)', () => {
  it('refuses an existing store, a file of another application and a foreign source, changing nothing', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'shop.sqlite');
    await shopStore(source);
    const before = sha256(source);

    const taken = path.join(dir, 'taken.sqlite');
    await copyStore(source, taken);
    const takenBefore = sha256(taken);
    await expect(copyStore(source, taken)).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('copies into an empty store only'),
    });
    expect(sha256(taken)).toBe(takenBefore);

    const foreign = path.join(dir, 'foreign.sqlite');
    buildFileWithHeader(foreign, { userVersion: 1, applicationId: 0x12345678 });
    const foreignBefore = sha256(foreign);
    await expect(copyStore(source, foreign)).rejects.toMatchObject({ code: 'not-a-store' });
    await expect(copyStore(foreign, path.join(dir, 'new.sqlite'))).rejects.toMatchObject({ code: 'not-a-store' });
    expect(sha256(foreign)).toBe(foreignBefore);
    expect(fs.existsSync(path.join(dir, 'new.sqlite'))).toBe(false);

    const newer = path.join(dir, 'newer.sqlite');
    buildFileWithHeader(newer, { userVersion: 403 });
    await expect(copyStore(newer, path.join(dir, 'new.sqlite'))).rejects.toMatchObject({ code: 'store-too-new' });
    await expect(copyStore(path.join(dir, 'none.sqlite'), path.join(dir, 'new.sqlite'))).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(copyStore(source, source)).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(fs.existsSync(path.join(dir, 'new.sqlite'))).toBe(false);
    expect(sha256(source)).toBe(before);
  });

  it('a document whose lines are all gone keeps its tally of zeros in the copy, as in the source', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'shop.sqlite');
    await shopStore(source);
    const raw = new Database(source);
    raw.prepare('DELETE FROM order_line WHERE document_id = 2').run();
    expect(
      raw.prepare('SELECT lines, placed, quantity, value_e4 FROM document_tally WHERE document_id = 2').get(),
    ).toEqual({
      lines: 0,
      placed: 0,
      quantity: 0,
      value_e4: 0,
    });
    raw.close();
    const copy = path.join(dir, 'copy.sqlite');
    expect((await copyStore(source, copy)).tallies).toBe(3);
    expect(await rowsAt(copy)).toEqual(await rowsAt(source));
  });

  it('a 4.1 file copies as 4.2, the 4.1 file byte for byte as it was, no private copy left behind', async () => {
    const dir = tempDir();
    const old = path.join(dir, 'old.sqlite');
    const db41 = buildStore(old, '4.1');
    populate41(db41);
    db41.close();
    const before = sha256(old);
    const leftovers = tmpLeftovers();

    const report = await copyStore(old, path.join(dir, 'copy.sqlite'));
    expect(report.upgradedFrom).toBe('4.1');
    expect(sha256(old)).toBe(before);
    // Beside it only SQLite's own shared-memory files, which any reader of a WAL file makes, with nothing in its log.
    expect(fs.readdirSync(dir).sort()).toEqual(['copy.sqlite', 'old.sqlite', 'old.sqlite-shm', 'old.sqlite-wal']);
    expect(fs.statSync(path.join(dir, 'old.sqlite-wal')).size).toBe(0);
    expect(tmpLeftovers()).toBe(leftovers);

    // The copy holds what the 4.1 store upgraded in place would.
    fs.copyFileSync(old, path.join(dir, 'upgraded.sqlite'));
    const upgraded = await openStore(path.join(dir, 'upgraded.sqlite'));
    const expected = rowsByTable(upgraded.db);
    upgraded.close();
    expect(await rowsAt(path.join(dir, 'copy.sqlite'))).toEqual(expected);
  });
});

describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'store copy to and from a PostgreSQL server'))(
  'store copy between a SQLite file and a PostgreSQL server',
  () => {
    let server: PostgresServer;
    let made = 0;
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(() => server?.close());
    const database = () => {
      const name = `copy_${++made}`;
      server.createDatabase(name);
      return server.url(name);
    };
    const tablesOn = (url: string) =>
      server.sql(new URL(url).pathname.slice(1), "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'");

    it('a shop store goes to a server and back to a new file, row for row, and both copies work as stores', async () => {
      const dir = tempDir();
      const original = path.join(dir, 'shop.sqlite');
      await shopStore(original);
      const before = sha256(original);
      const rows = await rowsAt(original);

      const url = database();
      const told: string[] = [];
      const there = await copyStore(original, url, { onProgress: (m) => told.push(m) });
      expect(sha256(original)).toBe(before);
      expect(there.upgradedFrom).toBeNull();
      expect(there.tables.map((t) => t.table)).toContain('order_line');
      expect(there.tables.find((t) => t.table === 'order_line')?.rows).toBe(rows['order_line']?.length);
      expect(there.tallies).toBe(4);
      expect(told).toContain('checking the copy: every table row for row, and the tally');
      expect(await rowsAt(url)).toEqual(rows);

      const back = path.join(dir, 'back.sqlite');
      const home = await copyStore(url, back);
      expect(home.rows).toBe(there.rows);
      expect(await rowsAt(back)).toEqual(rows);
      // The catalogue job's record is not carried: a new file has none beside it.
      expect(fs.existsSync(path.join(dir, 'back.sqlite.catalogue-job.json'))).toBe(false);

      // Server to server works alike.
      const elsewhere = database();
      await copyStore(url, elsewhere);
      expect(await rowsAt(elsewhere)).toEqual(rows);

      await worksAsAStore(url);
      await worksAsAStore(back);
      expect(sha256(original)).toBe(before);
    });

    // On a server only sessions own jobs. A job the file's app was running as the shop moved is owned by
    // a process; on the computer that made the copy that process may well still be alive — the job must
    // not look busy on the server for as long as it lives.
    it("a job running in the file's app when copied is free on the server, taken over by the next claim", async () => {
      const file = path.join(tempDir(), 'busy.sqlite');
      const store = await openStore(file);
      const id = enqueueJob(store.db, 'work', {}, { clock: SYSTEM_CLOCK });
      claimJob(writeSession(store.db), id, identityOf(), { clock: SYSTEM_CLOCK });
      expect(getJob(store.db, id)?.alive).toBe(true);
      store.close();

      const url = database();
      await copyStore(file, url);
      const there = await openStore(url);
      try {
        expect(getJob(there.db, id)).toMatchObject({ state: 'running', owner: identityOf(), alive: false });
        expect(claimNext(writeSession(there.db), connectionOwner(there.db), { clock: SYSTEM_CLOCK })).toMatchObject({
          id,
          takenFrom: identityOf(),
        });
      } finally {
        there.close();
      }
    });

    it('a 4.1 file copies to a server as 4.2, and the file stays byte for byte as it was', async () => {
      const dir = tempDir();
      const old = path.join(dir, 'old.sqlite');
      const db41 = buildStore(old, '4.1');
      populate41(db41);
      db41.close();
      const before = sha256(old);

      const url = database();
      expect((await copyStore(old, url)).upgradedFrom).toBe('4.1');
      expect(sha256(old)).toBe(before);
      fs.copyFileSync(old, path.join(dir, 'upgraded.sqlite'));
      const upgraded = await openStore(path.join(dir, 'upgraded.sqlite'));
      const expected = rowsByTable(upgraded.db);
      upgraded.close();
      expect(await rowsAt(url)).toEqual(expected);
    });

    it('refuses a database that is not empty, and a foreign source, leaving both untouched', async () => {
      const dir = tempDir();
      const source = path.join(dir, 'shop.sqlite');
      await shopStore(source);
      const before = sha256(source);

      const other = database();
      server.sql(new URL(other).pathname.slice(1), "CREATE TABLE stock (bin text); INSERT INTO stock VALUES ('A1')");
      await expect(copyStore(source, other)).rejects.toMatchObject({ code: 'not-a-store' });
      expect(server.sql(new URL(other).pathname.slice(1), 'SELECT bin FROM stock')).toBe('A1');
      expect(tablesOn(other)).toBe('1');

      const full = database();
      await copyStore(source, full);
      const fullBefore = await storeFingerprint(full);
      await expect(copyStore(source, full)).rejects.toMatchObject({
        code: 'invalid-argument',
        message: expect.stringContaining('give it an empty database'),
      });
      expect(await storeFingerprint(full)).toBe(fullBefore);

      const foreign = path.join(dir, 'foreign.sqlite');
      buildFileWithHeader(foreign, { userVersion: 1, applicationId: 0x12345678 });
      const fresh = database();
      await expect(copyStore(foreign, fresh)).rejects.toMatchObject({ code: 'not-a-store' });
      await expect(copyStore(other, path.join(dir, 'new.sqlite'))).rejects.toMatchObject({ code: 'not-a-store' });
      await expect(copyStore(fresh, path.join(dir, 'new.sqlite'))).rejects.toMatchObject({ code: 'not-found' });
      expect(tablesOn(fresh)).toBe('0');
      expect(fs.existsSync(path.join(dir, 'new.sqlite'))).toBe(false);
      expect(sha256(source)).toBe(before);
    });

    it('a row the receiving side refuses half-way leaves it without a row, either way; a later copy goes in', async () => {
      const dir = tempDir();
      const source = path.join(dir, 'shop.sqlite');
      await shopStore(source);
      // A taught name of an item the catalogue does not have: SQLite kept it with its foreign keys off.
      const raw = new Database(source);
      raw.pragma('foreign_keys = OFF');
      raw
        .prepare(
          "INSERT INTO taught_name (item_type, item_no, name, name_key, created_at) VALUES ('P', 'gone', 'Gone', 'gone', 'now')",
        )
        .run();
      raw.close();
      const before = sha256(source);

      const url = database();
      await expect(copyStore(source, url)).rejects.toMatchObject({
        code: 'store-damaged',
        message: expect.stringMatching(/a row of taught_name in .*shop\.sqlite breaks the store's rules/),
      });
      expect(sha256(source)).toBe(before);
      const left = await openStore(url, { readOnly: true });
      const counts = tableNames(left.db).map((t) => [t, rowCount(left.db, t)]);
      left.close();
      // An empty store: not a row in its tables (its own bookkeeping, brick_work_*, aside).
      expect(counts.filter(([, n]) => n !== 0)).toEqual([]);
      expect(counts.length).toBeGreaterThan(20);

      // The server's copy, made whole from a sound file, carries the same fault back: the file is refused
      // and not left behind.
      const sound = path.join(dir, 'sound.sqlite');
      await shopStore(sound);
      await copyStore(sound, url);
      server.sql(
        new URL(url).pathname.slice(1),
        "SET session_replication_role = replica; INSERT INTO taught_name (item_type, item_no, name, name_key, created_at) VALUES ('P', 'gone', 'Gone', 'gone', 'now')",
      );
      const back = path.join(dir, 'back.sqlite');
      await expect(copyStore(url, back)).rejects.toMatchObject({
        code: 'store-damaged',
        message: expect.stringContaining('a row of taught_name'),
      });
      expect(fs.readdirSync(dir).filter((n) => n.startsWith('back'))).toEqual([]);
    });

    it('a copy whose rows or tallies come out different is not kept, and says which table', async () => {
      const dir = tempDir();
      const source = path.join(dir, 'shop.sqlite');
      await shopStore(source);

      // Someone's trigger on the server rewrites what arrives: the rows are counted right, but they are not the same.
      const url = database();
      (await openStore(url)).close();
      server.sql(
        new URL(url).pathname.slice(1),
        `CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.reference = upper(NEW.reference); RETURN NEW; END $$;
         CREATE TRIGGER shout BEFORE INSERT ON shop_order FOR EACH ROW EXECUTE FUNCTION shout();`,
      );
      await expect(copyStore(source, url)).rejects.toMatchObject({
        code: 'store-damaged',
        message: expect.stringContaining('its shop_order holds 4 rows as the source does, but not the same ones'),
      });
      const left = await openStore(url, { readOnly: true });
      expect(rowCount(left.db, 'shop_order') + rowCount(left.db, 'order_line')).toBe(0);
      left.close();

      // A tally that does not match its own lines any more: the copy counts them afresh, and refuses.
      const raw = new Database(source);
      raw.prepare('UPDATE document_tally SET placed = placed + 1 WHERE document_id = 1').run();
      raw.close();
      for (const to of [database(), path.join(dir, 'copy.sqlite')]) {
        await expect(copyStore(source, to)).rejects.toMatchObject({
          code: 'store-damaged',
          message: expect.stringContaining("the documents' tallies counted from the copied lines differ"),
        });
      }
      expect(fs.existsSync(path.join(dir, 'copy.sqlite'))).toBe(false);
    });

    it('a copy killed half-way leaves the server without a row, and the next copy goes in', async () => {
      const dir = tempDir();
      const source = path.join(dir, 'big.sqlite');
      await shopStore(source);
      const db = new Database(source);
      addUnplacedLines(db, 40_000);
      db.close();

      const url = database();
      const child = spawnCli(['store', 'copy', '--from', source, '--to', url]);
      const done = finished(child);
      await new Promise<void>((resolve) => {
        child.on('close', () => resolve());
        let err = '';
        child.stderr?.on('data', (d: Buffer) => {
          err += d.toString();
          if (err.includes('copying order_line: 40')) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      expect((await done).signal).toBe('SIGKILL');
      const left = await openStore(url, { readOnly: true });
      expect(rowCount(left.db, 'order_line') + rowCount(left.db, 'catalogue_item')).toBe(0);
      left.close();
      const report = await copyStore(source, url);
      expect(report.tables.find((t) => t.table === 'order_line')?.rows).toBe(40_000 + 9);
    }, 60_000);

    it('through the CLI: exit 0, progress on stderr, the summary on stdout and in --json, never the password', async () => {
      const dir = tempDir();
      const source = path.join(dir, 'shop.sqlite');
      await shopStore(source);
      const name = `copy_${++made}`;
      server.createDatabase(name);
      const secret = 'S3cret-pw';
      // A password goes in PGPASSWORD, never on the command line (`ps` shows it): refused there.
      const withPassword = server.url(name).replace('brick_work@', `brick_work:${secret}@`);
      const inAddress = await cli(['store', 'copy', '--from', source, '--to', withPassword]);
      expect(inAddress.code).toBe(2);
      expect(inAddress.stderr).toMatch(/the address holds a password.*PGPASSWORD or ~\/\.pgpass/);
      const url = server.url(name);

      const there = await cli(['store', 'copy', '--from', source, '--to', url], { PGPASSWORD: secret });
      expect(there.code, there.stderr).toBe(0);
      expect(there.stdout).toMatch(
        /^Copied .*shop\.sqlite to 127\.0\.0\.1:\d+\/copy_\d+ in [\d.]+ s: \d+ rows in 29 tables/,
      );
      expect(there.stdout).toMatch(/\n {2}order_line +9\n/);
      expect(there.stderr).toContain('copying order_line: 9 rows');

      const back = await cliJson(['store', 'copy', '--from', url, '--to', path.join(dir, 'back.sqlite')]);
      expect(back.code).toBe(0);
      expect(back.json).toMatchObject({
        from: expect.stringMatching(/^127\.0\.0\.1:\d+\/copy_\d+$/),
        to: path.join(dir, 'back.sqlite'),
        upgradedFrom: null,
        tallies: 4,
      });
      expect(back.json.tables).toContainEqual({ table: 'order_line', rows: 9 });

      const refused = await cliJson(['store', 'copy', '--from', source, '--to', url]);
      expect(refused.code).toBe(1);
      expect(refused.json.error.code).toBe('invalid-argument');

      const usage = await cli(['store', 'copy', '--from', source]);
      expect(usage.code).toBe(2);
      for (const r of [inAddress, there, back, refused, usage]) {
        expect(r.stdout + r.stderr).not.toContain(secret);
      }
    });
  },
);
