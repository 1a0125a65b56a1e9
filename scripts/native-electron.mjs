// Builds better-sqlite3 for Electron's ABI into native/electron-v<ABI>-<platform>-<arch>/, beside (not
// over) the binary npm built for Node — so `npm test` (Node) and `npm start` (Electron) both work, in
// any order, with no rebuild between them. The main process loads it through better-sqlite3's
// `nativeBinding` option (electron/native.ts). Needs Electron's headers, so it runs in `npm start` and
// `npm run dist`, never in `npm install`.
//
//   node scripts/native-electron.mjs [--arch arm64,x64]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const electronVersion = require('electron/package.json').version;
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = require('better-sqlite3/package.json').version;
const archArg = process.argv.indexOf('--arch');
const arches = archArg > 0 ? process.argv[archArg + 1].split(',') : [process.arch];

// Electron's ABI: asked of Electron itself (running as Node), so it can't be wrong.
let abi;
try {
  const electron = require('electron');
  abi = execFileSync(electron, ['-p', 'process.versions.modules'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  })
    .toString()
    .trim();
} catch (e) {
  console.error(
    `brick-work: the Electron binary is not here and could not be fetched (${e.message.split('\n')[0]}).\n` +
      'On a machine that reaches GitHub, npm fetches it. Without it, run the same app in a browser: npm run serve',
  );
  process.exit(1);
}

for (const arch of arches) {
  const outDir = path.join(root, 'native', `electron-v${abi}-${process.platform}-${arch}`);
  const stamp = path.join(outDir, 'built-from.json');
  const want = { electron: electronVersion, betterSqlite3: sqliteVersion, arch };
  if (fs.existsSync(stamp) && JSON.stringify(JSON.parse(fs.readFileSync(stamp, 'utf8'))) === JSON.stringify(want)) {
    console.log(`native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${arch}) is up to date`);
    continue;
  }
  // Build in a copy, so the binary npm made for Node stays where it is.
  const work = path.join(root, '.native-build', arch);
  fs.rmSync(work, { recursive: true, force: true });
  fs.cpSync(sqliteDir, work, { recursive: true, filter: (src) => !src.includes(`${path.sep}build${path.sep}`) });
  console.log(
    `native: building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (ABI ${abi}, ${arch})…`,
  );
  execFileSync(
    process.execPath,
    [
      require.resolve('node-gyp/bin/node-gyp.js'),
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      `--arch=${arch}`,
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, stdio: 'inherit' },
  );
  fs.mkdirSync(outDir, { recursive: true });
  fs.copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), path.join(outDir, 'better_sqlite3.node'));
  fs.writeFileSync(stamp, JSON.stringify(want));
  fs.rmSync(work, { recursive: true, force: true });
}
