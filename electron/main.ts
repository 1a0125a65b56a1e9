/**
 * The Electron main process (SPEC §1, §11): see app.ts. This file only binds it to the real Electron
 * and to the built files beside it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as electron from 'electron';
import type { Core } from '../src/app/core.ts';
import { storeFileIn, toErrorValue } from '../src/app/store-place.ts';
import { afterFailedStart, askToQuitDuringWork, closeCoreOnQuit, configureApp, startApp } from './app.ts';
import { bringBackOnActivate, closingQuits, documentsFromOutside } from './desktop.ts';
import { sendEvent } from './ipc.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const { app, BrowserWindow } = electron;
/** The start under way or done (null before `ready`): what quitting waits for, to close the core it made. */
let starting: Promise<Core | null> | null = null;

configureApp(electron);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  const log = (line: string) => console.log(`brick-work: ${line}`);
  const shown = () => BrowserWindow.getAllWindows()[0] ?? null;
  // Finder, a file association, a second start: registered now, before `ready`, so none is missed.
  const opened = documentsFromOutside(app, process.argv, shown);
  const decided = closeCoreOnQuit(
    app,
    () => starting ?? Promise.resolve(null),
    log,
    askToQuitDuringWork(electron.dialog, shown),
  );
  const paths = {
    rendererIndex: path.join(here, '..', 'renderer', 'index.html'),
    preload: path.join(here, 'preload.cjs'),
    workerUrl: new URL('./runner-thread.js', import.meta.url),
    serviceWorkerUrl: new URL('./service-thread.js', import.meta.url),
  };
  // The window of the start that succeeded: what a click on the Dock icon brings back.
  let started: electron.BrowserWindow | null = null;
  bringBackOnActivate(app, () => started);
  const start = (): Promise<Core | null> =>
    startApp(electron, paths, log).then(
      ({ core, window }) => {
        started = window;
        closingQuits(window, app, decided);
        opened.ready((document) => sendEvent(window, 'document.opened', document));
        return core;
      },
      (e: unknown) => {
        const message = toErrorValue(e, storeFileIn(app.getPath('userData'))).message;
        // The failed start's window was never shown; it goes with the app (closing it would quit).
        if (afterFailedStart(electron, message) === 'again') return (starting = start());
        app.quit();
        return null;
      },
    );
  void app.whenReady().then(() => {
    starting = start();
  });
  // Closing the window quits (on macOS too: the app is its one window, closingQuits); quitting closes the core.
  app.on('window-all-closed', () => app.quit());
}
