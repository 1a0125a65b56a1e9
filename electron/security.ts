import type { App, BrowserWindow, Session, WebContents } from 'electron';
import type { AppPage } from './page.ts';

/** What every page the app makes runs with (SPEC §11): isolated, sandboxed, no Node in the page. */
export const LOCKED_PAGE: Electron.WebPreferences = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
};

/** The window's web preferences: a locked page, with the preload that gives it the contract. */
export function webPreferences(preload: string): Electron.WebPreferences {
  return { preload, ...LOCKED_PAGE };
}

/** No navigation away from the app's page, no new windows. */
export function lockDown(contents: WebContents, page: AppPage): void {
  contents.on('will-navigate', (event, url) => {
    if (!page.isPage(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * No remote content: only the app's own files load — those in the page's folder (dist/renderer), no other
 * file on the disk; no permission is granted to any page, whether it asks (request) or the page only
 * looks (check: e.g. `navigator.permissions.query`, clipboard reads).
 */
export function lockDownSession(session: Session, page: AppPage): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const own = page.isInFolder(details.url) || details.url.startsWith('devtools://');
    callback({ cancel: !own });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** Every web contents the app ever makes gets the same lock-down (defence in depth). */
export function lockDownApp(app: App, page: AppPage): void {
  app.on('web-contents-created', (_event, contents) => lockDown(contents, page));
}

export function showWhenReady(window: BrowserWindow): void {
  window.once('ready-to-show', () => window.show());
}
