import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeCoreOnQuit, configureApp, startApp } from '../../electron/app.ts';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../electron/channels.ts';
import { menuTemplate } from '../../electron/menu.ts';
import { electronNativeBinding } from '../../electron/native.ts';
import { appPage, fileUrlPath } from '../../electron/page.ts';
import { followMenuCommand, isTextField } from '../../renderer/menu.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';
import { chromiumFileUrl, fakeElectron } from './fake-electron.ts';

const WORKER = new URL('../../src/app/runner-thread.ts', import.meta.url);
let closeCore: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeCore?.();
  closeCore = null;
});

/** The app, installed under a folder whose name holds a `%`, spaces and a letter beyond ASCII. */
async function startInstalledApp(options: { packaged?: boolean } = {}) {
  const dir = tempDir();
  const install = path.join(dir, 'Shop 100% sure', 'brick wörk');
  const rendererIndex = path.join(install, 'dist', 'renderer', 'index.html');
  fs.mkdirSync(path.dirname(rendererIndex), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'renderer', 'index.html'), rendererIndex);
  const userData = path.join(dir, 'userData');
  fs.mkdirSync(userData);
  const fake = fakeElectron({ userData, appPath: install, packaged: options.packaged });
  configureApp(fake.electron);
  const started = await startApp(
    fake.electron,
    { rendererIndex, preload: path.join(install, 'dist', 'electron', 'preload.cjs'), workerUrl: WORKER },
    () => {},
  );
  closeCore = () => started.core.close();
  const handler = fake.handlers.get(CALL_CHANNEL)!;
  const invoke = (name: string, args: unknown, event: unknown) => handler(event, name, args) as Promise<any>;
  const answered = (p: Promise<unknown>) =>
    Promise.race([p.then(() => 'answered'), new Promise((r) => setTimeout(() => r('no answer'), 100))]);
  return { fake, install, rendererIndex, invoke, answered, core: started.core };
}

describe('the app’s own page, told by the file it names (SPEC §11)', () => {
  it('answers its own window when the install path holds a % and spaces (Chromium keeps the %, Node writes %25)', async () => {
    const { fake, rendererIndex, invoke, answered } = await startInstalledApp();
    const shown = fake.webContents.mainFrame.url;
    expect(shown).toContain('100%%20sure'); // Chromium's spelling…
    expect(pathToFileURL(rendererIndex).href).toContain('100%25%20sure'); // …is not Node's
    const own = { sender: fake.webContents, senderFrame: fake.webContents.mainFrame };
    await expect(answered(invoke('settings.get', {}, own))).resolves.toBe('answered');
    expect((await invoke('settings.get', {}, own)).value).toMatchObject({ currency: 'USD' });

    // The main frame showing any other file is not the app's page.
    for (const url of ['file:///etc/passwd', chromiumFileUrl(path.join(path.dirname(rendererIndex), 'other.html'))]) {
      fake.webContents.mainFrame.url = url;
      await expect(answered(invoke('settings.get', {}, own))).resolves.toBe('no answer');
    }
  });

  it('loads only the files of its own folder: file:///etc/passwd and a way out with .. are cancelled', async () => {
    const { fake, rendererIndex } = await startInstalledApp();
    const decide = (url: string) => {
      let answer: unknown;
      fake.beforeRequest()?.({ url }, (r: unknown) => (answer = r));
      return answer;
    };
    const folder = path.dirname(rendererIndex);
    expect(decide(chromiumFileUrl(rendererIndex))).toEqual({ cancel: false });
    expect(decide(pathToFileURL(path.join(folder, 'assets', 'index-1.js')).href)).toEqual({ cancel: false });
    expect(decide(chromiumFileUrl(path.join(folder, 'assets', 'index 2.css')))).toEqual({ cancel: false });
    expect(decide('devtools://devtools/bundled/inspector.html')).toEqual({ cancel: false });
    for (const url of [
      'file:///etc/passwd',
      `${chromiumFileUrl(folder)}/../../../../etc/passwd`,
      `${chromiumFileUrl(folder)}/..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
      chromiumFileUrl(path.join(path.dirname(folder), 'electron', 'main.js')),
      `${chromiumFileUrl(folder)}x/index.html`, // a sibling folder whose name starts the same
      'file://evil.example/share/x.js',
      'https://evil.example/x.js',
      'data:text/html,<script>1</script>',
    ])
      expect(decide(url), url).toEqual({ cancel: true });
  });

  it('will not navigate to another file, only to its own page', async () => {
    const { fake, rendererIndex } = await startInstalledApp();
    const navigate = (url: string) => {
      let prevented = false;
      fake.contentsEvents.get('will-navigate')?.({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate(chromiumFileUrl(rendererIndex))).toBe(false);
    expect(navigate(`${pathToFileURL(rendererIndex).href}#orders`)).toBe(false);
    expect(navigate('file:///etc/passwd')).toBe(true);
  });

  it('grants no permission, whether a page asks for one or only checks', async () => {
    const { fake } = await startInstalledApp();
    expect(fake.permissionCheck()?.({}, 'clipboard-read', 'file:///', {})).toBe(false);
    expect(fake.permissionCheck()?.({}, 'media', 'file:///', {})).toBe(false);
  });

  it('reads file: URLs as Chromium does, on POSIX and Windows', () => {
    expect(fileUrlPath('file:///a/100%%20sure/x.html', 'linux')).toBe('/a/100% sure/x.html');
    expect(fileUrlPath('file:///a/100%25%20sure/x.html', 'linux')).toBe('/a/100% sure/x.html');
    expect(fileUrlPath('file:///a/b%C3%B6/./c/../x.html', 'linux')).toBe('/a/bö/x.html');
    expect(fileUrlPath('file:///a/%00x', 'linux')).toBeNull();
    expect(fileUrlPath('https://a/b', 'linux')).toBeNull();
    expect(fileUrlPath('file:///C:/Program%20Files/100%/x.html', 'win32')).toBe('C:\\Program Files\\100%\\x.html');
    expect(fileUrlPath('file://server/share/x.html', 'win32')).toBe('\\\\server\\share\\x.html');
    const page = appPage('C:\\Program Files\\brick-work\\resources\\app.asar\\dist\\renderer\\index.html', 'win32');
    expect(page.isPage('file:///c:/program%20files/brick-work/resources/app.asar/dist/renderer/index.html')).toBe(true);
    expect(page.isInFolder('file:///C:/Windows/win.ini')).toBe(false);
  });
});

describe('quitting closes the store (⌘Q fires before-quit, not window-all-closed)', () => {
  it('holds the first before-quit until the core has closed, then quits; closes it once', async () => {
    const fake = fakeElectron({ userData: '/x', appPath: '/x' });
    const close = vi.fn(async () => {});
    let finishStart: (core: unknown) => void = () => {};
    const starting = new Promise((r) => (finishStart = r));
    closeCoreOnQuit(
      fake.app as any,
      () => starting as any,
      () => {},
    );
    fake.app.quit(); // ⌘Q while the app is still starting
    fake.app.quit(); // pressed again
    expect(fake.app.quitted).toBe(false);
    finishStart({ close });
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true));
    expect(close).toHaveBeenCalledTimes(1);
    fake.app.quit();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('quits even when the store did not close cleanly, and says so', async () => {
    const fake = fakeElectron({ userData: '/x', appPath: '/x' });
    const said: string[] = [];
    closeCoreOnQuit(
      fake.app as any,
      async () => ({ close: async () => Promise.reject(new Error('disk gone')) }) as any,
      (l) => said.push(l),
    );
    fake.app.quit();
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true));
    expect(said).toEqual(['the store did not close cleanly: disk gone']);
  });

  it('main.ts closes the core on before-quit, and quitting is what closing the window does', () => {
    const main = fs.readFileSync(path.join(REPO_ROOT, 'electron', 'main.ts'), 'utf8');
    expect(main).toMatch(/closeCoreOnQuit\(\s*app,/);
    expect(main).toMatch(/app\.on\('window-all-closed', \(\) => app\.quit\(\)\)/);
  });
});

describe('Undo and Redo: the typing in a text field, else the app’s step', () => {
  it('keeps Undo and Redo in the menu enabled with nothing in the history, so ⌘Z always reaches the page', async () => {
    const { fake } = await startInstalledApp();
    const edit = fake.menus.at(-1).find((m: { label: string }) => m.label === 'Edit');
    expect(edit.submenu[0]).toMatchObject({ label: 'Undo', accelerator: 'CmdOrCtrl+Z', enabled: true });
    expect(edit.submenu[1]).toMatchObject({ label: 'Redo', accelerator: 'Shift+CmdOrCtrl+Z', enabled: true });
    edit.submenu[0].click();
    edit.submenu[1].click();
    // File → Compare two lists… takes the page to the Compare screen (SPEC §9.8: from the menu).
    const fileMenu = fake.menus.at(-1).find((m: { label: string }) => m.label === 'File');
    fileMenu.submenu.find((i: { label?: string }) => i.label === 'Compare two lists…').click();
    expect(fake.sent.filter(([c, n]) => c === EVENT_CHANNEL && n === 'menu.command').map(([, , p]) => p)).toEqual([
      { command: 'undo' },
      { command: 'redo' },
      { command: 'compare' },
    ]);
    const named = menuTemplate(
      'darwin',
      { undo: { id: 3, kind: 'import', label: 'Import of a.bsx' } as any, redo: null },
      {
        undo() {},
        redo() {},
        importDocument() {},
        compare() {},
        search() {},
        settings() {},
      },
    );
    expect(named.find((m) => m.label === 'Edit')!.submenu).toEqual(
      expect.arrayContaining([expect.objectContaining({ label: 'Undo Import of a.bsx', enabled: true })]),
    );
  });

  it('the page undoes the typing when a text field has the focus, and the app’s step otherwise', () => {
    const done: string[] = [];
    let focused: Parameters<typeof isTextField>[0] = null;
    const to = {
      undo: () => done.push('app undo'),
      redo: () => done.push('app redo'),
      openDocument: () => done.push('import'),
      compareScreen: () => done.push('compare'),
      settingsScreen: () => done.push('settings'),
      events: new EventTarget(),
      editingText: () => isTextField(focused),
      editText: (command: 'undo' | 'redo') => done.push(`field ${command}`),
    };
    focused = { tagName: 'INPUT', type: 'search' };
    followMenuCommand('undo', to);
    followMenuCommand('redo', to);
    focused = { tagName: 'TEXTAREA' };
    followMenuCommand('undo', to);
    focused = { tagName: 'DIV', isContentEditable: true };
    followMenuCommand('undo', to);
    focused = { tagName: 'INPUT', type: 'checkbox' };
    followMenuCommand('undo', to);
    focused = { tagName: 'BUTTON' };
    followMenuCommand('redo', to);
    focused = null;
    followMenuCommand('undo', to);
    expect(done).toEqual(['field undo', 'field redo', 'field undo', 'field undo', 'app undo', 'app redo', 'app undo']);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'renderer', 'main.tsx'), 'utf8')).toMatch(
      /editingText: \(\) => isTextField\(document\.activeElement/,
    );
  });
});

describe('the better-sqlite3 binary for Electron, checked by its stamp when the app starts', () => {
  const place = (root: string, stamp: object | null, content = '') => {
    const dir = path.join(root, 'native', 'electron-v150-darwin-x64');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'better_sqlite3.node'), content);
    if (stamp) fs.writeFileSync(path.join(dir, 'built-from.json'), JSON.stringify(stamp));
    return path.join(dir, 'better_sqlite3.node');
  };

  it('loads a binary whose stamp names this ABI', () => {
    const root = tempDir();
    const file = place(root, { electron: '45.5.0', arch: 'x64', abi: '150' });
    expect(electronNativeBinding(root, '150', 'darwin', 'x64')).toBe(file);
  });

  it('refuses, in plain words, one built for another ABI (npm_config_nodedir built it against Node) or stamped by an earlier build without an ABI', () => {
    for (const [stamp, content, says] of [
      [{ electron: '45.5.0', abi: '115' }, '', /was built for ABI 115/],
      [{ electron: '45.5.0', betterSqlite3: '12.11.1', arch: 'x64' }, '', /built-from\.json does not name/],
      [null, '\0node_register_module_v115\0', /was built for ABI 115/],
    ] as const) {
      const root = tempDir();
      place(root, stamp, content);
      expect(() => electronNativeBinding(root, '150', 'darwin', 'x64')).toThrow(says);
      try {
        electronNativeBinding(root, '150', 'darwin', 'x64');
      } catch (e) {
        expect((e as Error).message).toMatch(/^The SQLite library built for this Electron \(ABI 150, darwin-x64\)/);
        expect((e as Error).message).toContain('npm start');
      }
    }
  });

  it('a packaged app without a binary for its own arch refuses to start with a plain message (never the Node one)', async () => {
    await expect(startInstalledApp({ packaged: true })).rejects.toThrow(
      /has no SQLite library for its Electron \(ABI \d+, \w+-\w+\)/,
    );
  });
});
