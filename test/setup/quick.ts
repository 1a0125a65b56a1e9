/**
 * The quick lane's start (`npm run test:quick`): the CLI and threads bundled once, as for `npm test`
 * (test/setup/global.ts), and nothing else: no screens, no PostgreSQL server. Says what the lane leaves out.
 */
import { buildNode } from './global.ts';

export default async function setup(): Promise<() => void> {
  process.stdout.write(
    ' The quick lane: unit and contract tests on SQLite. npm test also runs them on PostgreSQL, and the\n' +
      ' tests of real processes killed, servers and the screens in Chromium.\n',
  );
  return buildNode();
}
