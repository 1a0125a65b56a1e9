import type { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.ts';
import { linuxAppDir, packageForLinux, standInElectronDist, type Arch } from '../helpers/electron-builder.ts';

const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as { listPackage(file: string, options?: object): string[] };
const fuses = require('@electron/fuses') as { getCurrentFuseWire(binary: string): Promise<Record<string, number>> };

const [OFF, ON] = ['0'.charCodeAt(0), '1'.charCodeAt(0)];

/**
 * The build machines: this one, and the other of Linux and a Mac (electron-builder's `process.platform`
 * made that one's). A Mac packages the binary it built for itself: electron-builder's `${platform}` in the
 * package's files is the build machine's (issue 63).
 */
const MACHINES: readonly { platform: NodeJS.Platform; archs: readonly Arch[] }[] = [
  { platform: process.platform, archs: ['x64', 'arm64'] },
  { platform: process.platform === 'darwin' ? 'linux' : 'darwin', archs: ['arm64'] },
];

/**
 * A real electron-builder run (`--linux dir`, x64 and arm64) of this package.json's configuration, offline:
 * in a stand-in project (the package.json, stub dist/ and native/ for five platform-arches, this
 * checkout's node_modules), with a stand-in Electron (`electronDist`) whose "binary" carries a fuse wire
 * with Electron's defaults. What the apps get is then read back: the asar's files, the unpacked ones,
 * the fuses.
 */
describe.each(MACHINES)(
  'packaging with electron-builder on a $platform build machine (its real file selection and fuses; a stand-in Electron)',
  ({ platform, archs }) => {
    let dir: string;
    let run: ReturnType<typeof spawnSync>;
    const app = (arch: Arch) => linuxAppDir(path.join(dir, 'out'), arch);
    const [first = 'x64'] = archs;

    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-packaging-'));
      const electronDist = standInElectronDist(dir);
      const project = path.join(dir, 'project');
      const put = (file: string, text = '//') => {
        fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
        fs.writeFileSync(path.join(project, file), text);
      };
      fs.mkdirSync(project);
      fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(project, 'package.json'));
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
      for (const f of ['main.js', 'preload.cjs', 'runner-thread.js', 'service-thread.js', 'assets/service-1.js'])
        put(`dist/electron/${f}`);
      put('dist/electron/main.js.map', '{}');
      put('dist/renderer/index.html', '<!doctype html>');
      put('dist/renderer/assets/index-1.js');
      for (const target of ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64']) {
        put(`native/electron-v150-${target}/better_sqlite3.node`, 'binary');
        put(`native/electron-v150-${target}/built-from.json`, '{"abi":"150"}');
      }
      put('src/app/core.ts', 'sources');
      put('scripts/native-electron.mjs', 'a script');
      run = packageForLinux(project, { electronDist, out: path.join(dir, 'out'), archs, platform });
    }, 120_000);

    afterAll(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('packages without the internet', () => {
      expect(run.status, `${String(run.stdout)}\n${String(run.stderr)}`).toBe(0);
    });

    it('ships only what the app loads: the built app, better-sqlite3’s JavaScript, the binary for its own arch', () => {
      const files = asar.listPackage(path.join(app(first), 'resources', 'app.asar'));
      const shipped = files.filter((f) => !files.some((g) => g.startsWith(`${f}/`))); // leaves only
      expect(shipped.filter((f) => !f.startsWith('/node_modules/better-sqlite3/lib/')).sort()).toEqual([
        '/dist/electron/assets/service-1.js',
        '/dist/electron/main.js',
        '/dist/electron/preload.cjs',
        '/dist/electron/runner-thread.js',
        '/dist/electron/service-thread.js',
        '/dist/renderer/assets/index-1.js',
        '/dist/renderer/index.html',
        `/native/electron-v150-${platform}-${first}/better_sqlite3.node`,
        `/native/electron-v150-${platform}-${first}/built-from.json`,
        '/node_modules/better-sqlite3/LICENSE',
        '/node_modules/better-sqlite3/package.json',
        '/package.json',
      ]);
      expect(shipped).toContain('/node_modules/better-sqlite3/lib/index.js');
      // Not: tsx, esbuild, react…, prebuild-install, bindings; better-sqlite3's sources and Node build.
      const modules = new Set(files.filter((f) => f.startsWith('/node_modules/')).map((f) => f.split('/')[2]));
      expect([...modules]).toEqual(['better-sqlite3']);
    });

    it('each arch’s app has its own binary, the build machine’s, unpacked from the asar where electron/native.ts looks', () => {
      for (const arch of archs) {
        const unpacked = path.join(app(arch), 'resources', 'app.asar.unpacked', 'native');
        expect(fs.readdirSync(unpacked), arch).toEqual([`electron-v150-${platform}-${arch}`]);
        expect(fs.readdirSync(path.join(unpacked, `electron-v150-${platform}-${arch}`)).sort()).toEqual([
          'better_sqlite3.node',
          'built-from.json',
        ]);
      }
    });

    it('flips Electron’s fuses: no running as Node, no NODE_OPTIONS or --inspect, cookies encrypted, the app only from its checked asar', async () => {
      for (const arch of archs) {
        const wire = await fuses.getCurrentFuseWire(path.join(app(arch), 'brick-work'));
        expect(wire, arch).toMatchObject({
          0: OFF, // RunAsNode
          1: ON, // EnableCookieEncryption
          2: OFF, // EnableNodeOptionsEnvironmentVariable
          3: OFF, // EnableNodeCliInspectArguments
          4: ON, // EnableEmbeddedAsarIntegrityValidation
          5: ON, // OnlyLoadAppFromAsar
          6: OFF, // LoadBrowserProcessSpecificV8Snapshot
          7: ON, // GrantFileProtocolExtraPrivileges: the page is loaded from file:// (ES modules need it)
        });
      }
    });
  },
);
