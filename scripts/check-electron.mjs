// Checks, before `npm start` or `npm run dist` builds anything, that this Node.js can run Electron's
// installer (scripts/node-version.mjs) and that Electron's binary is there. Electron 45's npm package
// has no install script: its binary is fetched the first time it is asked for. So when the binary is
// missing, this runs Electron's own installer (`install.js`, as `electron` itself would), quietly, and
// checks again; only where that can't fetch it (no GitHub) it prints one plain message and exits 1 —
// never the installer's stack trace.
//
//   node scripts/check-electron.mjs
//
// Tests stand in for the package and its installer: BRICK_WORK_ELECTRON_DIR (a folder laid out as the
// electron package) and BRICK_WORK_ELECTRON_INSTALLER (a script run in place of its install.js).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { checkNode } from './node-version.mjs';

checkNode();
const require = createRequire(import.meta.url);
let dir = process.env.BRICK_WORK_ELECTRON_DIR || null;
if (dir === null) {
  try {
    dir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    fail('the electron package is not installed; run npm install first.');
  }
}
if (process.env.ELECTRON_OVERRIDE_DIST_PATH || binaryThere(dir)) process.exit(0);

console.error('brick-work: fetching the Electron binary from GitHub (once; Electron keeps it in its cache)…');
const installer = process.env.BRICK_WORK_ELECTRON_INSTALLER || path.join(dir, 'install.js');
const run = spawnSync(process.execPath, [installer], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
if (run.status === 0 && binaryThere(dir)) process.exit(0);

fail(
  `the Electron binary is not installed, and Electron's installer could not fetch it from GitHub (${why(run)}).\n` +
    "On a machine that reaches GitHub, npm start fetches it by itself. Behind a proxy, Electron's downloader uses\n" +
    'one only when ELECTRON_GET_USE_PROXY is set:\n' +
    "  ELECTRON_GET_USE_PROXY=1 HTTPS_PROXY=http://proxy.example:3128 npm start   (your proxy's address)\n" +
    proxyIgnored() +
    "Or point ELECTRON_MIRROR at a mirror of Electron's releases, and run npm start again.\n" +
    'Without it, run the same app in a browser:  npm run serve',
);

/**
 * A line for a proxy set here that the downloader did not use: @electron/get 5 routes its requests
 * through HTTPS_PROXY/HTTP_PROXY (undici's EnvHttpProxyAgent) only when ELECTRON_GET_USE_PROXY is set.
 */
function proxyIgnored() {
  const named = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].find((n) => process.env[n]);
  if (named === undefined || process.env.ELECTRON_GET_USE_PROXY) return '';
  return `(${named} is set here, but without ELECTRON_GET_USE_PROXY the downloader did not use it.)\n`;
}

/** Whether the electron package in `folder` has its binary. */
function binaryThere(folder) {
  const pathFile = path.join(folder, 'path.txt');
  if (!fs.existsSync(pathFile)) return false;
  return fs.existsSync(path.join(folder, 'dist', fs.readFileSync(pathFile, 'utf8').trim()));
}

/** The installer's failure in a few words: the first line of what it said that names a cause. */
function why(result) {
  if (result.error) return result.error.message;
  const said = `${result.stderr ?? ''}\n${result.stdout ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /error|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|status|failed/i.test(l) && !/^at /.test(l));
  return (said ?? `it ended with status ${result.status}`).replace(/^Error:\s*/, '').slice(0, 200);
}

function fail(message) {
  console.error(`brick-work: ${message}`);
  process.exit(1);
}
