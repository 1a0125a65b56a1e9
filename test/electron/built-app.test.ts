import type { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import { builtinModules } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { driveBuiltApp } from '../helpers/drive-built-app.ts';
import type { StreamMessage } from '../../src/catalogue/read-stream.ts';
import { fromWire, type WireMessage } from '../../src/catalogue/reader-wire.ts';

const BUILT = path.join(REPO_ROOT, 'dist', 'electron');
const OUTPUTS = [
  'main.js',
  'preload.cjs',
  'runner-thread.js',
  'service-thread.js',
  'postgres-bridge-thread.js',
  'pictures-thread.js',
].map((f) => path.join(BUILT, f));

/** The newest change to what the Electron build is made from. */
function newestSource(): number {
  let newest = 0;
  const walk = (p: string) => {
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of ['src', 'electron', 'package.json', 'package-lock.json']) walk(path.join(REPO_ROOT, p));
  return newest;
}

/** `npm run build:electron` (vite, a few seconds) when dist/electron is missing or older than its sources. */
function ensureBuilt(): void {
  const oldest = Math.min(...OUTPUTS.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
  if (oldest > newestSource()) return;
  execFileSync('npm', ['run', '--silent', 'build:electron', '--', '--logLevel', 'error'], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  });
}

describe('the built app (dist/electron) end to end, with a stand-in electron module', () => {
  let report: any;
  let run: ReturnType<typeof spawnSync>;
  let userData: string;
  let dir: string | null = null;
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(() => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-built-app-'));
    userData = path.join(dir, 'userData');
    fs.mkdirSync(userData);
    ({ run, report } = driveBuiltApp(BUILT, { userData, appPath: dir }, { cwd: dir, timeoutMs: 50_000 }));
  }, 120_000);

  it('runs to the end and then ends by itself: nothing left open', () => {
    expect(report, `${String(run.stderr)}\n${String(run.stdout)}`).not.toBeNull();
    expect(run.status, String(run.stderr)).toBe(0);
  });

  it('opens the locked-down window on the built page and preload, and names the app', () => {
    expect(report.name).toBe('brick-work');
    expect(report.sandbox).toBe(true);
    expect(report.window.options.webPreferences).toMatchObject({
      preload: path.join(BUILT, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(report.window.loaded).toBe(path.join(REPO_ROOT, 'dist', 'renderer', 'index.html'));
    expect(report.shown).toBe(true);
    expect(report.permissionCheck).toBe(false);
    expect(Object.values(report.loads)).toEqual([true, false, false]);
  });

  it('a click on the Dock icon (activate) brings back the minimised window: restored, in front, no second window', () => {
    expect(report.activate).toEqual({ minimized: false, focused: true, windows: 1 });
  });

  it('the built preload needs nothing but electron, and exposes the contract as window.brickWork only', () => {
    expect(report.required).toEqual(['electron']);
    expect(report.exposed).toEqual(['brickWork']);
    expect(report.api).toEqual(['call', 'onEvent']);
  });

  it('answers the page through the preload and IPC, checks arguments, and sends events back', () => {
    expect(report.info).toMatchObject({ ok: true, value: { schema: '4.2' } });
    expect(report.set).toMatchObject({ ok: true, value: { currency: 'EUR' } });
    expect(report.settings).toMatchObject({ ok: true, value: { currency: 'EUR' } });
    expect(report.invalid).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(report.events).toContain('store.changed');
  });

  it('starts the job runner and service threads from the built folder, and the runner loads a catalogue', () => {
    expect(report.threads).toEqual(
      expect.arrayContaining([
        pathToFileURL(path.join(BUILT, 'runner-thread.js')).href,
        pathToFileURL(path.join(BUILT, 'service-thread.js')).href,
      ]),
    );
    expect(report.threads.every((t: string) => t.startsWith(pathToFileURL(BUILT).href))).toBe(true);
    expect(report.load).toMatchObject({ ok: true, value: { started: true } });
    expect(report.status.items).toBe(2);
  });

  it('⌘Q (before-quit, no window-all-closed) closes the store before the app quits', () => {
    expect(report.walBeforeQuit).toBe(true);
    expect(report.quits).toBe(1);
    expect(report.walAfterQuit).toBe(false);
    expect(fs.existsSync(path.join(userData, 'brick-work.sqlite'))).toBe(true);
  });

  it("a shop server's connection thread is built beside the app's other threads, where the bundle looks for it", () => {
    const thread = path.join(BUILT, 'postgres-bridge-thread.js');
    expect(fs.existsSync(thread)).toBe(true);
    expect(fs.readFileSync(thread, 'utf8')).toContain('Atomics.notify');
    // Threads are found by name (src/platform/worker-start.ts, `threadUrl`): `<name>.js` beside the entries, one
    // folder up from a chunk in assets/.
    const looking = [BUILT, path.join(BUILT, 'assets')].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter(
          (n) => n.endsWith('.js') && fs.readFileSync(path.join(dir, n), 'utf8').includes('"postgres-bridge-thread"'),
        )
        .map((n) => ({ dir, code: fs.readFileSync(path.join(dir, n), 'utf8') })),
    );
    expect(looking.length).toBe(1);
    const [{ dir, code }] = looking as [{ dir: string; code: string }];
    expect(code).toMatch(/\.includes\("\/assets\/"\) \? "\.\.\/" : "\.\/"\}\$\{name\}\.js`/);
    const relative = dir.endsWith('assets') ? '../postgres-bridge-thread.js' : './postgres-bridge-thread.js';
    expect(path.resolve(dir, relative)).toBe(thread);
  });

  it('the bundles load nothing from node_modules but better-sqlite3 (what the package ships: see packaging)', () => {
    const bare = new Set<string>();
    for (const dir of [BUILT, path.join(BUILT, 'assets')])
      for (const f of fs.readdirSync(dir).filter((n) => /\.(c?js)$/.test(n))) {
        const code = fs.readFileSync(path.join(dir, f), 'utf8');
        for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/g))
          if (!m[1]!.startsWith('node:') && !builtinModules.includes(m[1]!)) bare.add(m[1]!.split('/')[0]!);
      }
    // pg is bundled (issue 44); pg-native: its optional native client, required only when `pg.native` is
    // read (never). tsx: only in the string a checkout's thread evaluates for a `.ts` script
    // (src/platform/worker-start.ts); the built app's threads are `.js`, so the packaged app never loads it.
    expect([...bare].filter((b) => b !== 'pg-native').sort()).toEqual(['better-sqlite3', 'electron', 'tsx']);
    // (The main process and the runner thread both start threads: that code sits in a chunk they share.)
    const starts = [BUILT, path.join(BUILT, 'assets')].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.js'))
        .map((n) => fs.readFileSync(path.join(dir, n), 'utf8'))
        .filter((code) => code.includes('tsx/esm/api')),
    );
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatch(/endsWith\(["']\.ts["']\)\s*\?\s*new Worker\(\s*`import\('tsx\/esm\/api'\)/);
  });

  it('the catalogue reader thread, bundled beside the runner thread that starts it, reads a file on its own', async () => {
    const reader = new Worker(pathToFileURL(path.join(BUILT, 'catalogue-reader-thread.js')));
    try {
      const messages: (StreamMessage | null)[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        // Items cross as columns (reader-wire.ts): read back as the job's side reads them.
        reader.on('message', (m: { id: number; msg: WireMessage }) => {
          messages.push(fromWire(m.msg));
          if (m.msg.kind === 'end') resolve();
        });
        reader.on('error', reject);
      });
      const content = new TextEncoder().encode(
        'part_num,name,part_cat_id,part_material\n3001,Brick 2 x 4,11,Plastic\n',
      );
      reader.postMessage({ type: 'read', id: 1, file: { name: 'parts.csv', content }, itemType: 'P' });
      await ended;
      expect(messages.map((m) => m?.kind)).toEqual(['start', 'rows', 'end']);
      expect(messages[1]).toMatchObject({ records: [{ no: '3001', nameKey: 'brick 2 x 4' }] });
    } finally {
      await reader.terminate();
    }
  });
});
