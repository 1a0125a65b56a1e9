// Drives the built main process (dist/electron/main.js) under plain Node with the stand-in `electron`
// (register.mjs), as Electron would: ready, the window, the built preload in a sandbox-like vm (it may
// require `electron` and nothing else), calls from the page through the preload and IPC to the core, a
// catalogue load the job runner thread does, then ⌘Q. Prints one line `REPORT {json}` and leaves the
// process to end by itself (an open store or thread would keep it running: then it exits 3 after 10 s).
//
//   node --import ./register.mjs drive.mjs <dist/electron folder>
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { syncBuiltinESMExports } from 'node:module';
import vm from 'node:vm';
import workerThreads from 'node:worker_threads';

const built = path.resolve(process.argv[2]);
const report = { threads: [], required: [], steps: [] };

// Which scripts the app starts threads from.
const RealWorker = workerThreads.Worker;
workerThreads.Worker = class extends RealWorker {
  constructor(script, options) {
    report.threads.push(script instanceof URL ? script.href : String(script));
    super(script, options);
  }
};
syncBuiltinESMExports();

const until = async (what, test, ms = 20_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const standIn = await import('electron');
await import(pathToFileURL(path.join(built, 'main.js')).href);
// macOS may send `activate` as the app launches, before any window: nothing to bring back yet.
standIn.app.emit('activate', {}, false);
standIn.app.becomeReady();
await until('the window to load its page', () => standIn.record.windows[0]?.loaded);
if (standIn.record.errorBoxes.length > 0) throw new Error(JSON.stringify(standIn.record.errorBoxes));

// The built preload, as a sandboxed renderer runs it: CommonJS, only `electron` requirable, no Node globals.
const preloadFile = standIn.record.windows[0].options.webPreferences.preload;
const context = vm.createContext({ console });
const wrapped = vm.runInContext(
  `(function (exports, require, module) {${fs.readFileSync(preloadFile, 'utf8')}\n})`,
  context,
  { filename: preloadFile },
);
const module = { exports: {} };
wrapped(
  module.exports,
  (id) => {
    report.required.push(id);
    if (id === 'electron') return standIn.rendererElectron;
    throw new Error(`a sandboxed preload can't require "${id}"`);
  },
  module,
);
const brickWork = standIn.rendererWorld.brickWork;
report.exposed = Object.keys(standIn.rendererWorld);
report.api = Object.keys(brickWork).sort();

// Calls through the preload and IPC to the core, and its events back.
const events = [];
brickWork.onEvent((name) => events.push(name));
report.info = await brickWork.call('store.info', {});
report.set = await brickWork.call('settings.set', { key: 'currency', value: 'eur' });
report.settings = await brickWork.call('settings.get', {});
report.invalid = await brickWork.call('orders.get', { orderId: 'one' });
const csv = new TextEncoder().encode('part_num,name,part_cat_id\n3001,Brick 2 x 4,11\n3003,Brick 2 x 2,11\n');
report.load = await brickWork.call('catalogue.load', { files: [{ name: 'parts.csv', content: csv }] });
report.status = await until('the job runner thread to load the catalogue', async () => {
  const s = await brickWork.call('catalogue.status', {});
  return s.ok && s.value.items === 2 ? s.value : null;
});
report.events = [...new Set(events)];
report.window = standIn.record.windows[0];
report.name = standIn.record.name;
report.sandbox = standIn.record.sandbox;
report.shown = standIn.BrowserWindow.getAllWindows()[0].shown;
report.permissionCheck = standIn.record.permissionCheck?.({}, 'clipboard-read', 'file:///', {}) ?? null;
report.loads = Object.fromEntries(
  [
    pathToFileURL(path.join(built, '..', 'renderer', 'index.html')).href,
    'file:///etc/passwd',
    'https://example.com/x.js',
  ].map((u) => [u, standIn.wouldLoad(u)]),
);

// Minimised to the Dock, then the Dock icon clicked (macOS's activate): the window comes back.
const shownWindow = standIn.BrowserWindow.getAllWindows()[0];
shownWindow.minimize();
standIn.app.emit('activate', {}, false);
report.activate = {
  minimized: shownWindow.isMinimized(),
  focused: shownWindow.focused === true,
  windows: standIn.record.windows.length,
};

// ⌘Q: before-quit, no window-all-closed.
const wal = path.join(standIn.app.getPath('userData'), 'brick-work.sqlite-wal');
report.walBeforeQuit = fs.existsSync(wal);
standIn.app.quit();
await until('the app to quit', () => standIn.record.quits > 0);
report.quits = standIn.record.quits;
report.walAfterQuit = fs.existsSync(wal);
console.log(`REPORT ${JSON.stringify(report)}`);
setTimeout(() => {
  console.error('still running 10 s after quitting: the store or a thread was left open');
  process.exit(3);
}, 10_000).unref();
