import { vi } from 'vitest';
import type { ElectronDeps } from '../../electron/app.ts';

type Handler = (...args: any[]) => any;

/** A stand-in for the parts of Electron the app uses, recording what the app does with them. */
export function fakeElectron(options: {
  userData: string;
  appPath: string;
  pick?: string | null;
  saveTo?: string | null;
}) {
  const handlers = new Map<string, Handler>();
  const contentsEvents = new Map<string, Handler>();
  let windowOpen: Handler | null = null;
  let beforeRequest: Handler | null = null;
  let permission: Handler | null = null;
  const sent: [string, ...unknown[]][] = [];
  const menus: any[] = [];
  const mainFrame = { url: '' };
  const webContents = {
    mainFrame,
    on: (event: string, fn: Handler) => contentsEvents.set(event, fn),
    setWindowOpenHandler: (fn: Handler) => (windowOpen = fn),
    send: (channel: string, ...args: unknown[]) => sent.push([channel, ...args]),
  };
  const windows: any[] = [];
  class BrowserWindow {
    readonly webContents = webContents;
    constructor(readonly options: any) {
      windows.push(this);
    }
    loadFile = vi.fn(async (file: string) => {
      mainFrame.url = `file://${file}`;
    });
    once = vi.fn();
    show = vi.fn();
    isDestroyed = () => false;
    static getAllWindows = () => windows;
  }
  const app = {
    setName: vi.fn(),
    enableSandbox: vi.fn(),
    on: vi.fn(),
    getPath: (name: string) => (name === 'userData' ? options.userData : ''),
    getAppPath: () => options.appPath,
  };
  const electron = {
    app,
    BrowserWindow,
    dialog: {
      showOpenDialog: vi.fn(async () => ({
        canceled: options.pick == null,
        filePaths: options.pick ? [options.pick] : [],
      })),
      showSaveDialog: vi.fn(async () => ({ canceled: options.saveTo == null, filePath: options.saveTo ?? undefined })),
    },
    ipcMain: {
      handle: (channel: string, fn: Handler) => handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => menus.push(m) },
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) =>
        Buffer.from(`ENCRYPTED:${Buffer.from(s).toString('base64').split('').reverse().join('')}`),
      decryptString: (b: Buffer) =>
        Buffer.from(
          b
            .toString()
            .replace(/^ENCRYPTED:/, '')
            .split('')
            .reverse()
            .join(''),
          'base64',
        ).toString(),
    },
    session: {
      defaultSession: {
        webRequest: { onBeforeRequest: (fn: Handler) => (beforeRequest = fn) },
        setPermissionRequestHandler: (fn: Handler) => (permission = fn),
      },
    },
  };
  return {
    electron: electron as unknown as ElectronDeps,
    app,
    handlers,
    contentsEvents,
    webContents,
    windows,
    sent,
    menus,
    windowOpen: () => windowOpen,
    beforeRequest: () => beforeRequest,
    permission: () => permission,
  };
}
