// Builds better-sqlite3 for Electron's ABI into native/electron-v<ABI>-<platform>-<arch>/, beside (not
// over) the binary npm built for Node — so `npm test` (Node) and `npm start` (Electron) both work, in
// any order, with no rebuild between them. The main process loads it through better-sqlite3's
// `nativeBinding` option (electron/native.ts), after checking the stamp written here (built-from.json:
// the ABI the binary was actually built for, read from the binary itself). Runs in `npm start` and
// `npm run dist`, never in `npm install`.
//
// For each arch: a prebuilt binary first (better-sqlite3 publishes them for Electron's ABI; fetched with
// prebuild-install, a dependency of better-sqlite3), else compiled with node-gyp against Electron's
// headers. Both run in a scratch copy of the package, with the user's npm_config_* settings left out
// (npm exports them under `npm start`: a `nodedir` there would build against Node's headers).
//
//   node scripts/native-electron.mjs                 Electron's arch (as Electron itself says: an x64 Node.js
//                                                    under Rosetta on Apple silicon gets an arm64 Electron)
//   node scripts/native-electron.mjs --arch arm64,x64
//   node scripts/native-electron.mjs --dist          every arch the package's electron-builder targets name
//                                                    for this platform (`npm run dist`: a Mac makes arm64 and x64)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { checkNode } from './node-version.mjs';

checkNode();
const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const electronDir = path.dirname(require.resolve('electron/package.json'));
const electronVersion = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(fs.readFileSync(path.join(sqliteDir, 'package.json'), 'utf8')).version;
const platform = process.platform;
const electron = electronItself();
const abi = electron.abi;
const arches = archesWanted(process.argv.slice(2));

for (const arch of arches) {
  // An earlier Electron's binary for this platform and arch is never loaded again: leave none to be packaged.
  for (const name of fs.existsSync(path.join(root, 'native')) ? fs.readdirSync(path.join(root, 'native')) : [])
    if (
      name.endsWith(`-${platform}-${arch}`) &&
      /^electron-v\d+-/.test(name) &&
      name !== `electron-v${abi}-${platform}-${arch}`
    )
      fs.rmSync(path.join(root, 'native', name), { recursive: true, force: true });
  const outDir = path.join(root, 'native', `electron-v${abi}-${platform}-${arch}`);
  const binary = path.join(outDir, 'better_sqlite3.node');
  const stampFile = path.join(outDir, 'built-from.json');
  const want = { electron: electronVersion, betterSqlite3: sqliteVersion, platform, arch, abi };
  if (upToDate(stampFile, binary, want)) {
    console.log(`native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${arch}) is up to date`);
    continue;
  }
  // Work in a copy, so the binary npm made for Node stays where it is. Only the package's own build/
  // folder is left out (the path relative to the package: a checkout may well sit under a folder named build).
  const work = path.join(root, '.native-build', arch);
  fs.rmSync(work, { recursive: true, force: true });
  fs.cpSync(sqliteDir, work, {
    recursive: true,
    filter: (src) => path.relative(sqliteDir, src).split(path.sep)[0] !== 'build',
  });
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  let source = 'prebuilt';
  if (!prebuilt(work, arch) || builtAbi(built) !== abi) {
    if (fs.existsSync(built)) console.log(`native: the prebuilt binary is for ABI ${builtAbi(built)}, not ${abi}`);
    source = 'compiled';
    compile(work, arch);
  }
  const actual = builtAbi(built);
  if (actual !== abi)
    fail(
      `better-sqlite3 was built for ABI ${actual ?? 'unknown'}, but Electron ${electronVersion} needs ${abi}; ` +
        'nothing was installed. Check node-gyp’s output above.',
    );
  fs.mkdirSync(outDir, { recursive: true });
  fs.copyFileSync(built, binary);
  fs.writeFileSync(stampFile, JSON.stringify({ ...want, abi: actual, source }, null, 2) + '\n');
  fs.rmSync(work, { recursive: true, force: true });
  console.log(
    `native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${arch}, ABI ${actual}, ${source})`,
  );
}
fs.rmSync(path.join(root, '.native-build'), { recursive: true, force: true });

/**
 * The arches asked for: `--arch a,b`, `--dist` (the electron-builder targets' for this platform), else
 * the arch Electron runs as — the one `electron .` will look for (electron/native.ts). Electron's
 * installer fetches arm64 on Apple silicon even for an x64 Node.js under Rosetta (a Homebrew migrated
 * from an Intel Mac): a binary for Node's arch would not be found, and the app would not start.
 */
function archesWanted(args) {
  const at = args.indexOf('--arch');
  if (at >= 0) {
    const list = (args[at + 1] ?? '').split(',').filter(Boolean);
    if (list.length === 0) fail('--arch needs a list, e.g. --arch arm64,x64');
    return list;
  }
  if (!args.includes('--dist')) {
    if (electron.arch !== process.arch)
      console.log(
        `native: this Node.js is ${process.arch} (under Rosetta?) but Electron is ${electron.arch}: building for Electron's ${electron.arch}`,
      );
    return [electron.arch];
  }
  const config = pkg.build?.[{ darwin: 'mac', win32: 'win', linux: 'linux' }[platform]] ?? {};
  const targets = Array.isArray(config.target) ? config.target : config.target ? [config.target] : [];
  const named = new Set();
  for (const t of targets) {
    const arch = typeof t === 'string' ? [] : Array.isArray(t.arch) ? t.arch : t.arch ? [t.arch] : [];
    if (arch.length === 0) named.add(process.arch); // electron-builder's default: this machine's arch
    for (const a of arch) named.add(a);
  }
  return named.size === 0 ? [process.arch] : [...named];
}

/** Electron's ABI and arch, asked of Electron itself (running as Node), so they can't be wrong. */
function electronItself() {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathFile = path.join(electronDir, 'path.txt');
  const name = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
  const binary = override
    ? path.join(override, name ?? 'electron')
    : name
      ? path.join(electronDir, 'dist', name)
      : null;
  if (binary === null || !fs.existsSync(binary))
    fail(
      "the Electron binary is not installed (Electron's installer fetches it from GitHub on the first npm start).\n" +
        'On a machine that reaches GitHub, run  npm start  again. ' +
        'Without it, run the same app in a browser:  npm run serve',
    );
  let out;
  try {
    out = execFileSync(binary, ['-p', 'process.versions.modules + " " + process.arch'], {
      env: { ...cleanEnv(), ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    fail(`the Electron binary (${binary}) did not start: ${String(e.message).split('\n')[0]}`);
  }
  const found = out.toString().trim();
  const said = /^(\d+) ([a-z0-9_]+)$/.exec(found);
  if (said === null)
    fail(`the Electron binary (${binary}) did not tell its ABI and arch (it said "${found.slice(0, 80)}")`);
  return { abi: said[1], arch: said[2] };
}

/** Whether native/… holds a binary for exactly this Electron, better-sqlite3 and arch, of the ABI it says. */
function upToDate(stampFile, binary, want) {
  if (!fs.existsSync(stampFile) || !fs.existsSync(binary)) return false;
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  return Object.entries(want).every(([k, v]) => stamp[k] === v) && builtAbi(binary) === want.abi;
}

/**
 * The ABI a Node addon was built for, read from the binary (no need to load it, so it works for another
 * arch too): NODE_MODULE_INIT exports `node_register_module_v<ABI>`. Null when it names none.
 */
function builtAbi(file) {
  if (!fs.existsSync(file)) return null;
  const m = /node_register_module_v(\d+)/.exec(fs.readFileSync(file).toString('latin1'));
  return m ? m[1] : null;
}

/** A prebuilt binary for Electron's ABI into <work>/build/Release, if better-sqlite3 publishes one and it can be fetched. */
function prebuilt(work, arch) {
  const bin = prebuildInstallBin();
  if (bin === null) return false;
  console.log(`native: fetching a prebuilt better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${arch})…`);
  const r = spawnSync(
    process.execPath,
    [bin, '--runtime', 'electron', '--target', electronVersion, '--arch', arch, '--platform', platform],
    { cwd: work, env: cleanEnv(), stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const ok = r.status === 0 && fs.existsSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'));
  if (!ok) console.log('native: no prebuilt binary could be had; compiling one');
  return ok;
}

/** prebuild-install's bin, as better-sqlite3 (which depends on it) finds it; null when there is none. */
function prebuildInstallBin() {
  try {
    const manifest = createRequire(path.join(sqliteDir, 'package.json')).resolve('prebuild-install/package.json');
    const { bin } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    const file = typeof bin === 'string' ? bin : bin?.['prebuild-install'];
    return file ? path.join(path.dirname(manifest), file) : null;
  } catch {
    return null;
  }
}

/** Compiles better-sqlite3 in <work> with node-gyp against Electron's headers. */
function compile(work, arch) {
  console.log(
    `native: building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (ABI ${abi}, ${arch})…`,
  );
  fs.rmSync(path.join(work, 'build'), { recursive: true, force: true });
  const r = spawnSync(
    process.execPath,
    [
      require.resolve('node-gyp/bin/node-gyp.js'),
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      `--arch=${arch}`,
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, env: cleanEnv(), stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0)
    fail(
      `node-gyp could not build better-sqlite3 for Electron ${electronVersion} (${arch}); see its output above. ` +
        'It needs a C++ toolchain (python3, make, g++; on macOS the Xcode command-line tools).',
    );
}

/**
 * This environment without npm's exported settings (npm_config_*: nodedir, target, runtime, arch,
 * dist_url… would change what is built), keeping only those that say how to reach the network.
 */
function cleanEnv() {
  const keep = /^npm_config_(https?_proxy|proxy|noproxy|no_proxy|cafile|ca|strict_ssl|local_address)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k) || keep.test(k)));
}

function fail(message) {
  console.error(`brick-work: ${message}`);
  process.exit(1);
}
