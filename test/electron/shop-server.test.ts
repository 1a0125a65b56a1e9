/**
 * Settings → Shop server in the app (issue 29, SPEC §14), electron mocked: the choice is checked against a
 * real server before it is kept, kept encrypted with its password, opened from the next start; a start
 * that can't reach it lets staff try again or go back to the computer's own file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { afterFailedStart, startApp } from '../../electron/app.ts';
import { CALL_CHANNEL } from '../../electron/channels.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { needs } from '../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/temp.ts';
import { fakeElectron } from './fake-electron.ts';

const WORKER = new URL('../../src/app/runner-thread.ts', import.meta.url);

describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'the app’s Shop server setting'))(
  'the app’s Shop server setting (electron mocked, a real server)',
  () => {
    let server: PostgresServer;
    let closing: (() => Promise<void>)[] = [];
    beforeAll(async () => {
      server = await startPostgres({ own: true });
      server.sql('postgres', "ALTER ROLE brick_work PASSWORD 'open-sesame'");
      server.createDatabase('shop');
    }, 60_000);
    afterAll(() => server?.close());
    afterEach(async () => {
      for (const close of closing) await close();
      closing = [];
    });

    async function start(userData: string, messageBoxAnswer?: number) {
      const fake = fakeElectron({ userData, appPath: path.dirname(userData), messageBoxAnswer });
      const { core } = await startApp(
        fake.electron,
        { rendererIndex: path.join(REPO_ROOT, 'renderer', 'index.html'), preload: 'preload.cjs', workerUrl: WORKER },
        () => {},
      );
      closing.push(() => core.close());
      const handler = fake.handlers.get(CALL_CHANNEL);
      if (!handler) throw new Error('no IPC handler');
      const ownEvent = { sender: fake.webContents, senderFrame: fake.webContents.mainFrame };
      return { fake, invoke: (name: string, args: unknown) => handler(ownEvent, name, args) as Promise<any> };
    }

    it('a server chosen in Settings is checked, kept encrypted, and opened from the next start', async () => {
      const userData = path.join(tempDir(), 'userData');
      fs.mkdirSync(userData);
      const first = await start(userData);
      const chosen = await first.invoke('shopServer.choose', {
        host: '127.0.0.1',
        port: server.port,
        database: 'shop',
        user: 'brick_work',
        password: 'open-sesame',
      });
      expect(chosen.value).toMatchObject({
        inUse: { kind: 'file' },
        chosen: { host: '127.0.0.1', port: server.port, database: 'shop', user: 'brick_work' },
        note: expect.stringContaining('from its next start'),
      });
      // The empty database became a store when it was checked; the password is nowhere in the clear.
      expect(server.sql('shop', 'SELECT schema_version FROM brick_work_meta')).toBe('402');
      const kept = fs.readFileSync(path.join(userData, 'shop-server.bin'), 'utf8');
      expect(kept).not.toContain('open-sesame');
      expect(JSON.stringify(await first.invoke('shopServer.get', {}))).not.toContain('open-sesame');
      for (const c of closing.splice(0)) await c();

      const second = await start(userData);
      expect((await second.invoke('store.info', {})).value.path).toBe(`127.0.0.1:${server.port}/shop`);
      expect((await second.invoke('shopServer.get', {})).value.inUse).toEqual({
        kind: 'server',
        name: `127.0.0.1:${server.port}/shop`,
      });
      const imported = await second.invoke('import.confirm', {
        file: { name: 'a.csv', content: new TextEncoder().encode('number,name,quantity\n3001,Brick 2 x 4,2\n') },
      });
      expect(imported.ok, JSON.stringify(imported.error)).toBe(true);
      expect(server.sql('shop', 'SELECT count(*) FROM order_line')).toBe('1');
    });

    it('a login that may only read is kept, and staff are told now that this desk will only read', async () => {
      server.createDatabase('looking');
      const userData = path.join(tempDir(), 'userData');
      fs.mkdirSync(userData);
      const app = await start(userData);
      // Made a store by the shop's own login first; the desk's login may only read it.
      expect(
        (
          await app.invoke('shopServer.choose', {
            host: '127.0.0.1',
            port: server.port,
            database: 'looking',
            user: 'brick_work',
            password: 'open-sesame',
          })
        ).ok,
      ).toBe(true);
      server.sql(
        'looking',
        "CREATE ROLE looker LOGIN PASSWORD 'peek'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO looker",
      );
      const chosen = await app.invoke('shopServer.choose', {
        host: '127.0.0.1',
        port: server.port,
        database: 'looking',
        user: 'looker',
        password: 'peek',
      });
      expect(chosen.value.note).toMatch(
        /from its next start: .* It can only be read from this desk: the login looker may only read it/,
      );
    });

    it('a database of another application is refused and not kept', async () => {
      server.createDatabase('accounts');
      server.sql('accounts', 'CREATE TABLE ledger (id int)');
      const userData = path.join(tempDir(), 'userData');
      fs.mkdirSync(userData);
      const app = await start(userData);
      const refused = await app.invoke('shopServer.choose', {
        host: '127.0.0.1',
        port: server.port,
        database: 'accounts',
        user: 'brick_work',
        password: 'open-sesame',
      });
      expect(refused.error).toMatchObject({ code: 'not-a-store' });
      expect(fs.existsSync(path.join(userData, 'shop-server.bin'))).toBe(false);
    });

    it('a start that cannot reach the chosen server offers to try again or to go back to the own file', async () => {
      const userData = path.join(tempDir(), 'userData');
      fs.mkdirSync(userData);
      const app = await start(userData);
      await app.invoke('shopServer.choose', {
        host: '127.0.0.1',
        port: server.port,
        database: 'shop',
        user: 'brick_work',
        password: 'open-sesame',
      });
      for (const c of closing.splice(0)) await c();

      const tryAgain = fakeElectron({ userData, appPath: path.dirname(userData), messageBoxAnswer: 0 });
      expect(afterFailedStart(tryAgain.electron, 'The shop’s server can’t be reached')).toBe('again');
      const box = (tryAgain.electron.dialog.showMessageBoxSync as any).mock.calls[0][0];
      expect(box.message).toContain(`127.0.0.1:${server.port}/shop`);
      expect(JSON.stringify(box)).not.toContain('open-sesame');
      expect(fs.existsSync(path.join(userData, 'shop-server.bin'))).toBe(true);

      const ownFile = fakeElectron({ userData, appPath: path.dirname(userData), messageBoxAnswer: 1 });
      expect(afterFailedStart(ownFile.electron, 'down')).toBe('again');
      expect(fs.existsSync(path.join(userData, 'shop-server.bin'))).toBe(false);
      const back = await start(userData);
      expect((await back.invoke('shopServer.get', {})).value.inUse.kind).toBe('file');

      const noServer = fakeElectron({ userData, appPath: path.dirname(userData) });
      expect(afterFailedStart(noServer.electron, 'the disk is full')).toBe('quit');
      expect(noServer.electron.dialog.showErrorBox).toHaveBeenCalledWith(
        'brick-work could not start',
        'the disk is full',
      );
    });
  },
);
