// A stand-in for the `electron` module, for running the *built* main process (dist/electron/main.js) under
// plain Node: the parts of Electron's API the app uses, recording what the app does with them, and the
// renderer's side (`rendererElectron`: contextBridge and ipcRenderer) for the built preload. IPC carries
// structured clones, as Electron's does. STAND_IN (JSON: userData, appPath, packaged) says where the app's
// folders are, and whether it runs as a packaged app.
import { EventEmitter } from 'node:events';

const where = JSON.parse(process.env.STAND_IN ?? '{}');

/** What the app did, for the test to look at. */
export const record = {
  name: null,
  sandbox: false,
  windows: [],
  menus: [],
  errorBoxes: [],
  quits: 0,
  permissionCheck: null,
};

/** The URL Chromium shows for a file `loadFile` opened (a `%` kept as it is, a space as %20). */
function chromiumFileUrl(file) {
  const pathname = file.replace(/#/g, '%23').replace(/\?/g, '%3F');
  return `file://${pathname.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c))}`;
}

class App extends EventEmitter {
  isPackaged = where.packaged === true;
  #resolveReady = null;
  #readyPromise = new Promise((resolve) => (this.#resolveReady = resolve));
  setName(name) {
    record.name = name;
  }
  enableSandbox() {
    record.sandbox = true;
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return this.#readyPromise;
  }
  /** Electron's `ready`: the test says when. */
  becomeReady() {
    this.#resolveReady();
    this.emit('ready');
  }
  getPath(name) {
    if (name === 'userData') return where.userData;
    throw new Error(`the stand-in has no path "${name}"`);
  }
  getAppPath() {
    return where.appPath;
  }
  /** As Electron's: `before-quit` first, which may hold the quit (preventDefault); then `will-quit`, `quit`. */
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    record.quits += 1;
    this.emit('will-quit', { preventDefault() {} });
    this.emit('quit');
  }
}
export const app = new App();

const handlers = new Map();
export const ipcMain = {
  handle(channel, fn) {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    handlers.set(channel, fn);
  },
  removeHandler(channel) {
    handlers.delete(channel);
  },
};

const rendererListeners = new Map();
const windows = [];
export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.destroyed = false;
    this.shown = false;
    const mainFrame = { url: '' };
    const contents = new EventEmitter();
    Object.assign(contents, {
      mainFrame,
      setWindowOpenHandler: (fn) => (contents.windowOpenHandler = fn),
      send: (channel, ...args) => {
        for (const fn of rendererListeners.get(channel) ?? []) fn({ sender: null }, ...structuredClone(args));
      },
    });
    this.webContents = contents;
    windows.push(this);
    record.windows.push({ options, loaded: null });
    app.emit('web-contents-created', {}, contents);
  }
  async loadFile(file) {
    this.webContents.mainFrame.url = chromiumFileUrl(file);
    record.windows[windows.indexOf(this)].loaded = file;
    this.emit('ready-to-show');
  }
  show() {
    this.shown = true;
  }
  focus() {
    this.focused = true;
  }
  isVisible() {
    return this.shown;
  }
  /** Minimised to the Dock (the test says when), as Electron's window keeps it until restored. */
  minimize() {
    this.minimized = true;
    this.focused = false;
  }
  isMinimized() {
    return this.minimized === true;
  }
  isMaximized() {
    return false;
  }
  restore() {
    this.minimized = false;
  }
  maximize() {}
  setBackgroundColor(colour) {
    this.backgroundColor = colour;
  }
  getNormalBounds() {
    return { x: this.options.x ?? 0, y: this.options.y ?? 0, width: this.options.width, height: this.options.height };
  }
  isDestroyed() {
    return this.destroyed;
  }
  static getAllWindows() {
    return windows;
  }
}

/** The system's appearance: light, as this machine has no other (electron/appearance.ts follows it). */
export const nativeTheme = Object.assign(new EventEmitter(), { shouldUseDarkColors: false });

export const dialog = {
  showErrorBox: (title, message) => record.errorBoxes.push({ title, message }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
  showMessageBoxSync: () => 0,
};

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1440, height: 900 } }],
};

export const Menu = {
  buildFromTemplate: (template) => template,
  setApplicationMenu: (menu) => record.menus.push(menu),
};

export const safeStorage = {
  isEncryptionAvailable: () => false,
  encryptString: (s) => Buffer.from(s),
  decryptString: (b) => b.toString(),
};

const webRequest = { beforeRequest: null, onBeforeRequest: (fn) => (webRequest.beforeRequest = fn) };
export const session = {
  defaultSession: {
    webRequest,
    setPermissionRequestHandler: (fn) => (record.permissionRequest = fn),
    setPermissionCheckHandler: (fn) => (record.permissionCheck = fn),
  },
};

/** Whether the session would load a URL (the app's onBeforeRequest). */
export function wouldLoad(url) {
  let answer = null;
  webRequest.beforeRequest?.({ url }, (r) => (answer = r));
  return answer !== null && !answer.cancel;
}

/** What a sandboxed preload may require: `electron`'s renderer side, here wired to ipcMain above. */
export const rendererWorld = {};
export const rendererElectron = {
  contextBridge: {
    exposeInMainWorld: (key, api) => (rendererWorld[key] = api),
  },
  ipcRenderer: {
    async invoke(channel, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      const window = windows[0];
      const event = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
      return structuredClone(await handler(event, ...structuredClone(args)));
    },
    on(channel, fn) {
      rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), fn]);
    },
    removeListener(channel, fn) {
      rendererListeners.set(
        channel,
        (rendererListeners.get(channel) ?? []).filter((f) => f !== fn),
      );
    },
  },
};

export default { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, safeStorage, screen, session };
