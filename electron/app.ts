import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Electron from 'electron';
import type { ApiEvents, EventName, StepView } from '../src/api/contract.ts';
import { startCore, type Core } from '../src/app/core.ts';
import { useNativeBinding } from '../src/store/native.ts';
import { STORE_FILE_NAME } from '../src/store/paths.ts';
import { APP_NAME } from '../src/version.ts';
import { safeStorageCredentials } from './credentials.ts';
import { fileDialogs } from './dialogs.ts';
import { registerIpc, sendEvent } from './ipc.ts';
import { menuTemplate } from './menu.ts';
import { electronNativeBinding } from './native.ts';
import { lockDown, lockDownApp, lockDownSession, showWhenReady, webPreferences } from './security.ts';

/** The parts of Electron the app uses: the real module in the app, a stand-in in the unit tests. */
export type ElectronDeps = Pick<
  typeof Electron,
  'app' | 'BrowserWindow' | 'dialog' | 'ipcMain' | 'Menu' | 'safeStorage' | 'session'
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
  const { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session } = electron;
  const pageUrl = pathToFileURL(paths.rendererIndex).href;
  lockDownApp(app, pageUrl);
  lockDownSession(session.defaultSession);

  const window = new BrowserWindow({
    width: 1360,
    height: 880,
    show: false,
    title: APP_NAME,
    webPreferences: webPreferences(paths.preload),
  });
  lockDown(window.webContents, pageUrl);
  showWhenReady(window);

  let core: Core | null = null;
  const send = (command: ApiEvents['menu.command']['command']) => sendEvent(window, 'menu.command', { command });
  const refreshMenu = async () => {
    const state = core ? await core.service.call('history.state', {}) : null;
    const history = state?.ok
      ? (state.value as { undo: StepView | null; redo: StepView | null })
      : { undo: null, redo: null };
    const template = menuTemplate(process.platform, history, {
      undo: () => send('undo'),
      redo: () => send('redo'),
      importDocument: () => send('import'),
      search: () => send('search'),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  const emit = <E extends EventName>(name: E, payload: ApiEvents[E]) => {
    sendEvent(window, name, payload);
    if (name === 'store.changed') void refreshMenu();
  };

  const binding = electronNativeBinding(app.getAppPath());
  useNativeBinding(binding);
  const userData = app.getPath('userData');
  core = await startCore({
    storePath: path.join(userData, STORE_FILE_NAME),
    workerUrl: paths.workerUrl,
    serviceWorkerUrl: paths.serviceWorkerUrl,
    nativeBinding: binding,
    credentials: safeStorageCredentials(safeStorage, userData),
    files: fileDialogs(dialog, window),
    emit,
    log,
  });
  registerIpc(ipcMain, window, pageUrl, core.service, log);
  await refreshMenu();
  await window.loadFile(paths.rendererIndex);
  return { window, core };
}
