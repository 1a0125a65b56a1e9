import type { App, BrowserWindow, Session, WebContents } from 'electron';

/** The window's web preferences (SPEC §11): isolated, sandboxed, no Node in the page. */
export function webPreferences(preload: string): Electron.WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  };
}

/** No navigation away from the app's page, no new windows. */
export function lockDown(contents: WebContents, pageUrl: string): void {
  contents.on('will-navigate', (event, url) => {
    if (url !== pageUrl) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** No remote content: only the app's own files load; no permission is granted to any page. */
export function lockDownSession(session: Session): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const local = details.url.startsWith('file://') || details.url.startsWith('devtools://');
    callback({ cancel: !local });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}

/** Every web contents the app ever makes gets the same lock-down (defence in depth). */
export function lockDownApp(app: App, pageUrl: string): void {
  app.on('web-contents-created', (_event, contents) => lockDown(contents, pageUrl));
}

export function showWhenReady(window: BrowserWindow): void {
  window.once('ready-to-show', () => window.show());
}
