/**
 * The screens for `npm run serve` (issue 64 §6): built into dist/renderer only when their sources changed
 * since the last build there (`screens-stamp.ts`), so a second start takes a second, not half a minute.
 * `--outDir DIR` builds elsewhere; `--check` only says whether a build is needed (exit 1 when it is).
 * `npm run build` and the packaging steps always build afresh.
 */
import path from 'node:path';
import { ROOT, staleness } from './screens-stamp.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--outDir');
const asked = at >= 0 ? args[at + 1] : undefined;
const outDir = path.resolve(asked ?? path.join(ROOT, 'dist', 'renderer'));
const { why, builtAt } = staleness(outDir);
if (why === null) {
  console.log(`The screens are up to date (built ${builtAt ?? 'before'}): not built again.`);
  process.exit(0);
}
if (args.includes('--check')) {
  console.log(`The screens need building: ${why}.`);
  process.exit(1);
}
console.log(`Building the screens (${why})…`);
const { build } = await import('vite');
await build({
  configFile: path.join(ROOT, 'vite.renderer.config.ts'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
});
