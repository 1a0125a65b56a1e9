import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import type { ApiEvents, EventName } from '../src/api/contract.ts';
import { CALL_CHANNEL, EVENT_CHANNEL } from './channels.ts';
import type { AppPage } from './page.ts';

export interface CallService {
  call(name: unknown, args: unknown): Promise<unknown>;
}

/**
 * Whether a message comes from the app's own window: its main frame, showing the app's own page (the
 * file its URL names, not the URL's spelling: see `AppPage`). Anything else — another window, an iframe,
 * a page that got navigated — is not answered (Electron Fiddle's rule).
 */
export function isOwnFrame(event: IpcMainInvokeEvent, window: BrowserWindow, page: AppPage): boolean {
  if (window.isDestroyed() || event.sender !== window.webContents) return false;
  const frame = event.senderFrame;
  return frame !== null && frame === window.webContents.mainFrame && page.isPage(frame.url);
}

/**
 * The IPC adapter of the contract: every call goes to the service (which checks the arguments before
 * anything uses them); only the app's own window is answered.
 */
export function registerIpc(
  ipcMain: IpcMain,
  window: BrowserWindow,
  page: AppPage,
  service: CallService,
  log: (line: string) => void,
): () => void {
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, args: unknown) => {
    if (!isOwnFrame(event, window, page)) {
      log(`ignored a call from a frame that is not the app's (${event.senderFrame?.url ?? 'unknown'})`);
      return new Promise<never>(() => {}); // no answer
    }
    return service.call(name, args);
  });
  return () => ipcMain.removeHandler(CALL_CHANNEL);
}

/** Sends an event to the app's window (if it is still there). */
export function sendEvent<E extends EventName>(window: BrowserWindow, name: E, payload: ApiEvents[E]): void {
  if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, name, payload);
}
