/**
 * The desktop's ways with one window (issue 44, macOS conventions, which Windows and Linux share where
 * they have them): a second start, or a click on the Dock icon, brings the window back (restored if
 * minimised); documents arrive from Finder or a file association; closing the window is quitting, which
 * asks first while work is under way.
 */
import type { App, BrowserWindow } from 'electron';
import { documentsInArgv, DocumentOpener } from './opened-documents.ts';

/** The window, back in front of staff: restored if minimised, shown if hidden, focused. */
export function bringBack(window: BrowserWindow | null | undefined): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}

/**
 * macOS's `activate` (the Dock icon clicked, the app chosen in Spotlight or the app switcher): the window
 * comes back, restored if it was minimised, shown if hidden. Only the window of a finished start: one
 * still starting shows itself when its page is ready, and a failed start's is never shown. There is no
 * window to open anew: closing it quits the app (`closingQuits`), so a running app always has it — and
 * while the quit is under way it is destroyed or about to be, and left alone.
 */
export function bringBackOnActivate(app: Pick<App, 'on'>, window: () => BrowserWindow | null | undefined): void {
  app.on('activate', () => bringBack(window()));
}

/**
 * Where documents come from outside: the first start's command line, Finder's `open-file` (registered
 * before `ready`, as Finder may start the app for a document), and a second start's command line. Each
 * brings the window back; the opener holds them until the window can take them.
 */
export function documentsFromOutside(
  app: Pick<App, 'on'>,
  argv: readonly string[],
  window: () => BrowserWindow | null | undefined,
): DocumentOpener {
  const opener = new DocumentOpener();
  for (const file of documentsInArgv(argv)) opener.open(file);
  app.on('open-file', (event, file) => {
    event.preventDefault(); // ours to open
    opener.open(file);
    bringBack(window());
  });
  app.on('second-instance', (_event, secondArgv) => {
    bringBack(window());
    for (const file of documentsInArgv(secondArgv)) opener.open(file);
  });
  return opener;
}

/**
 * Closing the window quits the app (it is its one window, on macOS too), through the quit's own question
 * (`closeCoreOnQuit`): "Don't Quit" keeps the window open, where a closed one would leave an app with
 * no window. Once the quit is decided, the window closes as Electron closes it.
 */
export function closingQuits(window: BrowserWindow, app: Pick<App, 'quit'>, decided: () => boolean): void {
  window.on('close', (event) => {
    if (decided()) return;
    event.preventDefault();
    app.quit();
  });
}
