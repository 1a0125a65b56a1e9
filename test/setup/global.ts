/**
 * The test run's start and end (`npm test`). Once per run:
 * - the CLI, the browser host and the core's threads, bundled from this checkout's sources
 *   (vite.node.config.ts): tests start them as built, and a thread a test starts in its own process from
 *   the sources is started from its bundle (`BRICK_WORK_BUILT_THREADS`, src/platform/worker-start.ts);
 * - the screens, built into one folder that every browser test's host serves;
 * - a folder for the run (`BRICK_WORK_TEST_RUN`), where the first file that needs PostgreSQL starts the
 *   run's one cluster (test/helpers/postgres.ts), stopped here at the end.
 * They reach the test files' processes as environment variables, which those inherit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { nodeBuild } from '../../vite.node.config.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { stopSharedPostgres } from '../helpers/postgres.ts';

/** A new folder for this run's builds, inside the checkout (so bundles find its node_modules). */
function builtFolder(): string {
  fs.mkdirSync(path.join(REPO_ROOT, 'test-results'), { recursive: true });
  const built = fs.mkdtempSync(path.join(REPO_ROOT, 'test-results', 'built-'));
  // Readable by all: some tests start the host and the CLI as an unprivileged user.
  fs.chmodSync(built, 0o755);
  process.env['BRICK_WORK_BUILT'] = built;
  process.env['BRICK_WORK_BUILT_THREADS'] = path.join(built, 'node');
  return built;
}

/** The CLI, host and threads bundled (a second or two); returns what removes them. */
export async function buildNode(): Promise<() => void> {
  const built = builtFolder();
  await build(nodeBuild(path.join(built, 'node')));
  return () => fs.rmSync(built, { recursive: true, force: true });
}

export default async function setup(): Promise<() => void> {
  const built = builtFolder();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-run-'));
  process.env['BRICK_WORK_TEST_RUN'] = runDir;
  await Promise.all([
    build(nodeBuild(path.join(built, 'node'))),
    build({
      configFile: path.join(REPO_ROOT, 'vite.renderer.config.ts'),
      logLevel: 'error',
      build: { outDir: path.join(built, 'screens'), emptyOutDir: true },
    }),
  ]);
  return () => {
    stopSharedPostgres(runDir);
    fs.rmSync(runDir, { recursive: true, force: true });
    fs.rmSync(built, { recursive: true, force: true });
  };
}
