// Checks, before `npm start` or `npm run dist` builds anything, that this Node.js can run Electron's
// installer (scripts/node-version.mjs) and that Electron's binary is there — without asking the electron
// package for it, which would try to download it and print a stack trace where it can't. Prints one plain
// message and exits 1 when either is wrong.
//
//   node scripts/check-electron.mjs
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { checkNode } from './node-version.mjs';

checkNode();
const require = createRequire(import.meta.url);
let dir;
try {
  dir = path.dirname(require.resolve('electron/package.json'));
} catch {
  fail('the electron package is not installed; run npm install first.');
}
const pathFile = path.join(dir, 'path.txt');
const binary = fs.existsSync(pathFile) ? path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim()) : null;
if (process.env.ELECTRON_OVERRIDE_DIST_PATH || (binary !== null && fs.existsSync(binary))) process.exit(0);
fail(
  'the Electron binary is not installed (it is fetched from GitHub when npm installs Electron, and was not: ' +
    `${process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ? 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' : 'GitHub could not be reached, or the download was skipped'}).\n` +
    'To get it: on a machine that reaches GitHub, with ELECTRON_SKIP_BINARY_DOWNLOAD unset, run  npm install  again.\n' +
    'Without it, run the same app in a browser:  npm run serve',
);

function fail(message) {
  console.error(`brick-work: ${message}`);
  process.exit(1);
}
