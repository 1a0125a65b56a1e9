/**
 * Issue 44, point 2: `npm run dist` makes a package that starts. The real build (`dist/`: the renderer and
 * the Electron bundle, made as `npm run build` makes them) is packaged by electron-builder (`--linux dir`,
 * offline, a stand-in Electron), its asar unpacked into a folder outside the checkout — where no
 * node_modules of the checkout can be reached — and the packaged main process is driven from there with a
 * stand-in `electron` module: ready, the window, calls through the preload, a catalogue load on the
 * packaged runner thread, ⌘Q. A module the bundle leaves outside and the package does not ship fails it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScreens } from '../helpers/browser.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { driveBuiltApp } from '../helpers/drive-built-app.ts';
import { linuxAppDir, machineArch, packageForLinux, standInElectronDist } from '../helpers/electron-builder.ts';

const require = createRequire(import.meta.url);
const ARCH = machineArch();
const asar = require('@electron/asar') as { extractAll(archive: string, dest: string): void };

describe('the package electron-builder makes of the real build starts and works', () => {
  let dir: string;
  let packaging: ReturnType<typeof spawnSync>;
  let drive: ReturnType<typeof spawnSync>;
  let installed: string;
  let report: any = null;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-packaged-app-'));
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(project, 'package.json'));
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    // The real build, as `npm run build` makes it, into the project's dist/.
    buildScreens(path.join(project, 'dist', 'renderer'));
    // As `npm run build:electron`: the main process and its threads, then the preload beside them.
    for (const mode of [[], ['--mode', 'preload']])
      execFileSync(
        'npx',
        [
          'vite',
          'build',
          '--config',
          'electron/vite.config.ts',
          ...mode,
          '--outDir',
          path.join(project, 'dist', 'electron'),
          '--logLevel',
          'error',
        ],
        { cwd: REPO_ROOT, stdio: 'pipe' },
      );
    // The SQLite binary the packaged app loads, as scripts/native-electron.mjs leaves it: here built for
    // the Node that stands in for Electron (its ABI), so the packaged app can open its store.
    const abi = process.versions.modules;
    const native = path.join(project, 'native', `electron-v${abi}-${process.platform}-${ARCH}`);
    fs.mkdirSync(native, { recursive: true });
    fs.copyFileSync(
      path.join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
      path.join(native, 'better_sqlite3.node'),
    );
    fs.writeFileSync(path.join(native, 'built-from.json'), JSON.stringify({ abi }));

    const out = path.join(dir, 'out');
    // Packaged for this machine's arch, which the binary above is built for (arm64 on Apple silicon).
    packaging = packageForLinux(project, { electronDist: standInElectronDist(dir), out, archs: [ARCH] });
    if (packaging.status !== 0) return;

    // As Electron reads it: the asar's files, and the unpacked ones beside them.
    const resources = path.join(linuxAppDir(out, ARCH), 'resources');
    installed = path.join(dir, 'installed');
    asar.extractAll(path.join(resources, 'app.asar'), installed);
    fs.cpSync(path.join(resources, 'app.asar.unpacked'), installed, { recursive: true });

    const userData = path.join(dir, 'userData');
    fs.mkdirSync(userData);
    ({ run: drive, report } = driveBuiltApp(
      path.join(installed, 'dist', 'electron'),
      { userData, appPath: installed, packaged: true },
      { cwd: dir, timeoutMs: 60_000 },
    ));
  }, 300_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('packages the real build offline, and nothing of the checkout is reachable from where it is unpacked', () => {
    expect(packaging.status, `${String(packaging.stdout)}\n${String(packaging.stderr)}`).toBe(0);
    expect(fs.existsSync(path.join(installed, 'dist', 'electron', 'main.js'))).toBe(true);
    expect(fs.existsSync(path.join(installed, 'dist', 'renderer', 'index.html'))).toBe(true);
    // The only packages it carries, and no node_modules above it.
    expect(fs.readdirSync(path.join(installed, 'node_modules'))).toEqual(['better-sqlite3']);
    for (let up = path.dirname(installed); up !== path.dirname(up); up = path.dirname(up))
      expect(fs.existsSync(path.join(up, 'node_modules')), up).toBe(false);
  });

  it('starts from the packaged files: the window, calls through the preload, the threads, a catalogue load, ⌘Q', () => {
    expect(report, `${String(drive?.stderr)}\n${String(drive?.stdout)}`).not.toBeNull();
    expect(drive.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
    expect(drive.status, String(drive.stderr)).toBe(0);
    const built = path.join(installed, 'dist', 'electron');
    expect(report.window.loaded).toBe(path.join(installed, 'dist', 'renderer', 'index.html'));
    expect(report.info).toMatchObject({ ok: true, value: { schema: '4.2' } });
    expect(report.threads).toEqual(
      expect.arrayContaining(
        ['runner-thread.js', 'service-thread.js'].map((f) => pathToFileURL(path.join(built, f)).href),
      ),
    );
    expect(report.status.items).toBe(2); // loaded by the packaged runner thread
    expect(report.quits).toBe(1);
    expect(report.walAfterQuit).toBe(false);
  });

  it('the shop server’s driver (pg) and its connection thread load from the packaged files too', () => {
    const built = path.join(installed, 'dist', 'electron');
    const chunks = fs
      .readdirSync(path.join(built, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(built, 'assets', f));
    const script = `for (const f of ${JSON.stringify(chunks)}) await import(f); console.log('loaded');`;
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        pathToFileURL(path.join(REPO_ROOT, 'test', 'electron', 'built-app', 'register.mjs')).href,
        '--input-type=module',
        '-e',
        script,
      ],
      {
        cwd: installed,
        encoding: 'utf8',
      },
    );
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
    expect(r.stdout.trim(), r.stderr).toBe('loaded');
    expect(chunks.some((f) => fs.readFileSync(f, 'utf8').includes('pg-connection-string'))).toBe(true);
    // The bridge thread is a worker: importing it outside one stops at its own check, after every import resolved.
    const bridge = spawnSync(process.execPath, [path.join(built, 'postgres-bridge-thread.js')], {
      cwd: installed,
      encoding: 'utf8',
    });
    expect(bridge.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
  });
});
