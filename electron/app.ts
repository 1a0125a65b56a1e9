import type * as Electron from 'electron';
import type { ApiEvents, EventName } from '../src/api/contract.ts';
import { startCore, type Core } from '../src/app/core.ts';
import { BrickWorkError } from '../src/vocabulary/errors.ts';
import { storeFileIn } from '../src/app/store-place.ts';
import { APP_NAME } from '../src/platform/version.ts';
import { serverUrl, storeName } from '../src/vocabulary/store-location.ts';
import type { ShopServerConfig, ShopServerPort } from '../src/api/ports.ts';
import { followAppearance, windowBackground } from './appearance.ts';
import { safeStorageCredentials, safeStorageShopServer } from './credentials.ts';
import { fileDeskName } from './desk-name.ts';
import { fileDialogs } from './dialogs.ts';
import { registerIpc, sendEvent } from './ipc.ts';
import { menuTemplate } from './menu.ts';
import { electronNativeBinding } from './native.ts';
import { appPage } from './page.ts';
import { appPrinter } from './print.ts';
import { keepWindowPlace, MIN_SIZE, windowPlace } from './window-place.ts';
import { lockDown, lockDownApp, lockDownSession, showWhenReady, webPreferences } from './security.ts';

/** The parts of Electron the app uses: the real module in the app, a stand-in in the unit tests. */
export type ElectronDeps = Pick<
  typeof Electron,
  'app' | 'BrowserWindow' | 'dialog' | 'ipcMain' | 'Menu' | 'nativeTheme' | 'safeStorage' | 'screen' | 'session'
>;

export interface AppPaths {
  /** dist/renderer/index.html */
  readonly rendererIndex: string;
  /** dist/electron/preload.cjs */
  readonly preload: string;
  /** The job runner thread's script. */
  readonly workerUrl: URL;
  /** The service threads' script (writes, import previews, suggestions); default: beside the runner thread's. */
  readonly serviceWorkerUrl?: URL;
}

/** Before `ready`: the app's name (so its user-data folder is the CLI's, SPEC §1) and the sandbox for every page. */
export function configureApp(electron: Pick<ElectronDeps, 'app'>): void {
  electron.app.setName(APP_NAME);
  electron.app.enableSandbox();
}

/**
 * After `ready`: the locked-down window, the core (store opened and upgraded, jobs recovered, the runner
 * thread started), the IPC adapter answering only this window, and the menu with Undo and Redo.
 */
export async function startApp(
  electron: ElectronDeps,
  paths: AppPaths,
  log: (line: string) => void,
): Promise<{ window: Electron.BrowserWindow; core: Core }> {
  const { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, safeStorage, screen, session } = electron;
  const page = appPage(paths.rendererIndex);
  lockDownApp(app, page);
  lockDownSession(session.defaultSession, page);
  const userData = app.getPath('userData');

  // Where staff left it last time, on a screen attached now; never smaller than the screens are built for.
  const place = windowPlace(
    userData,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const window = new BrowserWindow({
    width: place.width,
    height: place.height,
    ...(place.x !== undefined && place.y !== undefined ? { x: place.x, y: place.y } : {}),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: APP_NAME,
    // The page's own ground, light or dark as the system is (Electron's default is white).
    backgroundColor: windowBackground(nativeTheme),
    webPreferences: webPreferences(paths.preload),
  });
  followAppearance(nativeTheme, window);
  // Maximising shows a window: done as it is shown, not before its page is ready.
  if (place.maximized) window.once('ready-to-show', () => window.maximize());
  keepWindowPlace(window, userData);
  lockDown(window.webContents, page);
  showWhenReady(window);

  let core: Core | null = null;
  const send = (command: ApiEvents['menu.command']['command']) => sendEvent(window, 'menu.command', { command });
  const refreshMenu = async () => {
    const state = core ? await core.service.call('history.state', {}) : null;
    const history = state?.ok ? state.value : { undo: null, redo: null };
    const template = menuTemplate(process.platform, history, {
      undo: () => send('undo'),
      redo: () => send('redo'),
      importDocument: () => send('import'),
      compare: () => send('compare'),
      search: () => send('search'),
      settings: () => send('settings'),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  const emit = <E extends EventName>(name: E, payload: ApiEvents[E]) => {
    sendEvent(window, name, payload);
    if (name === 'store.changed') void refreshMenu();
  };

  const binding = electronNativeBinding(app.getAppPath());
  if (binding === null && app.isPackaged)
    throw new BrickWorkError(
      'internal',
      `This copy of brick-work has no SQLite library for its Electron (ABI ${process.versions.modules}, ` +
        `${process.platform}-${process.arch}): it was packaged without running scripts/native-electron.mjs for this arch.`,
    );
  const shopServer = safeStorageShopServer(safeStorage, userData);
  core = await startCore({
    storePath: storeLocation(shopServer, userData),
    shopServer,
    deskName: fileDeskName(userData),
    workerUrl: paths.workerUrl,
    serviceWorkerUrl: paths.serviceWorkerUrl,
    nativeBinding: binding,
    credentials: safeStorageCredentials(safeStorage, userData),
    files: fileDialogs(dialog, window),
    printer: appPrinter(electron),
    emit,
    log,
  });
  try {
    registerIpc(ipcMain, window, page, core.service, log);
    await refreshMenu();
    await window.loadFile(paths.rendererIndex);
  } catch (e) {
    await core.close(); // the start failed after the store was opened: don't leave it (and its threads) open
    throw e;
  }
  return { window, core };
}

/**
 * Closes the core (the store, its threads) before the app quits, however it quits: ⌘Q and the menu's
 * Quit fire `before-quit` but not `window-all-closed`. The first `before-quit` is held until the core
 * has closed (`core()` waits for a start still under way), then the app quits for real; once only.
 * While the app is doing work a quit would stop (a catalogue load, the look-up, an import), `ask` names
 * it and staff choose; "Don't quit" leaves everything running as it was.
 */
export function closeCoreOnQuit(
  app: Pick<Electron.App, 'on' | 'quit'>,
  core: () => Promise<Core | null>,
  log: (line: string) => void,
  ask: (work: readonly string[]) => boolean = () => true,
): () => boolean {
  let state: 'open' | 'asking' | 'closing' | 'closed' = 'open';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state !== 'open') return;
    state = 'asking';
    void core()
      .then(async (c) => {
        let work: readonly string[] = [];
        try {
          work = c?.workUnderWay() ?? [];
        } catch {
          // what it is doing can't be told: quit as asked
        }
        if (work.length > 0 && !ask(work)) {
          state = 'open'; // staff chose to stay: nothing was stopped
          return;
        }
        state = 'closing';
        await c?.close();
      })
      .catch((e: unknown) => {
        state = 'closing';
        log(`the store did not close cleanly: ${e instanceof Error ? e.message : String(e)}`);
      })
      .finally(() => {
        if (state !== 'closing') return;
        state = 'closed';
        app.quit();
      });
  });
  // Whether the quit is decided (the window may close now).
  return () => state === 'closing' || state === 'closed';
}

/** The question a quit asks while work is under way: whether to quit anyway (⌘Q during a load, issue 44). */
export function askToQuitDuringWork(
  dialog: Pick<Electron.Dialog, 'showMessageBoxSync'>,
  window: () => Electron.BrowserWindow | null,
): (work: readonly string[]) => boolean {
  return (work) => {
    const options: Electron.MessageBoxSyncOptions = {
      type: 'question',
      title: 'Quit brick-work?',
      message: `brick-work is still at work: ${work.join('; ')}.`,
      detail: 'Quitting stops it now. Nothing is left half-written, and it can be started again later.',
      buttons: ['Quit', 'Don’t Quit'],
      defaultId: 1,
      cancelId: 1,
    };
    const shown = window();
    const answer = shown ? dialog.showMessageBoxSync(shown, options) : dialog.showMessageBoxSync(options);
    return answer === 0;
  };
}

/** The store this desk opens: the shop server chosen in Settings (SPEC §14), else its own file. */
export function storeLocation(shopServer: ShopServerPort, userData: string): string {
  const chosen = shopServer.get();
  return chosen === null ? storeFileIn(userData) : serverUrl(chosen);
}

/**
 * The app could not start. On a shop server that can't be opened (down, unreachable, not a store), or
 * whose password the keychain would not give, staff choose: try again, or go back to this computer's own
 * file (the choice is forgotten); otherwise, or on Quit, the reason is shown and the app quits. Answers
 * whether to start again.
 */
export function afterFailedStart(
  electron: Pick<ElectronDeps, 'app' | 'dialog' | 'safeStorage'>,
  message: string,
): 'again' | 'quit' {
  const userData = electron.app.getPath('userData');
  const shopServer = safeStorageShopServer(electron.safeStorage, userData);
  const { chosen, refused } = chosenServer(shopServer);
  if (chosen === null && !refused) {
    electron.dialog.showErrorBox('brick-work could not start', message);
    return 'quit';
  }
  const answer = electron.dialog.showMessageBoxSync({
    type: 'error',
    title: 'brick-work could not start',
    message:
      chosen === null
        ? 'brick-work could not read the shop server’s password from this computer’s keychain, so it did not open the shop’s store.'
        : `brick-work could not open the shop’s store on ${storeName(serverUrl(chosen))}.`,
    detail:
      chosen === null
        ? `${message}\n\nOr work on this computer’s own store file instead: the shop server is forgotten, and Settings → Shop server chooses it again.`
        : `${message}\n\nTry again once the server is back, or work on this computer’s own store file instead (Settings → Shop server chooses the server again).`,
    buttons: ['Try again', 'Use this computer’s file', 'Quit'],
    defaultId: 0,
    cancelId: 2,
  });
  if (answer === 0) return 'again';
  if (answer === 1) {
    shopServer.clear();
    return 'again';
  }
  return 'quit';
}

/** The shop server this desk chose, or whether the keychain kept it back (never read as "none chosen"). */
function chosenServer(port: ShopServerPort): { chosen: ShopServerConfig | null; refused: boolean } {
  try {
    return { chosen: port.get(), refused: false };
  } catch (e) {
    if (e instanceof BrickWorkError && e.code === 'keychain-refused') return { chosen: null, refused: true };
    throw e;
  }
}
