/**
 * The app's own printing (SPEC §16): a page the core made (the pick list on paper) printed through the
 * system's print dialog from a window of its own — never from the screens' page, whose `print()` in a
 * sandboxed window under our CSP is unreliable. That window is hidden, sandboxed, runs no script, has a
 * session of its own in memory through which nothing loads but the page printed (its pictures are data:),
 * and is gone once the dialog is done. The page is written to a private temporary file first: Chromium
 * refuses a data: URL over 2 MB, which a list with pictures can pass.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserWindow, WebContentsPrintOptions, WebPreferences } from 'electron';
import type { PrintPaper, PrintPort } from '../src/api/ports.ts';
import { BrickWorkError } from '../src/vocabulary/errors.ts';
import type { ElectronDeps } from './app.ts';
import { appPage, type AppPage } from './page.ts';
import { LOCKED_PAGE } from './security.ts';

/** The print windows' session: not `persist:`, so in memory only, and shared with no page of the app's. */
export const PRINT_PARTITION = 'brick-work-print';

/** A print window's web preferences: a locked page (no preload), running no script, in its own session. */
export function printWebPreferences(): WebPreferences {
  return { ...LOCKED_PAGE, partition: PRINT_PARTITION, javascript: false, images: true };
}

/** What the print dialog opens with: the paper and orientation chosen on the screen, backgrounds printed. */
export function printOptions(layout: PrintPaper): WebContentsPrintOptions {
  return {
    silent: false,
    printBackground: true,
    landscape: layout.orientation === 'landscape',
    pageSize: layout.paper === 'a4' ? 'A4' : 'Letter',
  };
}

/** The app's printing: each page in a hidden window of its own, printed, then closed. */
export function appPrinter(electron: Pick<ElectronDeps, 'BrowserWindow' | 'session'>): PrintPort {
  // The pages being printed now: the only files the print session loads.
  const printing = new Set<AppPage>();
  let locked = false;
  const lockSession = () => {
    if (locked) return;
    locked = true;
    const session = electron.session.fromPartition(PRINT_PARTITION);
    session.webRequest.onBeforeRequest((details, callback) => {
      const own = details.url.startsWith('data:') || [...printing].some((p) => p.isPage(details.url));
      callback({ cancel: !own });
    });
    session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.setPermissionCheckHandler(() => false);
  };
  return {
    async print(html, layout) {
      lockSession();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-print-'));
      const file = path.join(dir, 'printed.html');
      const page = appPage(file);
      let window: BrowserWindow | null = null;
      try {
        fs.writeFileSync(file, html, { mode: 0o600 });
        printing.add(page);
        window = new electron.BrowserWindow({
          show: false,
          width: 900,
          height: 1200,
          webPreferences: printWebPreferences(),
        });
        try {
          await window.loadFile(file);
        } catch (e) {
          throw new BrickWorkError(
            'print-failed',
            `The page to print could not be made ready (${(e as Error).message}).`,
          );
        }
        const contents = window.webContents;
        return await new Promise<'printed' | 'cancelled'>((resolve, reject) =>
          contents.print(printOptions(layout), (success, failureReason) => {
            if (success) resolve('printed');
            else if (/cancel/i.test(failureReason)) resolve('cancelled');
            else reject(new BrickWorkError('print-failed', `Nothing was printed: the system said “${failureReason}”.`));
          }),
        );
      } finally {
        if (window !== null && !window.isDestroyed()) window.destroy();
        printing.delete(page);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
