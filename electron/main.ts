/**
 * The Electron main process (SPEC §1, §11): see app.ts. This file only binds it to the real Electron
 * and to the built files beside it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as electron from 'electron';
import type { Core } from '../src/app/core.ts';
import { toErrorValue } from '../src/errors.ts';
import { STORE_FILE_NAME } from '../src/store/paths.ts';
import { configureApp, startApp } from './app.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const { app, BrowserWindow, dialog } = electron;
let core: Core | null = null;

configureApp(electron);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus());
  app
    .whenReady()
    .then(async () => {
      ({ core } = await startApp(
        electron,
        {
          rendererIndex: path.join(here, '..', 'renderer', 'index.html'),
          preload: path.join(here, 'preload.cjs'),
          workerUrl: new URL('./runner-thread.js', import.meta.url),
          serviceWorkerUrl: new URL('./service-thread.js', import.meta.url),
        },
        (line) => console.log(`brick-work: ${line}`),
      ));
    })
    .catch((e: unknown) => {
      dialog.showErrorBox(
        'brick-work could not start',
        toErrorValue(e, path.join(app.getPath('userData'), STORE_FILE_NAME)).message,
      );
      app.quit();
    });
  app.on('window-all-closed', () => {
    void (core?.close() ?? Promise.resolve()).then(() => app.quit());
  });
}
