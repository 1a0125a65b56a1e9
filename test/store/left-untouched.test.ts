/**
 * Issue 62 §5: what lies beside a store is left as it was. `store info` on a damaged store with its WAL
 * pending rewrites no `-shm`; a store refused as another application's or of another version gets no
 * `-wal` or `-shm` made beside it ("left untouched"); a stray `-journal` is named, with what to do, and
 * reads go on. The real CLI in child processes, on files each test makes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { openStore } from '../../src/store/open.ts';
import { APPLICATION_ID } from '../../src/store/application-id.ts';
import { cliJson, REPO_ROOT } from '../helpers/cli.ts';
import { inventoryXml } from '../helpers/documents.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

/** The names in a folder and the bytes of each file: what must not change. */
function folderState(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((name) => [name, sha256(path.join(dir, name))]),
  );
}

/** A store made by the CLI, holding one imported order of two lines; closed, so all in the main file. */
async function storeWithOrder(dir: string): Promise<string> {
  const shop = path.join(dir, 'shop');
  fs.mkdirSync(shop);
  const file = path.join(shop, 'brick-work.sqlite');
  const doc = path.join(dir, 'order.xml');
  fs.writeFileSync(
    doc,
    inventoryXml([
      { no: '3001', colour: 5, qty: 4 },
      { no: '3003', qty: 2 },
    ]),
  );
  const r = await cliJson(['--db', file, 'import', doc]);
  expect(r.code, r.stderr).toBe(0);
  return file;
}

/** Runs `statements` in a child that is killed before it closes: its commits stay in the -wal. */
function commitToWalAndDie(file: string, statements: readonly string[]): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    for (const s of JSON.parse(process.argv[2])) db.exec(s);
    process.kill(process.pid, 'SIGKILL');`;
  spawnSync(process.execPath, ['-e', script, file, JSON.stringify(statements)], { cwd: REPO_ROOT });
  expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
}

async function openRefusal(file: string, readOnly: boolean): Promise<BrickWorkError> {
  try {
    (await openStore(file, { readOnly })).close();
  } catch (e) {
    if (e instanceof BrickWorkError) return e;
    throw e;
  }
  throw new Error(`${file} was opened`);
}

describe('store info reads a private copy, as the other reads do (issue 62 §5)', () => {
  it('a damaged store with its WAL pending: its file, -wal and -shm stay byte for byte', async () => {
    const dir = tempDir();
    const file = await storeWithOrder(dir);
    const probe = new Database(file, { readonly: true });
    const root = probe.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'order_line'").pluck().get() as number;
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    probe.close();
    // Two commits left in the WAL by a process killed before it closed, its -shm beside them.
    commitToWalAndDie(
      file,
      ['first', 'second'].map(
        (r) =>
          `INSERT INTO shop_order (reference, currency, created_at) VALUES ('${r}', 'USD', '2026-01-01T00:00:00.000Z')`,
      ),
    );
    expect(fs.existsSync(`${file}-shm`)).toBe(true);
    // Then the order lines' page is overwritten in the main file.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (root - 1) * pageSize);
    fs.closeSync(fd);
    const shop = path.dirname(file);
    const before = folderState(shop);

    const info = await cliJson(['--db', file, 'store', 'info']);
    if (info.code === 0) expect(info.json).toMatchObject({ schema: '4.2', counts: { orders: 3 } });
    else expect(info.json.error.code).toBe('store-damaged');
    expect(folderState(shop)).toEqual(before);
  });
});

describe('a refused store gets no -wal or -shm beside it: "left untouched" is true (issue 62 §5)', () => {
  /** A SQLite file in WAL mode, as applications keep theirs, with these header values; closed. */
  function walFile(file: string, header: { applicationId: number; userVersion: number }): void {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma(`application_id = ${header.applicationId}`);
    db.pragma(`user_version = ${header.userVersion}`);
    db.exec("CREATE TABLE notes (x); INSERT INTO notes VALUES ('not a brick-work store')");
    db.close();
  }

  const cases = [
    { name: "another application's file", header: { applicationId: 0x4d504258, userVersion: 7 }, code: 'not-a-store' },
    { name: 'a file with no application id', header: { applicationId: 0, userVersion: 3 }, code: 'not-a-store' },
    {
      name: 'a file with no application id or version',
      header: { applicationId: 0, userVersion: 0 },
      code: 'not-a-store',
    },
    {
      name: 'a store of schema 4.3',
      header: { applicationId: APPLICATION_ID, userVersion: 403 },
      code: 'store-too-new',
    },
    {
      name: 'a store of schema 4.0',
      header: { applicationId: APPLICATION_ID, userVersion: 400 },
      code: 'store-too-old',
    },
  ] as const;

  for (const c of cases) {
    it(`${c.name}: refused by every command and open, nothing made beside it`, async () => {
      const shop = path.join(tempDir(), 'shop');
      fs.mkdirSync(shop);
      const file = path.join(shop, 'brick-work.sqlite');
      walFile(file, c.header);
      const before = folderState(shop);
      expect(Object.keys(before)).toEqual(['brick-work.sqlite']);

      for (const command of [['orders'], ['settings', 'currency', 'EUR'], ['store', 'upgrade']]) {
        const r = await cliJson(['--db', file, ...command]);
        expect(r.code, command.join(' ')).toBe(1);
        expect(r.json.error.code).toBe(c.code);
        expect(r.json.error.message).toContain('left untouched');
        expect(folderState(shop), command.join(' ')).toEqual(before);
      }
      // store info reads any brick-work store, whatever its version; another application's it refuses.
      const info = await cliJson(['--db', file, 'store', 'info']);
      expect(info.code).toBe(c.code === 'not-a-store' ? 1 : 0);
      expect(folderState(shop)).toEqual(before);
      for (const readOnly of [false, true]) expect((await openRefusal(file, readOnly)).code).toBe(c.code);
      expect(folderState(shop)).toEqual(before);
    });
  }

  it("another application's file whose last commit is still in its -wal: refused by the WAL's header, no -shm made", async () => {
    const shop = path.join(tempDir(), 'shop');
    fs.mkdirSync(shop);
    const file = path.join(shop, 'brick-work.sqlite');
    walFile(file, { applicationId: 0, userVersion: 0 });
    // The file alone reads as an application's file with no id; its WAL makes it another application's.
    commitToWalAndDie(file, ['PRAGMA application_id = 1297105496', "INSERT INTO notes VALUES ('in the WAL')"]);
    fs.rmSync(`${file}-shm`);
    const before = folderState(shop);
    expect(Object.keys(before)).toEqual(['brick-work.sqlite', 'brick-work.sqlite-wal']);

    for (const command of [['orders'], ['settings', 'currency', 'EUR'], ['store', 'info']]) {
      const r = await cliJson(['--db', file, ...command]);
      expect(r.code, command.join(' ')).toBe(1);
      expect(r.json.error.code).toBe('not-a-store');
      expect(r.json.error.message).toContain('application id 0x4D504258');
      expect(folderState(shop), command.join(' ')).toEqual(before);
    }
    for (const readOnly of [false, true]) expect((await openRefusal(file, readOnly)).code).toBe('not-a-store');
    expect(folderState(shop)).toEqual(before);
  });
});

describe('a stray -journal beside the store is named, with what to do; reads go on (issue 62 §5)', () => {
  it('reads answer from a private copy, writes are refused in words, and the store and the journal stay as they were', async () => {
    const dir = tempDir();
    const file = await storeWithOrder(dir);
    const journal = `${file}-journal`;
    // Not empty, and its first byte not zero: SQLite would take it for a write cut short.
    fs.writeFileSync(journal, 'These bytes were copied here by some other program.\n'.repeat(40));
    const shop = path.dirname(file);
    const before = folderState(shop);

    const orders = await cliJson(['--db', file, 'orders']);
    expect(orders.code, orders.stderr).toBe(0);
    expect(orders.json.orders).toHaveLength(1);
    const lines = await cliJson(['--db', file, 'lines', String(orders.json.orders[0].id)]);
    expect(lines.json.lines).toHaveLength(2);

    const info = await cliJson(['--db', file, 'store', 'info']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.json).toMatchObject({
      schema: '4.2',
      counts: { orders: 1, lines: 2 },
      readOnly:
        `${journal} lies beside it, a rollback journal, which SQLite never writes beside a brick-work store ` +
        '(its changes go to its -wal): move that file out of the folder, keeping it until you know where it came from',
    });

    const message =
      `This store (${file}) can't be written while ${journal} lies beside it. That is a rollback journal, ` +
      'which SQLite never writes beside a brick-work store (its changes go to its -wal): another program left it ' +
      'there, or it was copied along. Opened to write, SQLite would copy its pages into the store. Nothing was ' +
      'changed; commands that only read still work. To write again, move that file out of the folder (keep it ' +
      'until you know where it came from), then try again.';
    for (const command of [
      ['settings', 'currency', 'EUR'],
      ['store', 'upgrade'],
    ]) {
      const r = await cliJson(['--db', file, ...command]);
      expect(r.code, command.join(' ')).toBe(1);
      expect(r.json.error).toEqual({ code: 'read-only-store', message });
    }
    expect(folderState(shop)).toEqual(before);

    // Moved away, the store is written again, and the journal was never applied to it.
    fs.renameSync(journal, path.join(dir, 'kept-journal'));
    const write = await cliJson(['--db', file, 'settings', 'currency', 'EUR']);
    expect(write.code, write.stderr).toBe(0);
    expect((await cliJson(['--db', file, 'orders'])).json.orders).toHaveLength(1);
  });
});
