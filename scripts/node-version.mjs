// The Node.js versions brick-work's scripts run on (package.json "engines": the same range). Electron 45's
// npm package fetches its binary with @electron/get, an ES module it loads with require(): that needs
// require(esm), on by default from Node.js 20.19 and 22.12. On 22.0–22.11 (and 21) it fails with
// ERR_REQUIRE_ESM, which reads as if Electron "could not be fetched"; so `npm start` and `npm run dist`
// check the version first and say what to install.
export const NODE_RANGE = '^20.19 || >=22.12';

/** Whether this Node.js (a version like "22.11.0") can run Electron's installer: ^20.19 || >=22.12. */
export function nodeSupported(version) {
  const [major, minor] = version.split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22;
}

/** Exits 1 with one plain message (no stack trace) when this Node.js is not one of them. */
export function checkNode(version = process.versions.node) {
  if (nodeSupported(version)) return;
  console.error(
    `brick-work: Node.js ${version} can't install or start Electron 45, which needs require() of ES modules ` +
      '(on by default from Node.js 20.19 and 22.12).\n' +
      'Install Node.js 22.12 or later (the current LTS from https://nodejs.org), or 20.19 or later, then run  npm ci  again.',
  );
  process.exit(1);
}
