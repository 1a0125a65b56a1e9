/**
 * Issue 29, SPEC §14: a server that goes away gives `store-unreachable` in words, nothing half-written;
 * the desk reconnects by itself. Through the contract, as the app's screens call it.
 */
import fs from 'node:fs';
import { writeSession } from '../../../src/store/session.ts';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../../src/platform/clock.ts';
import { confirmImport } from '../../../src/documents/import.ts';
import { openStore } from '../../../src/store/open.ts';
import { serverRefusal } from '../../../src/store/postgres/server-refusals.ts';
import { cliJson } from '../../helpers/cli.ts';
import { csv, file } from '../../helpers/documents.ts';
import { needs } from '../../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../../helpers/postgres.ts';
import { serviceFor } from '../../helpers/service.ts';
import { insertItem } from '../../helpers/store-builder.ts';
import { tallyMismatches } from '../../helpers/tally.ts';

const big = (name: string, n: number) =>
  file(
    name,
    csv(
      ['number', 'name', 'quantity'],
      Array.from({ length: n }, (_, i) => [i % 2 ? '3001' : `x${i}`, 'Brick 2 x 4', 1 + (i % 5)]),
    ),
  );

describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'a shop server going away'))('a shop server that goes away', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres({ own: true });
  }, 60_000);
  afterAll(() => server?.close());

  it('a call while it is down is store-unreachable in words, without the password; the next call after it is back works', async () => {
    server.createDatabase('away');
    server.sql('postgres', "ALTER ROLE brick_work PASSWORD 'sesame'");
    const url = server.url('away').replace('brick_work@', 'brick_work:sesame@');
    const store = await openStore(url);
    onTestFinished(() => store.close());
    const service = serviceFor(store.db, url);
    expect((await service.call('orders.list', {})).ok).toBe(true);

    server.stop();
    const down = await service.call('orders.list', {});
    expect(down).toMatchObject({ ok: false, error: { code: 'store-unreachable' } });
    const message = down.ok ? '' : down.error.message;
    expect(message).toContain(`127.0.0.1:${server.port}/away`);
    expect(message).toMatch(/can't be reached/);
    expect(message).not.toContain('sesame');

    server.start();
    expect(await service.call('orders.list', {})).toMatchObject({ ok: true, value: [] });
  });

  it('an address that asks for SSL of a server without it, or names a certificate, a port that is none: said as what to fix (issue 45)', async () => {
    server.createDatabase('addresses');
    const url = server.url('addresses');
    const ssl = await cliJson(['--db', `${url}?sslmode=require`, 'orders']);
    expect(ssl.json.error.code).toBe('store-unreachable');
    expect(ssl.json.error.message).toMatch(/does not take SSL connections, which the address asks for \(sslmode\)/);
    const cert = await cliJson(['--db', `${url}?sslmode=require&sslcert=/nowhere/cert.pem`, 'orders']);
    expect(cert.json.error).toEqual({
      code: 'invalid-argument',
      message:
        "The shop server's address can't be used: its sslcert file /nowhere/cert.pem can't be read (ENOENT). Write it as postgres://user@host:port/database.",
    });
    for (const port of ['99999', 'notaport', '0']) {
      const r = await cliJson(['--db', url.replace(`:${server.port}/`, `:${port}/`), 'orders']);
      expect(r.json.error, port).toEqual({
        code: 'invalid-argument',
        message: `The shop server's address can't be used: the port "${port}" is not a number from 1 to 65535. Write it as postgres://user@host:port/database.`,
      });
    }
  });

  it('an import cut off mid-write leaves nothing of it; imported again once the server is back, it is whole', async () => {
    server.createDatabase('midwrite');
    const url = server.url('midwrite');
    const store = await openStore(url);
    onTestFinished(() => store.close());
    insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
    const document = big('big.csv', 3_000);
    let stopped = false;
    let thrown: unknown = null;
    try {
      confirmImport(writeSession(store.db), { file: document }, SYSTEM_CLOCK, {
        onProgress: (phase, done) => {
          if (phase === 'writing' && done >= 1_000 && !stopped) {
            stopped = true;
            server.stop();
          }
        },
      });
    } catch (e) {
      thrown = e;
    }
    expect(thrown, String(thrown)).toMatchObject({ code: 'store-unreachable' });
    expect(stopped).toBe(true);
    server.start();
    const count = (sql: string) => store.db.prepare(sql).pluck().get();
    expect(count('SELECT count(*) FROM order_line')).toBe(0);
    expect(count('SELECT count(*) FROM document')).toBe(0);
    expect(count('SELECT count(*) FROM undo_step')).toBe(0);

    const [done] = confirmImport(writeSession(store.db), { file: document }, SYSTEM_CLOCK);
    expect(done?.lines.total).toBe(3_000);
    expect(count('SELECT count(*) FROM order_line')).toBe(3_000);
    expect(tallyMismatches(store.db)).toEqual([]);
  });
  // SPEC §10: no machine state is `internal`. The server's own refusals, through the CLI as staff meet them.
  it("the server's own refusals are said in words with their codes, never internal, and change nothing", async () => {
    const name = 'refusals';
    server.createDatabase(name);
    (await openStore(server.url(name))).close();
    const db = (user: string, database = name) => server.url(database).replace('brick_work@', `${user}@`);
    const answer = async (url: string, ...args: string[]) => {
      // A password goes in PGPASSWORD, never on the command line (issue 46).
      const [, password] = /^postgres:\/\/[^:@/]+:([^@]+)@/.exec(url) ?? [];
      const r = await cliJson(
        [...args, '--db', url.replace(/^(postgres:\/\/[^:@/]+):[^@]+@/, '$1@')],
        password === undefined ? {} : { PGPASSWORD: password },
      );
      expect(r.stdout + r.stderr).not.toMatch(/internal|sesame/);
      return r.json.error as { code: string; message: string } | undefined;
    };
    expect(await answer(db('brick_work', 'no_such_db'), 'orders')).toMatchObject({
      code: 'store-unreachable',
      message: expect.stringMatching(/has no such database .*no_such_db.*check the database's name/),
    });
    expect(await answer(db('no_such_user:sesame'), 'orders')).toMatchObject({
      code: 'store-unreachable',
      message: expect.stringMatching(/refused this desk's login .*check the user .*and the password/),
    });
    server.sql(name, 'CREATE ROLE limited LOGIN CONNECTION LIMIT 0');
    expect(await answer(db('limited'), 'orders')).toMatchObject({
      code: 'store-unreachable',
      message: expect.stringMatching(/no connection left for this desk/),
    });
    // A login that may read but not write: reads work, a write is read-only-store and changes nothing
    // (found at the open: read-only-server.test.ts).
    server.sql(name, 'CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader');
    expect(await answer(db('reader'), 'orders')).toBeUndefined();
    expect(await answer(db('reader'), 'settings', 'currency', 'EUR')).toMatchObject({
      code: 'read-only-store',
      message: expect.stringMatching(/can't be written: the login reader may only read it/),
    });
    // A database set read-only (as a standby is) under a desk that opened it writable: its next session
    // meets it at the write.
    const open = await openStore(server.url(name));
    onTestFinished(() => open.close());
    const service = serviceFor(open.db, server.url(name));
    expect(await service.call('orders.list', {})).toMatchObject({ ok: true });
    server.sql('postgres', `ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    server.sql('postgres', `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
    const refused = await service.call('settings.set', { key: 'currency', value: 'EUR' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'read-only-store', message: expect.stringMatching(/takes no writes now .*read-only transaction/) },
    });
    expect(await answer(db('brick_work'), 'orders')).toBeUndefined();
    server.sql('postgres', `ALTER DATABASE ${name} RESET default_transaction_read_only`);
    expect(server.sql(name, "SELECT count(*) FROM setting WHERE key = 'currency'")).toBe('0');
    // What can't be made to happen here (a full disk, a statement time limit) is said the same way.
    expect(serverRefusal('53100', 'could not extend file', 'shop/db')).toMatchObject({ code: 'disk-full' });
    expect(serverRefusal('57014', 'canceling statement due to statement timeout', 'shop/db')).toMatchObject({
      code: 'store-busy',
    });
    expect(serverRefusal('42501', 'permission denied for table setting', 'shop/db')).toMatchObject({
      code: 'read-only-store',
    });
    expect(serverRefusal('42P01', 'relation "x" does not exist', 'shop/db')).toBeNull(); // ours: a bug
  }, 120_000);

  // Issue 46, point 4 (SPEC §14): a password as PostgreSQL users give one, never on the command line.
  it('a server that asks for a password: PGPASSWORD and ~/.pgpass are read, none given is store-unreachable in words, one in --db is refused', async () => {
    server.createDatabase('passwords');
    (await openStore(server.url('passwords'))).close();
    server.askPasswords('sesame');
    onTestFinished(() => server.askPasswords(null));
    const url = server.url('passwords');
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-home-'));
    onTestFinished(() => fs.rmSync(home, { recursive: true, force: true }));
    // No password anywhere: in words that say where to give one, never internal.
    const none = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: undefined });
    expect(none.code).toBe(1);
    expect(none.json.error.code).toBe('store-unreachable');
    expect(none.json.error.message).toMatch(
      /asks for this desk's password, and none was given.*PGPASSWORD or ~\/\.pgpass/,
    );
    // PGPASSWORD, as psql reads it.
    const fromEnv = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: 'sesame' });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    // ~/.pgpass, with libpq's rules (the file only its owner may read).
    const pgpass = path.join(home, '.pgpass');
    fs.writeFileSync(pgpass, `127.0.0.1:${server.port}:passwords:brick_work:sesame\n`, { mode: 0o600 });
    const fromFile = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: undefined });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    // A wrong one: the login refused, said so, the password never echoed.
    const wrong = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: 'open-sesame' });
    expect(wrong.json.error.code).toBe('store-unreachable');
    expect(wrong.stdout + wrong.stderr).not.toContain('open-sesame');
    // In the address on the command line: refused before anything is opened (every user sees `ps`).
    const inAddress = await cliJson(['--db', url.replace('brick_work@', 'brick_work:sesame@'), 'orders'], {
      HOME: home,
    });
    expect(inAddress.code).toBe(2);
    expect(inAddress.json.error.code).toBe('invalid-argument');
    expect(inAddress.stderr).toMatch(/--db holds a password.*PGPASSWORD or ~\/\.pgpass/);
  });

  // Issue 61, §5: libpq's rules, all of them (fe-connect.c: connectOptions2, passwordFromFile; fe-auth.c).
  describe('as libpq reads a password', () => {
    let url: string;
    let home: string;
    let pgpass: string;
    beforeAll(async () => {
      server.createDatabase('libpq');
      (await openStore(server.url('libpq'))).close();
    });
    beforeEach(() => {
      server.askPasswords('sesame');
      url = server.url('libpq');
      home = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-home-'));
      pgpass = path.join(home, '.pgpass');
    });
    afterEach(() => {
      server.askPasswords(null);
      fs.rmSync(home, { recursive: true, force: true });
    });

    it('a ~/.pgpass that group or others may read is ignored, with the warning psql gives, and the refusal says why', async () => {
      fs.writeFileSync(pgpass, `127.0.0.1:${server.port}:libpq:brick_work:sesame\n`);
      fs.chmodSync(pgpass, 0o644);
      const loose = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: undefined });
      expect(loose.code).toBe(1);
      expect(loose.json.error.code).toBe('store-unreachable');
      expect(loose.stderr).toContain(
        `WARNING: password file "${pgpass}" has group or world access; permissions should be u=rw (0600) or less`,
      );
      expect(loose.json.error.message).toMatch(
        /none was given.*was not read: others on this computer may read it.*chmod 600/,
      );
      expect(loose.stdout + loose.stderr).not.toContain('sesame');
      expect(loose.stderr.split('WARNING').length).toBe(2);
      // Only its owner may read it: read as libpq does (comments, the first line that fits, `*`), no warning.
      fs.writeFileSync(
        pgpass,
        `# the shop\n127.0.0.1:1:*:*:nope\n*:${server.port}:*:brick_work:sesame\n*:*:*:*:later\n`,
      );
      fs.chmodSync(pgpass, 0o600);
      const tight = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: undefined });
      expect(tight.code, tight.stderr).toBe(0);
      expect(tight.stderr).not.toContain('WARNING');
    });

    it('PGPASSWORD set but empty is no password, as psql takes it: ~/.pgpass is read; without one, none was given', async () => {
      const empty = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: '' });
      expect(empty.code).toBe(1);
      expect(empty.json.error).toMatchObject({
        code: 'store-unreachable',
        message: expect.stringMatching(/asks for this desk's password, and none was given/),
      });
      fs.writeFileSync(pgpass, `127.0.0.1:${server.port}:libpq:brick_work:sesame\n`, { mode: 0o600 });
      const fromFile = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: '' });
      expect(fromFile.code, fromFile.stdout + fromFile.stderr).toBe(0);
    });

    it("a wrong password's words say where to give the right one, never --db, and name the file it came from", async () => {
      const wrong = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: 'open-sesame' });
      expect(wrong.json.error.code).toBe('store-unreachable');
      const message: string = wrong.json.error.message;
      expect(message).toMatch(/refused this desk's login/);
      expect(message).toMatch(/PGPASSWORD/);
      expect(message).not.toMatch(/--db/);
      expect(wrong.stdout + wrong.stderr).not.toContain('open-sesame');
      // From the password file: named, as libpq adds "password retrieved from file".
      fs.writeFileSync(pgpass, `127.0.0.1:${server.port}:libpq:brick_work:open-sesame\n`, { mode: 0o600 });
      const fromFile = await cliJson(['--db', url, 'orders'], { HOME: home, PGPASSWORD: undefined });
      expect(fromFile.json.error.message).toContain(`the password: it was read from ${pgpass}`);
      expect(fromFile.json.error.message).not.toMatch(/--db/);
    });
  });
});
