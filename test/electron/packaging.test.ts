import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronNativeBinding } from '../../electron/native.ts';
import { DOCUMENT_EXTENSIONS, DOCUMENT_KINDS } from '../../src/vocabulary/document-kinds.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  main: string;
  scripts: Record<string, string>;
  build: Record<string, any>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const require = createRequire(import.meta.url);

/** electron-builder's own packager methods, run on a stand-in packager made of a build configuration. */
function standInPackager(build: Record<string, any>, os: 'mac' | 'win' | 'linux') {
  // Through the package's entry: platformPackager.js first would meet its require cycle half-made.
  const { PlatformPackager } = require('app-builder-lib');
  const p = PlatformPackager.prototype;
  return {
    config: build,
    platformSpecificBuildOptions: build[os] ?? {},
    appInfo: { productName: build['productName'], sanitizedProductName: build['productName'], version: pkg.version },
    platform: { buildConfigurationKey: os },
    expandArtifactNamePattern: p.expandArtifactNamePattern,
    artifactPatternConfig: p.artifactPatternConfig,
    computeArtifactName: p.computeArtifactName,
    expandMacro: p.expandMacro,
    /** The document types the app declares: electron-builder's `fileAssociations` (the build's, then the platform's). */
    get fileAssociations(): { ext: string | string[]; rank?: string; role?: string; name?: string }[] {
      return Object.getOwnPropertyDescriptor(p, 'fileAssociations')!.get!.call(this);
    },
  };
}

/** The file electron-builder's dmg target makes for an arch (its DmgTarget, stopped as it names the file). */
async function dmgFileName(build: Record<string, any>, arch: 'arm64' | 'x64'): Promise<string> {
  const { DmgTarget } = require('dmg-builder/out/dmg.js');
  const { Arch } = require('builder-util');
  const named: { file: string | null } = { file: null };
  const packager = {
    ...standInPackager(build, 'mac'),
    info: {
      emitArtifactBuildStarted: async ({ file }: { file: string }) => {
        named.file = file;
        throw new Error('named'); // nothing is built
      },
    },
  };
  await new DmgTarget(packager, '/release').build('/release/mac/brick-work.app', Arch[arch]).catch(() => {});
  if (named.file === null) throw new Error('the dmg target named no file');
  return path.basename(named.file);
}

describe('packaging (electron-builder; the builds themselves need the internet, so the configuration is checked here)', () => {
  const b = pkg.build;

  it('makes a macOS dmg for arm64 and x64 with the hardened runtime and its entitlements', () => {
    expect(b['mac'].target).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(b['mac'].hardenedRuntime).toBe(true);
    const entitlements = path.join(REPO_ROOT, b['mac'].entitlements);
    expect(fs.readFileSync(entitlements, 'utf8')).toContain('com.apple.security.cs.allow-jit');
    expect(b['mac'].entitlementsInherit).toBe(b['mac'].entitlements);
  });

  it('makes a Windows NSIS installer and a Linux AppImage, with the icon in build/', () => {
    expect(b['win'].target[0].target).toBe('nsis');
    expect(b['linux'].target[0].target).toBe('AppImage');
    for (const os of ['mac', 'win', 'linux']) {
      const icon = path.join(REPO_ROOT, b[os].icon);
      const png = fs.readFileSync(icon);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512); // electron-builder needs ≥ 512 px to make icns and ico
    }
    expect(b['directories'].buildResources).toBe('build');
  });

  it('ships the built app and the Electron better-sqlite3 binaries, unpacked from the asar, and does not rebuild them', () => {
    expect(pkg.main).toBe('dist/electron/main.js');
    // Each packaged app gets the binary of its own arch (electron-builder expands ${platform} and ${arch}
    // per build), where electron/native.ts looks: native/electron-v<ABI>-<platform>-<arch>/.
    expect(b['files']).toEqual(
      expect.arrayContaining([
        'dist/**',
        'native/electron-v*-${platform}-${arch}/{better_sqlite3.node,built-from.json}',
        'package.json',
      ]),
    );
    expect(b['asarUnpack']).toEqual(expect.arrayContaining(['native/**']));
    expect(b['npmRebuild']).toBe(false);
    // npm run dist builds the binary for every arch the platform's targets name (a Mac: arm64 and x64).
    expect(pkg.scripts['dist']).toMatch(
      /npm run build && node scripts\/native-electron\.mjs --dist && electron-builder --publish never$/,
    );
    expect(pkg.scripts['dist:mac']).toMatch(/node scripts\/native-electron\.mjs --dist && electron-builder --mac /);
    expect(pkg.scripts['start']).toMatch(/node scripts\/native-electron\.mjs && electron \./);
    expect(pkg.dependencies['better-sqlite3']).toMatch(/^\^12\./);
    expect(pkg.devDependencies['electron']).toBeDefined();
    expect(pkg.devDependencies['electron-builder']).toBeDefined();
  });

  it('ships only what the app loads: no tsx, esbuild, React or zustand, none of better-sqlite3’s sources', () => {
    // Bundled by vite into dist/: needed to build, not to run.
    for (const p of ['react', 'react-dom', 'zustand']) {
      expect(pkg.dependencies[p], p).toBeUndefined();
      expect(pkg.devDependencies[p], p).toBeDefined();
    }
    // The brick-work command (bin) runs the TypeScript sources through tsx: a dependency, but not packaged.
    expect(fs.readFileSync(path.join(REPO_ROOT, 'bin', 'brick-work.js'), 'utf8')).toContain("from 'tsx/esm/api'");
    // pg (the shop-server store, ADR 0027): pure JavaScript the CLI loads from node_modules, and the
    // Electron build bundles into dist/ (electron/vite.config.ts, test/electron/packaged-imports.test.ts):
    // not packaged from node_modules either. Studio models are read by the project's own ZIP reader
    // (issue 62): adm-zip only makes the tests' archives.
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['better-sqlite3', 'pg', 'tsx']);
    expect(pkg.devDependencies['adm-zip']).toBeDefined();
    // electron-builder applies the files' exclusions to node_modules: every package but better-sqlite3,
    // and of better-sqlite3 all but its JavaScript (its binary is the one in native/, by nativeBinding).
    expect(b['files']).toEqual(
      expect.arrayContaining([
        '!**/*.map',
        '!node_modules/!(better-sqlite3){,/**}',
        '!node_modules/better-sqlite3/!(lib|package.json|LICENSE){,/**}',
      ]),
    );
    expect(b['asarUnpack']).toEqual(['native/**']);
  });

  it('flips Electron’s fuses as it packages (electron-builder 26’s electronFuses, right before signing)', () => {
    expect(pkg.devDependencies['electron-builder']).toMatch(/^\^26\./);
    expect(b['electronFuses']).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: true, // the page is file://, and its ES modules need it
      // A local build with no signing identity: the binary the fuses changed is signed ad hoc again, or an
      // Apple Silicon Mac refuses to launch it (@electron/fuses' README, issue 44).
      resetAdHocDarwinSignature: true,
    });
  });

  it('a release build for macOS refuses to be unsigned; a local one is signed ad hoc (issue 44)', () => {
    expect(pkg.scripts['dist:mac:release']).toMatch(
      /electron-builder --mac --publish never -c\.forceCodeSigning=true$/,
    );
    expect(pkg.scripts['dist:mac']).not.toMatch(/forceCodeSigning/);
    // The same build, after the notarization check (test/electron/notarization.test.ts).
    expect(
      pkg.scripts['dist:mac:release']
        ?.replace(' -c.forceCodeSigning=true', '')
        .replace(/^node scripts\/check-notarization\.mjs && /, ''),
    ).toBe(pkg.scripts['dist:mac']);
  });

  it('names both dmgs by their arch, as docs/mac.md does (electron-builder leaves its default arch, x64, out unless artifactName is set)', async () => {
    expect(await dmgFileName(b, 'arm64')).toBe(`brick-work-${pkg.version}-arm64.dmg`);
    expect(await dmgFileName(b, 'x64')).toBe(`brick-work-${pkg.version}-x64.dmg`);
    // What the configuration made before issue 63: the x64 dmg without its arch.
    const { dmg: _dmg, ...withoutName } = b;
    expect(await dmgFileName(withoutName, 'x64')).toBe(`brick-work-${pkg.version}.dmg`);
    const mac = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'mac.md'), 'utf8');
    for (const arch of ['arm64', 'x64']) expect(mac).toContain(`release/brick-work-${pkg.version}-${arch}.dmg`);
  });

  it('names the oldest macOS it runs on: 12, Electron 45’s', () => {
    expect(b['mac'].minimumSystemVersion).toBe('12.0');
    expect(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')).toMatch(/macOS 12 \(Monterey\) or later/);
  });

  it('opens BrickStore documents from Finder and Explorer: .bsx is associated, as an editor that does not claim it first (issue 44)', () => {
    expect(b.fileAssociations).toEqual([expect.objectContaining({ ext: 'bsx', role: 'Editor', rank: 'Alternate' })]);
  });

  it('the Mac app declares every kind of document brick-work reads, so any can be dropped on its Dock icon (issue 63 §4)', () => {
    const extensions = (os: 'mac' | 'win' | 'linux') =>
      standInPackager(b, os)
        .fileAssociations.flatMap((a) => [a.ext].flat())
        .sort();
    expect(extensions('mac')).toEqual([...DOCUMENT_EXTENSIONS].sort());
    // An alternate handler, never Finder's default for a .csv, .xml or .txt.
    for (const a of standInPackager(b, 'mac').fileAssociations) expect(a.rank, String(a.ext)).toBe('Alternate');
    // Off the Mac only .bsx: Windows' installer makes an association the files' default opener (it sets
    // the extension's class), which would take .csv from the spreadsheet and .txt from the editor.
    expect(extensions('win')).toEqual(['bsx']);
    expect(extensions('linux')).toEqual(['bsx']);
  });

  it('the kinds of document name every reader src/documents/read-document.ts reads with, so a new format is not forgotten', () => {
    const reader = fs.readFileSync(path.join(REPO_ROOT, 'src', 'documents', 'read-document.ts'), 'utf8');
    const used = [...reader.matchAll(/import \{([^}]*)\} from '\.\/formats\/[^']+'/g)]
      .flatMap((m) => m[1]!.split(','))
      .map((n) => n.trim())
      .filter((n) => /^read[A-Z]/.test(n));
    expect(used.length).toBeGreaterThanOrEqual(7);
    expect(DOCUMENT_KINDS.flatMap((k) => k.readers).sort()).toEqual(used.sort());
    for (const kind of DOCUMENT_KINDS) expect(kind.extensions.length, kind.name).toBeGreaterThan(0);
  });

  it('installs without needing more than the npm registry: no install script rebuilds for Electron', () => {
    expect(Object.keys(pkg.scripts).filter((s) => /^(pre|post)?install$/.test(s))).toEqual([]);
  });

  it('finds the Electron binary of better-sqlite3 by ABI, platform and arch, unpacked in the packaged app', () => {
    const root = tempDir();
    expect(electronNativeBinding(root, '140', 'darwin', 'arm64')).toBeNull();
    const dir = path.join(root, 'native', 'electron-v140-darwin-arm64');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'better_sqlite3.node'), '');
    expect(electronNativeBinding(root, '140', 'darwin', 'arm64')).toBe(path.join(dir, 'better_sqlite3.node'));
    // Only another arch's binary (what an x64 Node.js under Rosetta builds, issue 63): never loaded, said plainly.
    expect(() => electronNativeBinding(root, '140', 'darwin', 'x64')).toThrow(
      'The SQLite library was built for Electron on darwin-arm64, but this Electron runs as darwin-x64 (a Node.js of the other arch built it',
    );
    const rosetta = tempDir();
    fs.mkdirSync(path.join(rosetta, 'native', 'electron-v140-darwin-x64'), { recursive: true });
    fs.writeFileSync(path.join(rosetta, 'native', 'electron-v140-darwin-x64', 'better_sqlite3.node'), '');
    expect(() => electronNativeBinding(rosetta, '140', 'darwin', 'arm64')).toThrow(
      /built for Electron on darwin-x64, but this Electron runs as darwin-arm64 .*an x64 Node\.js under Rosetta.*Run {2}npm start {2}again/,
    );
    const packaged = path.join(root, 'Resources', 'app.asar');
    const unpacked = path.join(root, 'Resources', 'app.asar.unpacked', 'native', 'electron-v140-win32-x64');
    fs.mkdirSync(unpacked, { recursive: true });
    fs.writeFileSync(path.join(unpacked, 'better_sqlite3.node'), '');
    expect(electronNativeBinding(packaged, '140', 'win32', 'x64')).toBe(path.join(unpacked, 'better_sqlite3.node'));
  });

  it('bundles the job runner thread and the service thread beside the main process, where main.ts finds them', async () => {
    const { default: config } = await import('../../electron/vite.config.ts');
    const build = (
      config as (env: { mode: string; command: 'build' }) => {
        build: { outDir: string; rollupOptions: { input: Record<string, string> } };
      }
    )({ mode: 'production', command: 'build' });
    const input = build.build.rollupOptions.input;
    expect(input['runner-thread']).toBe(path.join(REPO_ROOT, 'src', 'app', 'runner-thread.ts'));
    expect(input['service-thread']).toBe(path.join(REPO_ROOT, 'src', 'app', 'service-thread.ts'));
    expect(build.build.outDir).toBe(path.join(REPO_ROOT, 'dist', 'electron'));
    const main = fs.readFileSync(path.join(REPO_ROOT, 'electron', 'main.ts'), 'utf8');
    expect(main).toContain("new URL('./runner-thread.js', import.meta.url)");
    expect(main).toContain("new URL('./service-thread.js', import.meta.url)");
  });
});
