/**
 * The Mac's ways with the window (issue 44), electron mocked: the window's size and place remembered
 * with a minimum, a Window menu with ⌘M, ⌘O opening the app's dialog, documents from Finder or a file
 * association shown in the import preview, a second start bringing back a minimised window, and ⌘Q (or
 * closing the window) while work is under way asking first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askToQuitDuringWork, closeCoreOnQuit, configureApp, startApp } from '../../electron/app.ts';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../electron/channels.ts';
import { bringBack, bringBackOnActivate, closingQuits, documentsFromOutside } from '../../electron/desktop.ts';
import { menuTemplate } from '../../electron/menu.ts';
import { documentsInArgv } from '../../electron/opened-documents.ts';
import { DEFAULT_SIZE, keepWindowPlace, MIN_SIZE, windowPlace } from '../../electron/window-place.ts';
import { followMenuCommand } from '../../renderer/menu.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';
import { fakeElectron } from './fake-electron.ts';

/** A menu item as the app's menu template makes it (Electron's MenuItemConstructorOptions). */
type MenuItemConstructorOptions = ReturnType<typeof menuTemplate>[number];

const WORKER = new URL('../../src/app/runner-thread.ts', import.meta.url);
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

function userDataDir(): string {
  const dir = path.join(tempDir(), 'userData');
  fs.mkdirSync(dir);
  return dir;
}

async function startWith(fake: ReturnType<typeof fakeElectron>, dir: string) {
  configureApp(fake.electron);
  const started = await startApp(
    fake.electron,
    {
      rendererIndex: path.join(REPO_ROOT, 'renderer', 'index.html'),
      preload: path.join(dir, 'preload.cjs'),
      workerUrl: WORKER,
    },
    () => {},
  );
  closing.push(() => started.core.close());
  return started;
}

const MAIN_SCREEN = { x: 0, y: 0, width: 1440, height: 900 };
const SECOND_SCREEN = { x: 1440, y: 0, width: 1920, height: 1080 };

describe('the window’s size and place', () => {
  it('open at the default the first time, and where staff left them after, never below the minimum', async () => {
    const userData = userDataDir();
    const first = fakeElectron({ userData, appPath: path.dirname(userData) });
    const { window } = await startWith(first, path.dirname(userData));
    expect(window).toBe(first.windows[0]);
    expect(first.windows[0].options).toMatchObject({ ...DEFAULT_SIZE, minWidth: 1024, minHeight: 640 });
    expect(first.windows[0].options.x).toBeUndefined();

    // Staff move it to the second screen and make it larger; then they close it.
    const w = first.windows[0];
    w.bounds = { x: 1500, y: 40, width: 1600, height: 1000 };
    expect(w.emit('close')).toBe(false);
    const kept = JSON.parse(fs.readFileSync(path.join(userData, 'window-state.json'), 'utf8'));
    expect(kept).toEqual({ x: 1500, y: 40, width: 1600, height: 1000, maximized: false });

    const again = fakeElectron({ userData, appPath: path.dirname(userData), workAreas: [MAIN_SCREEN, SECOND_SCREEN] });
    await startWith(again, path.dirname(userData));
    expect(again.windows[0].options).toMatchObject({ x: 1500, y: 40, width: 1600, height: 1000, minWidth: 1024 });
  });

  it('a place on a screen no longer attached opens on the main screen at its size; a maximised window opens maximised', () => {
    const userData = userDataDir();
    const file = path.join(userData, 'window-state.json');
    fs.writeFileSync(file, JSON.stringify({ x: 1500, y: 40, width: 1600, height: 1000, maximized: true }));
    expect(windowPlace(userData, [MAIN_SCREEN])).toEqual({ width: 1600, height: 1000, maximized: true });
    expect(windowPlace(userData, [MAIN_SCREEN, SECOND_SCREEN])).toMatchObject({ x: 1500, y: 40 });
    // Title bar above the top of every screen: out of reach, so not used.
    fs.writeFileSync(file, JSON.stringify({ x: 100, y: -500, width: 1200, height: 800, maximized: false }));
    expect(windowPlace(userData, [MAIN_SCREEN]).x).toBeUndefined();
    // Smaller than the screens work at: the minimum.
    fs.writeFileSync(file, JSON.stringify({ x: 10, y: 10, width: 300, height: 200, maximized: false }));
    expect(windowPlace(userData, [MAIN_SCREEN])).toEqual({ ...MIN_SIZE, x: 10, y: 10, maximized: false });
    // Damaged or foreign: the default.
    for (const text of ['{', 'null', '{"width":"wide","height":5}', '[]']) {
      fs.writeFileSync(file, text);
      expect(windowPlace(userData, [MAIN_SCREEN])).toEqual({ ...DEFAULT_SIZE, maximized: false });
    }
  });

  it('keeps the normal bounds while maximised, and writes at most every half second while it moves', () => {
    vi.useFakeTimers();
    try {
      const userData = userDataDir();
      const fake = fakeElectron({ userData, appPath: userData });
      const w = new fake.electron.BrowserWindow({ width: 1200, height: 800, x: 5, y: 6 }) as any;
      keepWindowPlace(w, userData);
      const file = path.join(userData, 'window-state.json');
      for (let i = 0; i < 10; i++) {
        w.bounds = { ...w.bounds, x: 5 + i };
        w.emit('move');
      }
      expect(fs.existsSync(file)).toBe(false);
      vi.advanceTimersByTime(500);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ x: 14, maximized: false });
      w.maximized = true;
      w.emit('maximize');
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
        x: 14,
        y: 6,
        width: 1200,
        height: 800,
        maximized: true,
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the menu', () => {
  const actions = { undo() {}, redo() {}, importDocument() {}, compare() {}, search() {}, settings() {} };

  it('has a Mac app menu: About, Settings… ⌘, , Services, Hide, Hide Others, Show All, Quit', () => {
    const chosen: string[] = [];
    const app = menuTemplate(
      'darwin',
      { undo: null, redo: null },
      { ...actions, settings: () => chosen.push('settings') },
    )[0]!;
    expect(app.label).toBe('brick-work');
    const items = app.submenu as MenuItemConstructorOptions[];
    expect(items.map((i) => i.role ?? i.label ?? i.type)).toEqual([
      'about',
      'separator',
      'Settings…',
      'separator',
      'services',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'quit',
    ]);
    const settings = items.find((i) => i.label === 'Settings…')!;
    expect(settings.accelerator).toBe('CmdOrCtrl+,');
    (settings.click as () => void)();
    expect(chosen).toEqual(['settings']);
    // Windows and Linux have no app menu: Settings… is in File, before Quit.
    const file = menuTemplate('linux', { undo: null, redo: null }, actions).find((m) => m.label === 'File')!;
    expect((file.submenu as MenuItemConstructorOptions[]).map((i) => i.role ?? i.label ?? i.type)).toEqual([
      'Import a document…',
      'Compare two lists…',
      'separator',
      'Settings…',
      'separator',
      'quit',
    ]);
  });

  it('Settings… opens the Settings screen, as the other menu items open theirs (menu.command)', async () => {
    const userData = userDataDir();
    const fake = fakeElectron({ userData, appPath: path.dirname(userData) });
    await startWith(fake, path.dirname(userData));
    const all = fake.menus.at(-1) as MenuItemConstructorOptions[];
    const settings = all
      .flatMap((m) => m.submenu as MenuItemConstructorOptions[])
      .find((i) => i.label === 'Settings…')!;
    (settings.click as () => void)();
    expect(fake.sent.filter(([c, n]) => c === EVENT_CHANNEL && n === 'menu.command').map(([, , p]) => p)).toEqual([
      { command: 'settings' },
    ]);
    // The page's side: the Settings screen.
    const done: string[] = [];
    followMenuCommand('settings', {
      undo: () => done.push('undo'),
      redo: () => done.push('redo'),
      openDocument: () => done.push('open'),
      compareScreen: () => done.push('compare'),
      settingsScreen: () => done.push('settings screen'),
      events: new EventTarget(),
    });
    expect(done).toEqual(['settings screen']);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'renderer', 'main.tsx'), 'utf8')).toMatch(
      /settingsScreen: \(\) => useApp\.getState\(\)\.go\('settings'\)/,
    );
  });

  it('has a Window menu: Minimize ⌘M, Zoom and Bring All to Front on a Mac; Minimize and Close elsewhere', () => {
    const mac = menuTemplate('darwin', { undo: null, redo: null }, actions).find((m) => m.label === 'Window');
    expect(mac).toMatchObject({ role: 'windowMenu' });
    expect(mac?.submenu).toEqual([
      { role: 'minimize', accelerator: 'CmdOrCtrl+M' },
      { role: 'zoom' },
      { type: 'separator' },
      { role: 'front' },
    ]);
    const other = menuTemplate('win32', { undo: null, redo: null }, actions).find((m) => m.label === 'Window');
    expect(other?.submenu).toEqual([{ role: 'minimize', accelerator: 'CmdOrCtrl+M' }, { role: 'close' }]);
  });

  it('⌘O (File › Import a document…) opens the app’s file dialog on the Import screen, not just the screen', async () => {
    const userData = userDataDir();
    const dir = path.dirname(userData);
    const doc = path.join(dir, 'Market Street.bsx');
    fs.writeFileSync(doc, 'x');
    const fake = fakeElectron({ userData, appPath: dir, pick: doc });
    await startWith(fake, dir);
    const file = fake.menus.at(-1).find((m: { label: string }) => m.label === 'File');
    expect(file.submenu[0]).toMatchObject({ label: 'Import a document…', accelerator: 'CmdOrCtrl+O' });

    // The page's side: the menu's command opens the document (the screen and the app's dialog)…
    const done: string[] = [];
    followMenuCommand('import', {
      undo: () => done.push('undo'),
      redo: () => done.push('redo'),
      openDocument: () => done.push('open'),
      compareScreen: () => done.push('compare'),
      settingsScreen: () => done.push('settings'),
      events: new EventTarget(),
    });
    expect(done).toEqual(['open']);
    // …whose dialog is the main process's, answering the picked file.
    const handler = fake.handlers.get(CALL_CHANNEL)!;
    const own = { sender: fake.webContents, senderFrame: fake.webContents.mainFrame };
    const picked = await handler(own, 'file.pick', { purpose: 'document' });
    expect(picked.value).toMatchObject({ name: 'Market Street.bsx' });
    expect(fake.electron.dialog.showOpenDialog).toHaveBeenCalled();
  });
});

describe('documents from outside the window', () => {
  it('reads the documents of a command line: files with a document’s extension, not the app or its flags', () => {
    expect(
      documentsInArgv(['/Applications/brick-work', '--inspect', '.', '/tmp/a.BSX', '/tmp/b.csv', '/tmp/c.pdf']),
    ).toEqual(['/tmp/a.BSX', '/tmp/b.csv']);
  });

  it('from Finder before the window is there: held, then shown in order; one that can’t be read is said', () => {
    const dir = tempDir();
    const a = path.join(dir, 'Falcon.bsx');
    const b = path.join(dir, 'Market Street.xml');
    fs.writeFileSync(a, 'first');
    fs.writeFileSync(b, 'second');
    const fake = fakeElectron({ userData: dir, appPath: dir });
    const window = new fake.electron.BrowserWindow({ width: 1200, height: 800 }) as any;
    window.minimized = true;
    const opener = documentsFromOutside(fake.electron.app, ['brick-work', a], () => window);
    const openFile = (fake.app.on as any).mock.calls.find(([e]: [string]) => e === 'open-file')[1];
    const event = { preventDefault: vi.fn() };
    openFile(event, b);
    openFile({ preventDefault() {} }, path.join(dir, 'gone.bsx'));
    expect(event.preventDefault).toHaveBeenCalled(); // the app opens it, not the system
    expect(window.restore).toHaveBeenCalled(); // brought back from the Dock

    const delivered: { name: string; content: Uint8Array | null; problem: string | null }[] = [];
    opener.ready((d) => delivered.push(d));
    expect(delivered.map((d) => [d.name, d.content && Buffer.from(d.content).toString(), d.problem])).toEqual([
      ['Falcon.bsx', 'first', null],
      ['Market Street.xml', 'second', null],
      ['gone.bsx', null, 'gone.bsx could not be opened: it is no longer there, or can’t be read.'],
    ]);
    // Once the window takes them, a later one goes at once.
    openFile({ preventDefault() {} }, a);
    expect(delivered).toHaveLength(4);
  });

  it('a second start brings back the minimised window and hands over the documents it was given', () => {
    const dir = tempDir();
    const doc = path.join(dir, 'order.csv');
    fs.writeFileSync(doc, 'Part,Quantity\n3001,2\n');
    const fake = fakeElectron({ userData: dir, appPath: dir });
    const window = new fake.electron.BrowserWindow({ width: 1200, height: 800 }) as any;
    const delivered: string[] = [];
    documentsFromOutside(fake.electron.app, ['brick-work'], () => window).ready((d) => delivered.push(d.name));
    window.minimized = true;
    const second = (fake.app.on as any).mock.calls.find(([e]: [string]) => e === 'second-instance')[1];
    second({}, ['C:\\Program Files\\brick-work\\brick-work.exe', doc], dir);
    expect(window.restore).toHaveBeenCalled();
    expect(window.show).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
    expect(delivered).toEqual(['order.csv']);
    bringBack(null); // no window yet: nothing to do, and no error
  });

  it('a model or a part list named on a command line (a file association, a second start) is a document too', () => {
    expect(
      documentsInArgv(['brick-work', '/m/Falcon.io', '/m/tower.MPD', '/m/car.ldr', '/m/wall.dat', '/m/l.tsv']),
    ).toEqual(['/m/Falcon.io', '/m/tower.MPD', '/m/car.ldr', '/m/wall.dat', '/m/l.tsv']);
  });
});

describe('the Dock icon clicked, or the app chosen in Spotlight (macOS’s activate)', () => {
  function activating() {
    const fake = fakeElectron({ userData: '/x', appPath: '/x' });
    const made: { window: any } = { window: null };
    bringBackOnActivate(fake.electron.app, () => made.window);
    const activate = () => {
      for (const [event, fn] of (fake.app.on as any).mock.calls) if (event === 'activate') fn({}, false);
    };
    return { fake, made, activate };
  }

  it('brings back the minimised window: restored and in front', () => {
    const { fake, made, activate } = activating();
    const window = (made.window = new fake.electron.BrowserWindow({ width: 1200, height: 800 }) as any);
    window.visible = true;
    window.minimized = true;
    activate();
    expect(window.restore).toHaveBeenCalledTimes(1);
    expect(window.minimized).toBe(false);
    expect(window.focus).toHaveBeenCalled();
  });

  it('shows a hidden window; one already in front is only focused', () => {
    const { fake, made, activate } = activating();
    const window = (made.window = new fake.electron.BrowserWindow({ width: 1200, height: 800 }) as any);
    activate();
    expect(window.show).toHaveBeenCalledTimes(1);
    activate();
    expect(window.show).toHaveBeenCalledTimes(1);
    expect(window.restore).not.toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalledTimes(2);
  });

  it('before the start has made its window, or once the quit has closed it, does nothing', () => {
    const { fake, made, activate } = activating();
    expect(() => activate()).not.toThrow();
    const window = (made.window = new fake.electron.BrowserWindow({ width: 1200, height: 800 }) as any);
    window.isDestroyed = () => true;
    activate();
    expect(window.show).not.toHaveBeenCalled();
    expect(window.focus).not.toHaveBeenCalled();
  });

  it('main.ts brings back the window of the start that succeeded', () => {
    const main = fs.readFileSync(path.join(REPO_ROOT, 'electron', 'main.ts'), 'utf8');
    expect(main).toMatch(/bringBackOnActivate\(app, \(\) => started\)/);
    expect(main).toMatch(/\(\{ core, window \}\) => \{\s*started = window;/);
  });
});

describe('⌘Q while work is under way', () => {
  function quitting(work: string[], answer: number) {
    const fake = fakeElectron({ userData: '/x', appPath: '/x', messageBoxAnswer: answer });
    const close = vi.fn(async () => {});
    const window = new fake.electron.BrowserWindow({ width: 1200, height: 800 }) as any;
    const decided = closeCoreOnQuit(
      fake.app as any,
      async () => ({ close, workUnderWay: () => work }) as any,
      () => {},
      askToQuitDuringWork(fake.electron.dialog, () => window),
    );
    closingQuits(window, fake.app as any, decided);
    return { fake, close, window, decided };
  }

  it('asks first, naming the work; Don’t Quit leaves everything running and the window open', async () => {
    const q = quitting(['a catalogue is being loaded (40 % done)'], 1);
    expect(q.window.emit('close')).toBe(true); // closing the window is quitting: held for the question
    await vi.waitFor(() => expect(q.fake.electron.dialog.showMessageBoxSync).toHaveBeenCalledTimes(1));
    const [, box] = (q.fake.electron.dialog.showMessageBoxSync as any).mock.calls[0];
    expect(box.message).toBe('brick-work is still at work: a catalogue is being loaded (40 % done).');
    expect(box.buttons).toEqual(['Quit', 'Don’t Quit']);
    expect(box.cancelId).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(q.close).not.toHaveBeenCalled();
    expect(q.fake.app.quitted).toBe(false);
    expect(q.decided()).toBe(false);
    // Asked again at the next ⌘Q.
    q.fake.app.quit();
    await vi.waitFor(() => expect(q.fake.electron.dialog.showMessageBoxSync).toHaveBeenCalledTimes(2));
  });

  it('Quit closes the store and quits, and the window then closes without asking again', async () => {
    const q = quitting(['the look-up is asking BrickLink for missing numbers'], 0);
    q.fake.app.quit();
    await vi.waitFor(() => expect(q.fake.app.quitted).toBe(true));
    expect(q.close).toHaveBeenCalledTimes(1);
    expect(q.window.emit('close')).toBe(false);
    expect(q.fake.electron.dialog.showMessageBoxSync).toHaveBeenCalledTimes(1);
  });

  it('with nothing under way, quits without a question', async () => {
    const q = quitting([], 1);
    q.fake.app.quit();
    await vi.waitFor(() => expect(q.fake.app.quitted).toBe(true));
    expect(q.fake.electron.dialog.showMessageBoxSync).not.toHaveBeenCalled();
  });

  it('the app knows a catalogue load it handed to its runner thread is under way, until it finishes', async () => {
    const userData = userDataDir();
    const fake = fakeElectron({ userData, appPath: path.dirname(userData) });
    const { core } = await startWith(fake, path.dirname(userData));
    expect(core.workUnderWay()).toEqual([]);
    const handler = fake.handlers.get(CALL_CHANNEL)!;
    const own = { sender: fake.webContents, senderFrame: fake.webContents.mainFrame };
    const csv = new TextEncoder().encode('part_num,name,part_cat_id\n3001,Brick 2 x 4,11\n');
    const started = await handler(own, 'catalogue.load', { files: [{ name: 'parts.csv', content: csv }] });
    expect(started.ok).toBe(true);
    expect(core.workUnderWay()).toEqual([expect.stringMatching(/^a catalogue is being loaded/)]);
    await vi.waitFor(async () => expect((await handler(own, 'catalogue.status', {})).value.items).toBe(1), {
      timeout: 20_000,
    });
    await vi.waitFor(() => expect(core.workUnderWay()).toEqual([]));
  });
});
