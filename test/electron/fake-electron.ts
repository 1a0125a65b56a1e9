import fs from 'node:fs';
import { vi } from 'vitest';
import type { ElectronDeps } from '../../electron/app.ts';

type Handler = (...args: any[]) => any;

/**
 * The URL Chromium shows for a file Electron's `loadFile` opened: `url.format` of the path, then
 * canonicalised — a space and what is not ASCII percent-encoded, but a `%` kept as it is (where Node's
 * `pathToFileURL` writes `%25`).
 */
export function chromiumFileUrl(file: string): string {
  const pathname = file.split('\\').join('/').replace(/#/g, '%23').replace(/\?/g, '%3F');
  return `file://${pathname.startsWith('/') ? '' : '/'}${pathname.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c))}`;
}

/** A stand-in for the parts of Electron the app uses, recording what the app does with them. */
export function fakeElectron(options: {
  userData: string;
  appPath: string;
  pick?: string | null;
  saveTo?: string | null;
  packaged?: boolean;
  /** The button a message box answers with (its index). */
  messageBoxAnswer?: number;
  /** The screens attached (their work areas); one 1440×900 screen by default. */
  workAreas?: { x: number; y: number; width: number; height: number }[];
  /** The system's appearance at the start: dark or (by default) light. */
  dark?: boolean;
}) {
  /** How the print dialog ends (webContents.print's callback): set before a print to have it cancelled or fail. */
  const printDialog = {
    success: true,
    failureReason: '',
    /** Looks at the window while its dialog is open. */
    during: null as ((window: any) => void) | null,
  };
  /** The keychain: set `refuses` to have it deny every read and write, as macOS's does on Deny or when locked. */
  const keychain = { refuses: false };
  const refuse = () => {
    if (keychain.refuses)
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
  };
  const handlers = new Map<string, Handler>();
  const contentsEvents = new Map<string, Handler>();
  let windowOpen: Handler | null = null;
  let beforeRequest: Handler | null = null;
  let permission: Handler | null = null;
  let permissionCheck: Handler | null = null;
  const appEvents = new Map<string, Handler[]>();
  /** The sessions of partitions (the print windows'), with what was set on them. */
  const partitions = new Map<string, any>();
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
  /** What each print window printed: the page's file as it was then, and the options given. */
  const printed: { html: string; file: string; options: any }[] = [];
  /** A window other than the app's (the print windows) has web contents of its own. */
  const ownContents = (window: { loaded: string | null }) => ({
    mainFrame: { url: '' },
    on: vi.fn(),
    setWindowOpenHandler: vi.fn(),
    send: vi.fn(),
    print: vi.fn((printOptions: any, callback: (success: boolean, failureReason: string) => void) => {
      const file = window.loaded ?? '';
      printed.push({ html: fs.readFileSync(file, 'utf8'), file, options: printOptions });
      printDialog.during?.(window);
      callback(printDialog.success, printDialog.failureReason);
    }),
  });
  class BrowserWindow {
    /** The file it loaded. */
    loaded: string | null = null;
    /** The app's window (the one with the preload) has the web contents the tests look at; any other, its own. */
    readonly webContents: any;
    /** Its handlers by event, and its state as a window manager would keep it. */
    readonly events = new Map<string, Handler[]>();
    bounds: { x: number; y: number; width: number; height: number };
    minimized = false;
    maximized = false;
    visible = false;
    constructor(readonly options: any) {
      windows.push(this);
      this.webContents = options.webPreferences?.preload === undefined ? ownContents(this) : webContents;
      this.bounds = { x: options.x ?? 40, y: options.y ?? 30, width: options.width, height: options.height };
    }
    loadFile = vi.fn(async (file: string) => {
      this.loaded = file;
      this.webContents.mainFrame.url = chromiumFileUrl(file);
    });
    on = vi.fn((event: string, fn: Handler) => {
      this.events.set(event, [...(this.events.get(event) ?? []), fn]);
      return this;
    });
    once = vi.fn((event: string, fn: Handler) => this.on(event, fn));
    /** Fires an event as the window would; answers whether a handler prevented its default. */
    emit(event: string): boolean {
      let prevented = false;
      for (const fn of this.events.get(event) ?? []) fn({ preventDefault: () => (prevented = true) });
      return prevented;
    }
    setBackgroundColor = vi.fn();
    show = vi.fn(() => (this.visible = true));
    focus = vi.fn();
    restore = vi.fn(() => (this.minimized = false));
    maximize = vi.fn(() => (this.maximized = true));
    isMinimized = () => this.minimized;
    isMaximized = () => this.maximized;
    isVisible = () => this.visible;
    getNormalBounds = () => this.bounds;
    destroyed = false;
    isDestroyed = () => this.destroyed;
    destroy = vi.fn(() => (this.destroyed = true));
    static getAllWindows = () => windows;
  }
  const app = {
    setName: vi.fn(),
    enableSandbox: vi.fn(),
    on: vi.fn((event: string, fn: Handler) => appEvents.set(event, [...(appEvents.get(event) ?? []), fn])),
    /** Quits as Electron does: `before-quit` first, which may hold it (preventDefault). */
    quit: vi.fn(() => {
      let prevented = false;
      for (const fn of appEvents.get('before-quit') ?? []) fn({ preventDefault: () => (prevented = true) });
      if (!prevented) app.quitted = true;
    }),
    quitted: false,
    isPackaged: options.packaged ?? false,
    getPath: (name: string) => (name === 'userData' ? options.userData : ''),
    getAppPath: () => options.appPath,
  };
  /** The system's appearance; `switchTo` changes it as staff do in System Settings (nativeTheme's `updated`). */
  const nativeTheme = {
    shouldUseDarkColors: options.dark ?? false,
    listeners: [] as Handler[],
    on: vi.fn((event: string, fn: Handler) => {
      if (event === 'updated') nativeTheme.listeners.push(fn);
      return nativeTheme;
    }),
    removeListener: vi.fn((event: string, fn: Handler) => {
      if (event === 'updated') nativeTheme.listeners = nativeTheme.listeners.filter((l) => l !== fn);
      return nativeTheme;
    }),
    switchTo(dark: boolean) {
      nativeTheme.shouldUseDarkColors = dark;
      for (const fn of nativeTheme.listeners) fn();
    },
  };
  const electron = {
    app,
    BrowserWindow,
    nativeTheme,
    dialog: {
      showOpenDialog: vi.fn(async () => ({
        canceled: options.pick == null,
        filePaths: options.pick ? [options.pick] : [],
      })),
      showSaveDialog: vi.fn(async () => ({ canceled: options.saveTo == null, filePath: options.saveTo ?? undefined })),
      showErrorBox: vi.fn(),
      showMessageBoxSync: vi.fn(() => options.messageBoxAnswer ?? 0),
    },
    ipcMain: {
      handle: (channel: string, fn: Handler) => handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => menus.push(m) },
    screen: {
      getAllDisplays: () =>
        (options.workAreas ?? [{ x: 0, y: 0, width: 1440, height: 900 }]).map((workArea) => ({ workArea })),
    },
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) =>
        refuse() ?? Buffer.from(`ENCRYPTED:${Buffer.from(s).toString('base64').split('').reverse().join('')}`),
      decryptString: (b: Buffer) =>
        refuse() ??
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
      fromPartition: (name: string) => {
        const made = partitions.get(name) ?? {
          beforeRequest: null as Handler | null,
          permission: null as Handler | null,
          permissionCheck: null as Handler | null,
          webRequest: { onBeforeRequest: (fn: Handler) => (made.beforeRequest = fn) },
          setPermissionRequestHandler: (fn: Handler) => (made.permission = fn),
          setPermissionCheckHandler: (fn: Handler) => (made.permissionCheck = fn),
        };
        partitions.set(name, made);
        return made;
      },
      defaultSession: {
        webRequest: { onBeforeRequest: (fn: Handler) => (beforeRequest = fn) },
        setPermissionRequestHandler: (fn: Handler) => (permission = fn),
        setPermissionCheckHandler: (fn: Handler) => (permissionCheck = fn),
      },
    },
  };
  return {
    electron: electron as unknown as ElectronDeps,
    keychain,
    app,
    nativeTheme,
    handlers,
    contentsEvents,
    webContents,
    windows,
    printed,
    printDialog,
    partitions,
    sent,
    menus,
    windowOpen: () => windowOpen,
    beforeRequest: () => beforeRequest,
    permission: () => permission,
    permissionCheck: () => permissionCheck,
  };
}
