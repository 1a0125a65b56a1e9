import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/open.ts';
import { openServerStore } from '../../../src/store/postgres/open.ts';
import { TABLES } from '../../../src/store/schema/tables-4.2.ts';
import { cli, cliJson } from '../../helpers/cli.ts';
import { needs } from '../../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../../helpers/postgres.ts';
import { tempDir } from '../../helpers/temp.ts';
import { versionProxy } from '../../helpers/pg-version-proxy.ts';

// Issue 29, SPEC §14: a store on a PostgreSQL server is born at 4.2, with the same tables and meanings,
// its own upgrades from there, and refuses a newer or foreign database untouched.
describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'opening a store on a PostgreSQL server'))(
  'a store on a PostgreSQL server',
  () => {
    let server: PostgresServer;
    let n = 0;
    const fresh = () => {
      const name = `open_${++n}`;
      server.createDatabase(name);
      return name;
    };
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(() => server?.close());

    /** Every table's columns, as `table.column`, sorted. */
    const serverColumns = (name: string) =>
      server
        .sql(
          name,
          "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1",
        )
        .split('\n');

    it('an empty database becomes a store at 4.2 with every table and column a SQLite store has', async () => {
      const name = fresh();
      const store = await openStore(server.url(name));
      expect(store.created).toBe(true);
      expect(store.db.pragma('user_version', { simple: true })).toBe(402);
      expect(store.db.pragma('application_id', { simple: true })).toBe(0x42524b57);
      store.close();

      const file = await openStore(path.join(tempDir(), 'brick-work.sqlite'));
      const sqlite = (
        file.db
          .prepare(
            "SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY 1",
          )
          .pluck()
          .all() as string[]
      ).sort();
      file.close();
      // Its own bookkeeping (a SQLite file keeps it in its header) and the catalogue job's state aside.
      const onServer = serverColumns(name).filter(
        (c) => !c.startsWith('brick_work_') && !c.startsWith('catalogue_job_state.'),
      );
      expect(onServer.sort()).toEqual(sqlite);
      // The catalogue job's state is a row there (SPEC §14), not a file beside the store.
      expect(TABLES).toContain('catalogue_job_state');

      const again = await openStore(server.url(name));
      expect(again.created).toBe(false);
      again.close();
    });

    it('keeps the meanings: item numbers match whatever their case, the tally follows every line, ids come back', async () => {
      const store = await openStore(server.url(fresh()));
      const db = store.db;
      db.prepare(
        "INSERT INTO catalogue_item (item_type, item_no, name, name_key, source) VALUES ('P', '3001a', 'Brick', 'brick', 't')",
      ).run();
      expect(db.prepare("SELECT name FROM catalogue_item WHERE item_no = '3001A'").pluck().get()).toBe('Brick');
      const order = db
        .prepare("INSERT INTO shop_order (reference, currency, created_at) VALUES ('o', 'EUR', 'now')")
        .run().lastInsertRowid;
      const doc = db
        .prepare(
          "INSERT INTO document (order_id, doc_key, file_name, format, state, imported_at) VALUES (?, 'k', 'f', 'csv', 'imported', 'now')",
        )
        .run(order).lastInsertRowid;
      const line = db.prepare(
        'INSERT INTO order_line (document_id, position, quantity, unit_price_e4, item_type, item_no, placed_by) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      line.run(doc, 1, 3, 25_000, 'P', '3001A', 'number');
      const second = line.run(doc, 2, 2, null, null, null, null).lastInsertRowid;
      const tally = () => db.prepare('SELECT lines, placed, quantity, value_e4 FROM document_tally').get();
      expect(tally()).toEqual({ lines: 2, placed: 1, quantity: 5, value_e4: 75_000 });
      db.prepare("UPDATE order_line SET item_type = 'P', item_no = '3001a', placed_by = 'hand' WHERE id = ?").run(
        second,
      );
      expect(tally()).toEqual({ lines: 2, placed: 2, quantity: 5, value_e4: 75_000 });
      db.prepare('DELETE FROM order_line WHERE id = ?').run(second);
      expect(tally()).toEqual({ lines: 1, placed: 1, quantity: 3, value_e4: 75_000 });
      // An undo puts a row back with its old id.
      line.run(doc, 2, 2, null, null, null, null);
      db.prepare('DELETE FROM order_line WHERE position = 2').run();
      db.prepare('INSERT INTO order_line (id, document_id, position, quantity) VALUES (?, ?, 2, 2)').run(second, doc);
      expect(db.prepare('SELECT id FROM order_line WHERE position = 2').pluck().get()).toBe(second);
      store.close();
    });

    it('refuses a database of another application, a foreign mark, and a newer schema, untouched', async () => {
      const other = fresh();
      server.sql(other, 'CREATE TABLE invoices (id int)');
      await expect(openStore(server.url(other))).rejects.toMatchObject({
        code: 'not-a-store',
        message: expect.stringContaining('tables of another application'),
      });
      expect(server.sql(other, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).toBe('1');

      const marked = fresh();
      (await openStore(server.url(marked))).close();
      server.sql(marked, 'UPDATE brick_work_meta SET application_id = 1');
      await expect(openStore(server.url(marked))).rejects.toMatchObject({ code: 'not-a-store' });

      const newer = fresh();
      (await openStore(server.url(newer))).close();
      server.sql(newer, 'UPDATE brick_work_meta SET schema_version = 403');
      const tables = server.sql(newer, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'");
      await expect(openStore(server.url(newer))).rejects.toMatchObject({
        code: 'store-too-new',
        message: expect.stringMatching(/schema 4\.3.*schema 4\.2/),
      });
      expect(server.sql(newer, 'SELECT schema_version FROM brick_work_meta')).toBe('403');
      expect(server.sql(newer, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).toBe(tables);
    });

    it('refuses a server older than PostgreSQL 13 in words, and makes nothing in its database', async () => {
      const name = fresh();
      const through = (port: number) => server.url(name).replace(`:${server.port}/`, `:${port}/`);
      const objects = () =>
        server.sql(name, "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace");
      const old = await versionProxy(
        server.port,
        new Map([
          [server.sql(name, 'SHOW server_version_num'), '120017'],
          [server.sql(name, 'SHOW server_version'), '12.17'],
        ]),
      );
      try {
        for (const options of [{}, { readOnly: true }])
          await expect(openStore(through(old.port), options)).rejects.toMatchObject({
            code: 'store-too-old',
            message: expect.stringMatching(
              /runs PostgreSQL 12\.17; brick-work .* needs PostgreSQL 13 or newer\. Nothing was changed/,
            ),
          });
      } finally {
        await old.close();
      }
      expect(objects()).toBe('0');
      // Through a proxy that changes nothing, the same database becomes a store: the refusal was the version's.
      const same = await versionProxy(server.port, new Map());
      try {
        (await openStore(through(same.port))).close();
      } finally {
        await same.close();
      }
      expect(objects()).not.toBe('0');
    });

    it('a read-only open changes nothing: an empty database reads as an empty store (as a new SQLite path does), a store is read', async () => {
      const name = fresh();
      const empty = await openStore(server.url(name), { readOnly: true });
      expect(empty).toMatchObject({ readOnly: true, path: server.url(name) });
      expect(empty.db.prepare('SELECT count(*) FROM shop_order').pluck().get()).toBe(0);
      empty.close();
      expect(server.sql(name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).toBe('0');
      // Through the CLI alike: a command that reads sees nothing yet, and makes nothing.
      const orders = await cli(['orders'], { BRICK_WORK_DB: server.url(name) });
      expect(orders).toMatchObject({ code: 0, stdout: expect.stringContaining('No orders yet.') });
      expect(server.sql(name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).toBe('0');
      (await openStore(server.url(name))).close();
      const reader = await openStore(server.url(name), { readOnly: true });
      expect(reader.readOnly).toBe(true);
      expect(() => reader.db.prepare("INSERT INTO setting (key, value) VALUES ('a', 'b')").run()).toThrow(
        /read-only transaction/,
      );
      reader.close();
    });

    it('runs its own upgrade chain in one transaction; a failing step leaves it at its old version', () => {
      const name = fresh();
      openServerStore(server.url(name)).db.close();
      const step = {
        from: '4.2',
        to: '4.3',
        up: (db: { exec(sql: string): unknown }) => void db.exec('CREATE TABLE shelf (id bigint PRIMARY KEY)'),
      };
      const broken = {
        from: '4.3',
        to: '4.4',
        up: () => {
          throw new Error('step failed');
        },
      };
      expect(() =>
        openServerStore(server.url(name), { upgrades: [step, broken], current: { major: 4, minor: 4 } }),
      ).toThrow('step failed');
      expect(server.sql(name, 'SELECT schema_version FROM brick_work_meta')).toBe('402');
      expect(server.sql(name, "SELECT to_regclass('shelf') IS NULL")).toBe('t');

      const opened = openServerStore(server.url(name), { upgrades: [step], current: { major: 4, minor: 3 } });
      expect(opened.upgraded).toEqual(['4.2 → 4.3']);
      opened.db.close();
      expect(server.sql(name, 'SELECT schema_version FROM brick_work_meta')).toBe('403');
    });

    it('store info and store upgrade through the CLI name the server without its password, and change nothing on info', async () => {
      const name = fresh();
      // In BRICK_WORK_DB: a password is refused on the command line (--db), where `ps` shows it.
      const url = server.url(name).replace('brick_work@', 'brick_work:sesame@');
      const empty = await cliJson(['store', 'info'], { BRICK_WORK_DB: url });
      expect(empty.json).toMatchObject({ path: `127.0.0.1:${server.port}/${name}`, status: 'none', schema: null });
      expect(server.sql(name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).toBe('0');
      const made = await cli(['store', 'upgrade'], { BRICK_WORK_DB: url });
      expect(made.stdout).toContain(`Made a new store at 127.0.0.1:${server.port}/${name}`);
      const info = await cliJson(['store', 'info'], { BRICK_WORK_DB: url });
      expect(info.json).toMatchObject({ status: 'current', schema: '4.2', counts: { lines: 0 } });
      for (const out of [empty.stdout, made.stdout, made.stderr, info.stdout]) expect(out).not.toContain('sesame');
    });

    // Issue 61, §5: what `store info` advises, `store upgrade` does.
    it('store info of a server store marked 4.1 does not advise a store upgrade, which refuses it', async () => {
      const name = fresh();
      (await openStore(server.url(name))).close();
      server.sql(name, 'UPDATE brick_work_meta SET schema_version = 401');
      const env = { BRICK_WORK_DB: server.url(name) };
      const info = await cliJson(['store', 'info'], env);
      expect(info.code).toBe(0);
      expect(info.json).toMatchObject({ schema: '4.1', status: 'too-old', onServer: true });
      const text = await cli(['store', 'info'], env);
      expect(text.stdout).toMatch(/schema\s+4\.1 \(.*a store on a server begins at 4\.2/);
      expect(text.stdout).not.toMatch(/store upgrade|open it read-write/);
      const upgrade = await cliJson(['store', 'upgrade'], env);
      expect(upgrade.json.error).toMatchObject({ code: 'store-too-old' });
      expect(server.sql(name, 'SELECT schema_version FROM brick_work_meta')).toBe('401');
    });

    it('four desks opening a new store at once make it once', async () => {
      const name = fresh();
      const url = server.url(name);
      const opened = await Promise.all([
        import('node:child_process').then(({ execFile }) =>
          Promise.all(
            [0, 1, 2, 3].map(
              () =>
                new Promise<string>((resolve, reject) =>
                  execFile(
                    process.execPath,
                    [
                      '--import',
                      'tsx',
                      '-e',
                      `import('${path.resolve('src/store/open.ts')}').then(async (m) => { const s = await m.openStore(process.argv[1]); process.stdout.write(String(s.created)); s.close(); })`,
                      url,
                    ],
                    (e, out) => (e ? reject(e) : resolve(out)),
                  ),
                ),
            ),
          ),
        ),
      ]);
      expect(opened[0].sort()).toEqual(['false', 'false', 'false', 'true']);
    });
  },
);
