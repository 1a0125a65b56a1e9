import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronNativeBinding } from '../../electron/native.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * scripts/native-electron.mjs, run as `npm start` runs it, in a stand-in checkout: the script itself, the
 * package.json, and stand-ins for what it starts — Electron's binary (it says ABI 150, as Electron 45's
 * does), prebuild-install (succeeds or fails, as told) and node-gyp (builds a "binary" that names the ABI
 * it was built for: Node's 115 when it is given npm's `nodedir`, Electron's 150 otherwise). Each stand-in
 * logs how it was started.
 */
function standInCheckout(parent: string) {
  const root = path.join(parent, 'shop checkout');
  const nm = path.join(root, 'node_modules');
  const write = (file: string, text: string, mode?: number) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, mode === undefined ? undefined : { mode });
  };
  fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
  for (const s of ['native-electron.mjs', 'node-version.mjs'])
    fs.copyFileSync(path.join(REPO_ROOT, 'scripts', s), path.join(root, 'scripts', s));
  fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(root, 'package.json'));
  const log = path.join(parent, 'log.jsonl');
  const logLine = `require('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({ tool: TOOL, argv: process.argv.slice(2), cwd: process.cwd(), npmConfig: Object.keys(process.env).filter((k) => /^npm_config_/i.test(k)), sources: require('fs').existsSync('binding.gyp') && require('fs').existsSync('src/better_sqlite3.cpp'), nodeBuildCopied: require('fs').existsSync('build/Release/node-build-marker') }) + '\\n');`;
  const binary = (abi: string) =>
    `require('fs').mkdirSync('build/Release', { recursive: true }); require('fs').writeFileSync('build/Release/better_sqlite3.node', '\\0ELF…node_register_module_v' + ${abi} + '\\0' + process.argv.join(' '));`;

  // Electron: the package, and its binary (found through path.txt, as the electron package finds it).
  write(path.join(nm, 'electron', 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
  write(path.join(nm, 'electron', 'path.txt'), 'electron');
  write(path.join(nm, 'electron', 'index.js'), "module.exports = require('path').join(__dirname, 'dist', 'electron');");
  // Asked its ABI and arch, it says 150 (Electron 45's) and this machine's arch, or FAKE_ELECTRON_ARCH.
  write(
    path.join(nm, 'electron', 'dist', 'electron'),
    `#!/bin/sh\necho "150 \${FAKE_ELECTRON_ARCH:-${process.arch}}"\n`,
    0o755,
  );
  // better-sqlite3: sources, and the binary npm built for Node in its build/ (not to be copied).
  const sqlite = path.join(nm, 'better-sqlite3');
  write(path.join(sqlite, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
  write(path.join(sqlite, 'binding.gyp'), '{}');
  write(path.join(sqlite, 'src', 'better_sqlite3.cpp'), '// sources');
  write(path.join(sqlite, 'lib', 'index.js'), '');
  write(path.join(sqlite, 'build', 'Release', 'better_sqlite3.node'), '\0node_register_module_v115\0');
  write(path.join(sqlite, 'build', 'Release', 'node-build-marker'), '');
  // prebuild-install (a dependency of better-sqlite3): a binary for Electron's ABI when FAKE_PREBUILD=ok.
  write(
    path.join(nm, 'prebuild-install', 'package.json'),
    JSON.stringify({ name: 'prebuild-install', bin: './bin.js' }),
  );
  write(
    path.join(nm, 'prebuild-install', 'bin.js'),
    `const TOOL = 'prebuild-install'; ${logLine} if (process.env.FAKE_PREBUILD !== 'ok') { console.error('prebuild-install warn install No prebuilt binaries found'); process.exit(1); } ${binary("(process.env.FAKE_PREBUILD_ABI || '150')")}`,
  );
  // node-gyp: builds for Node's ABI when npm's nodedir reaches it (that was the bug), else Electron's.
  write(
    path.join(nm, 'node-gyp', 'bin', 'node-gyp.js'),
    `const TOOL = 'node-gyp'; ${logLine} if (!require('fs').existsSync('binding.gyp')) { console.error('gyp: binding.gyp not found'); process.exit(1); } ${binary("(process.env.FAKE_GYP_ABI || (process.env.npm_config_nodedir ? '115' : '150'))")}`,
  );
  write(path.join(nm, 'node-gyp', 'package.json'), JSON.stringify({ name: 'node-gyp' }));
  return { root, log };
}

/** Runs the script (as `platform` and `arch`, when given) with only the given npm_config_* in its environment. */
function run(root: string, args: string[], env: NodeJS.ProcessEnv = {}, platform?: string, arch?: string) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_config_|^ELECTRON_|^FAKE_/i.test(k)),
  );
  const facts = [
    ...(platform ? [`Object.defineProperty(process,'platform',{value:'${platform}'});`] : []),
    ...(arch ? [`Object.defineProperty(process,'arch',{value:'${arch}'});`] : []),
  ];
  const as = facts.length > 0 ? ['--import', `data:text/javascript,${facts.join('')}`] : [];
  return spawnSync(process.execPath, [...as, path.join(root, 'scripts', 'native-electron.mjs'), ...args], {
    cwd: root,
    env: { ...base, ...env },
    encoding: 'utf8',
  });
}

const logOf = (log: string) =>
  fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              tool: string;
              argv: string[];
              cwd: string;
              npmConfig: string[];
              sources: boolean;
              nodeBuildCopied: boolean;
            },
        )
    : [];
const stampOf = (root: string, dir: string) =>
  JSON.parse(fs.readFileSync(path.join(root, 'native', dir, 'built-from.json'), 'utf8')) as Record<string, string>;
const builtFor = (root: string, dir: string) =>
  /node_register_module_v(\d+)/.exec(
    fs.readFileSync(path.join(root, 'native', dir, 'better_sqlite3.node'), 'latin1'),
  )?.[1];
const here = `electron-v150-${process.platform}-${process.arch}`;

describe('building better-sqlite3 for Electron (scripts/native-electron.mjs, stand-ins for Electron, prebuild-install and node-gyp)', () => {
  it('copies the sources when the checkout sits under a folder named build (only the package’s own build/ is left out)', () => {
    const { root, log } = standInCheckout(path.join(tempDir(), 'build', 'work'));
    const r = run(root, []);
    expect(r.stderr).not.toMatch(/brick-work:/);
    expect(r.status).toBe(0);
    const gyp = logOf(log).find((l) => l.tool === 'node-gyp')!;
    expect(gyp.sources).toBe(true);
    expect(gyp.nodeBuildCopied).toBe(false);
    expect(builtFor(root, here)).toBe('150');
    expect(fs.existsSync(path.join(root, '.native-build'))).toBe(false);
  });

  it('starts node-gyp without npm’s npm_config_* (a nodedir built it against Node’s headers) and stamps the ABI the binary was built for', () => {
    const { root, log } = standInCheckout(tempDir());
    const r = run(root, [], {
      npm_config_nodedir: '/usr/include/node',
      npm_config_target: '20.20.2',
      npm_config_runtime: 'node',
      NPM_CONFIG_ARCH: 'ia32',
      npm_config_https_proxy: 'http://proxy.shop:3128',
    });
    expect(r.status, r.stderr).toBe(0);
    for (const l of logOf(log)) expect(l.npmConfig, l.tool).toEqual(['npm_config_https_proxy']);
    const gyp = logOf(log).find((l) => l.tool === 'node-gyp')!;
    expect(gyp.argv).toEqual(expect.arrayContaining(['rebuild', '--target=45.5.0', `--arch=${process.arch}`]));
    expect(stampOf(root, here)).toMatchObject({
      electron: '45.5.0',
      betterSqlite3: '12.11.1',
      arch: process.arch,
      abi: '150',
      source: 'compiled',
    });
    expect(builtFor(root, here)).toBe('150');
  });

  it('installs nothing, and says so plainly, when the build comes out for another ABI', () => {
    const { root } = standInCheckout(tempDir());
    const r = run(root, [], { FAKE_GYP_ABI: '115' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^brick-work: better-sqlite3 was built for ABI 115, but Electron 45\.5\.0 needs 150/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(root, 'native', here))).toBe(false);
  });

  it('takes a prebuilt binary for Electron’s ABI when there is one, and compiles nothing', () => {
    const { root, log } = standInCheckout(tempDir());
    const r = run(root, [], { FAKE_PREBUILD: 'ok' });
    expect(r.status, r.stderr).toBe(0);
    const tools = logOf(log);
    expect(tools.map((l) => l.tool)).toEqual(['prebuild-install']);
    expect(tools[0]!.argv).toEqual([
      '--runtime',
      'electron',
      '--target',
      '45.5.0',
      '--arch',
      process.arch,
      '--platform',
      process.platform,
    ]);
    expect(tools[0]!.cwd).toBe(path.join(root, '.native-build', process.arch));
    expect(stampOf(root, here)).toMatchObject({ abi: '150', source: 'prebuilt' });
  });

  it('compiles when no prebuilt binary can be had, or the one fetched is for another ABI', () => {
    for (const env of [{ FAKE_PREBUILD: 'fail' }, { FAKE_PREBUILD: 'ok', FAKE_PREBUILD_ABI: '140' }]) {
      const { root, log } = standInCheckout(tempDir());
      const r = run(root, [], env);
      expect(r.status, r.stderr).toBe(0);
      expect(logOf(log).map((l) => l.tool)).toEqual(['prebuild-install', 'node-gyp']);
      expect(stampOf(root, here)).toMatchObject({ abi: '150', source: 'compiled' });
    }
  });

  it('is done once: a second start finds it up to date; a stamp without the ABI (an earlier build’s) is built again', () => {
    const { root, log } = standInCheckout(tempDir());
    expect(run(root, []).status).toBe(0);
    const again = run(root, []);
    expect(again.stdout).toMatch(/is up to date/);
    expect(logOf(log).filter((l) => l.tool === 'node-gyp')).toHaveLength(1);
    const stampFile = path.join(root, 'native', here, 'built-from.json');
    const { abi: _abi, source: _source, platform: _platform, ...earlier } = stampOf(root, here);
    fs.writeFileSync(stampFile, JSON.stringify(earlier));
    expect(run(root, []).status).toBe(0);
    expect(logOf(log).filter((l) => l.tool === 'node-gyp')).toHaveLength(2);
  });

  it('removes an earlier Electron’s binary for the same platform and arch (so it is not packaged), and no other', () => {
    const { root } = standInCheckout(tempDir());
    const earlier = path.join(root, 'native', `electron-v140-${process.platform}-${process.arch}`);
    const otherArch = path.join(
      root,
      'native',
      `electron-v140-${process.platform}-${process.arch === 'x64' ? 'arm64' : 'x64'}`,
    );
    for (const d of [earlier, otherArch]) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'better_sqlite3.node'), '');
    }
    expect(run(root, []).status).toBe(0);
    expect(fs.existsSync(earlier)).toBe(false);
    expect(fs.existsSync(otherArch)).toBe(true);
    expect(fs.existsSync(path.join(root, 'native', here, 'better_sqlite3.node'))).toBe(true);
  });

  it('npm run dist on a Mac builds every arch the mac target names (arm64 and x64), each where its app looks', () => {
    const { root, log } = standInCheckout(tempDir());
    const r = run(root, ['--dist'], {}, 'darwin');
    expect(r.status, r.stderr).toBe(0);
    const arches = logOf(log)
      .filter((l) => l.tool === 'node-gyp')
      .map((l) => l.argv.find((a) => a.startsWith('--arch=')));
    expect(arches).toEqual(['--arch=arm64', '--arch=x64']);
    for (const arch of ['arm64', 'x64']) {
      expect(stampOf(root, `electron-v150-darwin-${arch}`)).toMatchObject({ platform: 'darwin', arch, abi: '150' });
      expect(
        fs.readFileSync(path.join(root, 'native', `electron-v150-darwin-${arch}`, 'better_sqlite3.node'), 'latin1'),
      ).toContain(`--arch=${arch}`);
    }
    // On Linux the AppImage target names x64.
    const linux = standInCheckout(tempDir());
    expect(run(linux.root, ['--dist'], {}, 'linux').status).toBe(0);
    expect(fs.readdirSync(path.join(linux.root, 'native'))).toEqual(['electron-v150-linux-x64']);
  });

  it('an x64 Node.js under Rosetta with an arm64 Electron (Apple silicon): builds for Electron’s arm64, where the app looks, and says so in one line', () => {
    const { root, log } = standInCheckout(tempDir());
    const r = run(root, [], { FAKE_ELECTRON_ARCH: 'arm64' }, 'darwin', 'x64');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /Rosetta/.test(l))).toEqual([
      "native: this Node.js is x64 (under Rosetta?) but Electron is arm64: building for Electron's arm64",
    ]);
    const gyp = logOf(log).filter((l) => l.tool === 'node-gyp');
    expect(gyp.map((l) => l.argv.find((a) => a.startsWith('--arch=')))).toEqual(['--arch=arm64']);
    expect(fs.readdirSync(path.join(root, 'native'))).toEqual(['electron-v150-darwin-arm64']);
    // What Electron's main process looks for (its own process.arch): found.
    expect(electronNativeBinding(root, '150', 'darwin', 'arm64')).toBe(
      path.join(root, 'native', 'electron-v150-darwin-arm64', 'better_sqlite3.node'),
    );
    // Node and Electron alike: nothing said.
    const same = standInCheckout(tempDir());
    const quiet = run(same.root, [], { FAKE_ELECTRON_ARCH: 'arm64' }, 'darwin', 'arm64');
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toMatch(/Rosetta/);
    expect(fs.readdirSync(path.join(same.root, 'native'))).toEqual(['electron-v150-darwin-arm64']);
  });

  it('says plainly when Electron’s binary is not there, and names no download', () => {
    const { root } = standInCheckout(tempDir());
    fs.rmSync(path.join(root, 'node_modules', 'electron', 'dist'), { recursive: true });
    const r = run(root, []);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^brick-work: the Electron binary is not installed/);
    expect(r.stderr).not.toMatch(/\n\s+at |could not be fetched/);
  });
});
