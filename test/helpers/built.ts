import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the test run built at its start (test/setup/global.ts): the screens, and the CLI, host and
 * threads bundled from the sources. Null outside a test run (the soak, the bench, the quick lane), where
 * the helpers start the sources through tsx as `bin/` and `npm run serve` do.
 */
export function builtForRun(): { screens: string; cli: string; host: string } | null {
  const dir = process.env['BRICK_WORK_BUILT'];
  if (dir === undefined || dir === '' || !fs.existsSync(dir)) return null;
  return {
    screens: path.join(dir, 'screens'),
    cli: path.join(dir, 'node', 'cli.js'),
    host: path.join(dir, 'node', 'host.js'),
  };
}

/** What `node` runs for the browser host: the run's bundle, else the sources through tsx (`npm run serve`). */
export function hostArgs(): string[] {
  const run = builtForRun();
  if (run !== null) return [run.host];
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  return ['--import', 'tsx', path.join(root, 'src', 'host', 'main.ts')];
}
