/**
 * SPEC §8, §14: a store that can't be written opens for reading, says why, and skips recovery and the job
 * runner — on a shop's server too. A login that may only read, and a database set read-only (as a standby
 * is), are found at the open, before anything writes; an empty database this login can't make tables in
 * is refused in words.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { StoreView } from '../../../src/api/contract.ts';
import { startCore } from '../../../src/app/core.ts';
import { readOnlyBanner } from '../../../renderer/store-banner.ts';
import { openStore } from '../../../src/store/open.ts';
import { openServerStore } from '../../../src/store/postgres/open.ts';
import { cliJson } from '../../helpers/cli.ts';
import { needs } from '../../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../../helpers/postgres.ts';

describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'a shop server this desk may only read'))(
  'a shop server this desk may only read',
  () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres({ own: true });
    }, 60_000);
    afterAll(() => server?.close());

    const as = (user: string, database: string) => server.url(database).replace('brick_work@', `${user}@`);
    const currency = (database: string) =>
      server.sql(database, "SELECT coalesce(max(value), 'none') FROM setting WHERE key = 'currency'");

    it('a login that may only read: the app opens it for reading, says why, runs no jobs, and refuses writes in words', async () => {
      const name = 'reader_only';
      server.createDatabase(name);
      (await openStore(server.url(name))).close();
      server.sql(name, 'CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader');
      const logged: string[] = [];
      const core = await startCore({
        storePath: as('reader', name),
        workerUrl: new URL('../../../src/app/runner-thread.ts', import.meta.url),
        credentials: { encrypted: false, get: () => null, set: () => {} },
        files: null,
        emit: () => {},
        log: (line) => logged.push(line),
      });
      onTestFinished(() => core.close());
      expect(core.readOnly?.reason).toMatch(/the login reader may only read it/);
      expect(core.jobs, 'no job runner').toBeNull();
      expect(logged.join('\n')).toMatch(/open for reading only; job recovery and the job runner are off/);
      // The screens' banner reads this, and sends staff to whoever runs the server.
      const info = await core.service.call('store.info', {});
      expect(info).toMatchObject({
        ok: true,
        value: { onServer: true, readOnly: { reason: expect.stringMatching(/login reader may only read/) } },
      });
      expect(readOnlyBanner(info.ok ? (info.value as StoreView) : null)).toMatch(
        /^Read only: this store can't be written — the login reader may only read it.* ask whoever runs the shop's server/,
      );
      expect(await core.service.call('orders.list', {})).toMatchObject({ ok: true, value: [] });
      const write = await core.service.call('settings.set', { key: 'currency', value: 'EUR' });
      expect(write).toMatchObject({
        ok: false,
        error: { code: 'read-only-store', message: expect.stringMatching(/ask whoever runs the shop's server/) },
      });
      expect(currency(name)).toBe('none');
      // Given its rights but one, it still reads only, and the banner names what it lacks.
      server.sql(name, 'GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO reader');
      server.sql(name, 'REVOKE DELETE ON setting FROM reader');
      const partly = await openStore(as('reader', name));
      expect(partly.unwritable).toBe('the login reader may not change some of its tables (setting)');
      partly.close();
      // With every right given it opens read-write again.
      server.sql(name, 'GRANT DELETE ON setting TO reader');
      const again = await openStore(as('reader', name));
      onTestFinished(() => again.close());
      expect({ readOnly: again.readOnly, unwritable: again.unwritable }).toEqual({ readOnly: false, unwritable: null });
    }, 60_000);

    it('a database set read-only: opened for reading with why; a writing command is refused before it tries', async () => {
      const name = 'set_read_only';
      server.createDatabase(name);
      (await openStore(server.url(name))).close();
      server.sql('postgres', `ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      const store = await openStore(server.url(name));
      expect(store.readOnly).toBe(true);
      expect(store.unwritable).toMatch(/set read-only on the server/);
      store.close();
      const r = await cliJson(['settings', 'currency', 'EUR', '--db', server.url(name)]);
      expect(r.json.error).toMatchObject({
        code: 'read-only-store',
        message: expect.stringMatching(/can't be written: the database is set read-only on the server/),
      });
      expect(r.stdout + r.stderr).not.toMatch(/internal/);
      server.sql('postgres', `ALTER DATABASE ${name} RESET default_transaction_read_only`);
      expect(currency(name)).toBe('none');
      const writable = await openStore(server.url(name));
      onTestFinished(() => writable.close());
      expect(writable.readOnly).toBe(false);
    }, 60_000);

    it('a store that needs upgrading, on a login that may only read, is refused as needs-upgrade with why, unchanged', async () => {
      const name = 'old_for_reader';
      server.createDatabase(name);
      (await openStore(server.url(name))).close();
      server.sql(name, 'CREATE ROLE old_reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO old_reader');
      const step = {
        from: '4.2',
        to: '4.3',
        up: (db: { exec(sql: string): unknown }) => void db.exec('CREATE TABLE shelf (id bigint)'),
      };
      expect(() =>
        openServerStore(as('old_reader', name), { upgrades: [step], current: { major: 4, minor: 3 } }),
      ).toThrow(
        expect.objectContaining({
          code: 'needs-upgrade',
          message: expect.stringMatching(
            /needs upgrading to 4\.3, which this desk can't do: the login old_reader may only read it/,
          ),
        }),
      );
      expect(server.sql(name, 'SELECT schema_version FROM brick_work_meta')).toBe('402');
      expect(server.sql(name, "SELECT to_regclass('shelf') IS NULL")).toBe('t');
    }, 60_000);

    it("an empty database this login can't make tables in is refused in words, and stays empty", async () => {
      const name = 'no_create';
      server.createDatabase(name);
      server.sql(name, 'CREATE ROLE visitor LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC');
      await expect(openStore(as('visitor', name))).rejects.toMatchObject({
        code: 'read-only-store',
        message: expect.stringMatching(/is empty, and the login visitor may not make tables in it/),
      });
      expect(server.sql(name, "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace")).toBe('0');
    }, 60_000);
  },
);
