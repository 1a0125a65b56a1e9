/**
 * A keychain that refuses (issue 44): Deny pressed, the keychain locked, or a build signed differently
 * from the one that stored the secret. Electron mocked, its safeStorage refusing as macOS's does (it
 * throws). Never read as "nothing stored": said in words with "Try again", and a desk set up for the
 * shop's server never opens its own file instead without a word.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { afterFailedStart, configureApp, startApp } from '../../electron/app.ts';
import { CALL_CHANNEL } from '../../electron/channels.ts';
import { safeStorageShopServer } from '../../electron/credentials.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';
import { fakeElectron } from './fake-electron.ts';

const WORKER = new URL('../../src/app/runner-thread.ts', import.meta.url);
const SERVICE_WORKER = new URL('../../src/app/service-thread.ts', import.meta.url);
const CREDENTIALS = { consumerKey: 'ck', consumerSecret: 'cs-secret', token: 't', tokenSecret: 'ts-secret' };
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

function desk(messageBoxAnswer?: number) {
  const dir = tempDir();
  const userData = path.join(dir, 'userData');
  fs.mkdirSync(userData);
  const fake = fakeElectron({ userData, appPath: dir, messageBoxAnswer });
  configureApp(fake.electron);
  return { dir, userData, fake };
}

/** The desk set up for a shop server, its password kept in the keychain (while it still gives it). */
function chooseShopServer(d: ReturnType<typeof desk>): void {
  safeStorageShopServer(d.fake.electron.safeStorage, d.userData).set({
    host: '127.0.0.1',
    port: 1,
    database: 'shop',
    user: 'desk',
    password: 'pw-secret',
  });
}

async function start(d: ReturnType<typeof desk>) {
  const { core } = await startApp(
    d.fake.electron,
    {
      rendererIndex: path.join(REPO_ROOT, 'renderer', 'index.html'),
      preload: path.join(d.dir, 'preload.cjs'),
      workerUrl: WORKER,
      serviceWorkerUrl: SERVICE_WORKER,
    },
    () => {},
  );
  closing.push(() => core.close());
  const handler = d.fake.handlers.get(CALL_CHANNEL);
  if (!handler) throw new Error('no IPC handler');
  const ownEvent = { sender: d.fake.webContents, senderFrame: d.fake.webContents.mainFrame };
  return (name: string, args: unknown) => handler(ownEvent, name, args) as Promise<any>;
}

describe('a keychain that refuses (issue 44)', () => {
  it('stored BrickLink credentials it won’t give are said so with Try again, and Try again works (the writer thread starts the look-up)', async () => {
    const d = desk();
    const invoke = await start(d);
    expect((await invoke('settings.setCredentials', CREDENTIALS)).value).toMatchObject({
      credentialsStored: true,
      credentialsRefused: null,
    });

    d.fake.keychain.refuses = true;
    const settings = (await invoke('settings.get', {})).value;
    expect(settings.credentialsStored).toBe(true);
    expect(settings.credentialsRefused).toMatch(/keychain did not let brick-work read the BrickLink credentials/);
    expect(settings.credentialsRefused).toContain('Try again');
    const lookup = await invoke('lookup.start', {});
    expect(lookup.error.code).toBe('keychain-refused'); // not "none are stored yet"
    expect(lookup.error.message).toContain('Try again');
    expect(JSON.stringify([settings, lookup])).not.toContain('cs-secret');

    // Allowed now: the same press goes through, the keychain read again for it.
    d.fake.keychain.refuses = false;
    const again = await invoke('lookup.start', {});
    expect(again.ok).toBe(true);
    expect(again.value.jobId).toBeGreaterThan(0);
    expect((await invoke('settings.get', {})).value.credentialsRefused).toBeNull();
    await invoke('jobs.cancel', { jobId: again.value.jobId });
  });

  it('credentials it won’t store are refused in words with Try again, and nothing is written', async () => {
    const d = desk();
    const invoke = await start(d);
    d.fake.keychain.refuses = true;
    const r = await invoke('settings.setCredentials', CREDENTIALS);
    expect(r.error.code).toBe('keychain-refused');
    expect(r.error.message).toMatch(/did not let brick-work store the BrickLink credentials.*Try again/);
    expect(fs.existsSync(path.join(d.userData, 'bricklink-credentials.bin'))).toBe(false);
  });

  it('a desk set up for the shop’s server whose password it won’t give does not start on its own file; staff choose', async () => {
    const d = desk();
    chooseShopServer(d);
    d.fake.keychain.refuses = true;
    const failed = await start(d).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(failed?.code).toBe('keychain-refused');
    expect(failed?.message).toContain('Try again');
    expect(fs.readdirSync(d.userData)).toEqual(['shop-server.bin']); // no store file made or opened here

    const ask = (answer: number) => {
      const asked = fakeElectron({ userData: d.userData, appPath: d.dir, messageBoxAnswer: answer });
      asked.keychain.refuses = true;
      const outcome = afterFailedStart(asked.electron, failed?.message ?? '');
      const box = (asked.electron.dialog.showMessageBoxSync as any).mock.calls[0]?.[0];
      return { outcome, box, errorBox: asked.electron.dialog.showErrorBox };
    };
    const tryAgain = ask(0);
    expect(tryAgain.outcome).toBe('again');
    expect(tryAgain.errorBox).not.toHaveBeenCalled();
    expect(tryAgain.box.message).toMatch(/could not read the shop server’s password from this computer’s keychain/);
    expect(tryAgain.box.buttons).toEqual(['Try again', 'Use this computer’s file', 'Quit']);
    expect(JSON.stringify(tryAgain.box)).not.toContain('pw-secret');
    expect(fs.existsSync(path.join(d.userData, 'shop-server.bin'))).toBe(true);
    expect(ask(2).outcome).toBe('quit');
    expect(fs.existsSync(path.join(d.userData, 'shop-server.bin'))).toBe(true);
    // Going back to this computer's file is staff's choice, and forgets the server.
    expect(ask(1).outcome).toBe('again');
    expect(fs.existsSync(path.join(d.userData, 'shop-server.bin'))).toBe(false);
  });

  it('Settings → Shop server says when the keychain keeps the chosen server back', async () => {
    const d = desk();
    const invoke = await start(d);
    chooseShopServer(d);
    d.fake.keychain.refuses = true;
    const view = (await invoke('shopServer.get', {})).value;
    expect(view).toMatchObject({ inUse: { kind: 'file' }, chosen: null });
    expect(view.refused).toMatch(/shop server’s password.*Try again/);
    d.fake.keychain.refuses = false;
    expect((await invoke('shopServer.get', {})).value).toMatchObject({ chosen: { host: '127.0.0.1' }, refused: null });
  });
});
