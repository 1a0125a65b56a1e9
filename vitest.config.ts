import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirst from './test/setup/sequencer.ts';

/**
 * Test files that start servers, kill processes or run for long: `npm test` runs them, the quick lane
 * does not. (The PostgreSQL halves of the contract tests are tagged `postgres` by describeEachStore.)
 */
const INTEGRATION = [
  'test/api/desk-name.test.ts',
  'test/pictures/host.test.ts',
  'test/api/off-main-thread.test.ts',
  'test/api/previews-off-writer.test.ts',
  'test/stock/stock-lookup-threads.test.ts',
  'test/jobs/dead-desk.test.ts',
  'test/jobs/dead-desk-taken-up.test.ts',
  'test/app/waiting.test.ts',
  'test/host/start-under-lock.test.ts',
  'test/host/screens-build.test.ts',
  'test/catalogue/load-cut.test.ts',
  'test/catalogue/other-desk-progress.test.ts',
  'test/catalogue/load-kill.test.ts',
  'test/catalogue/place-again-batches.test.ts',
  'test/catalogue/load.test.ts',
  'test/catalogue/lookup.test.ts',
  'test/cli/jobs.test.ts',
  'test/electron/built-app.test.ts',
  'test/exports/round-trip.test.ts',
  'test/electron/check-electron.test.ts',
  'test/electron/notarization.test.ts',
  'test/cli/sqlite-not-built.test.ts',
  'test/electron/native-electron.test.ts',
  'test/electron/packaged-imports.test.ts',
  'test/electron/packaged-app.test.ts',
  'test/cli/too-big.test.ts',
  'test/cli/stock.test.ts',
  'test/cli/pick.test.ts',
  'test/cli/put-away.test.ts',
  'test/cli/closed-pipe.test.ts',
  'test/cli/hostile-models.test.ts',
  'test/cli/hostile-catalogue-files.test.ts',
  'test/cli/hostile-documents.test.ts',
  'test/host/hostile-catalogue.test.ts',
  'test/host/start-words.test.ts',
  'test/catalogue/lookup-refused-at-once.test.ts',
  'test/electron/packaging-build.test.ts',
  'test/ci-workflow.test.ts',
  'test/electron/shop-server.test.ts',
  'test/identity/liveness.test.ts',
  'test/jobs/catalogue-job.test.ts',
  'test/jobs/claims.test.ts',
  'test/jobs/fault-injection.test.ts',
  'test/jobs/race.test.ts',
  'test/jobs/runner-restart.test.ts',
  'test/jobs/session-owners.test.ts',
  'test/store/copy.test.ts',
  'test/store/postgres/**/*.test.ts',
  'test/store/trouble.test.ts',
  'test/store/left-untouched.test.ts',
  'test/store/upgrade-kill.test.ts',
];

/** The screens in a real browser (Chromium). */
const E2E = ['test/e2e/**/*.test.ts', 'test/host/token.test.ts'];

/**
 * Browser walks that also time the screens (a gross slowdown fails them; the bars are `npm run bench`'s):
 * they run after the rest, one at a time, on a machine the other tests have left quiet.
 */
const E2E_TIMED = ['test/e2e/morning.test.ts', 'test/e2e/app.test.ts', 'test/e2e/stock.test.ts'];

const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
  test: TestProjectInlineConfiguration['test'] = {},
): TestProjectInlineConfiguration => ({ extends: true, test: { name, include, exclude, ...test } });

/**
 * Two lanes (docs/development.md): `npm run test:quick` (`--mode quick`: the unit project on SQLite, no browser, no
 * server, no kills; minutes) while working, and `npm test` (every project: real processes, PostgreSQL,
 * Chromium) before a submission and in CI.
 */
export default defineConfig(({ mode }) => {
  const quick = mode === 'quick';
  return {
    test: {
      // Real processes, real files: test files run in forked processes, each process taking file after
      // file without loading every module again (isolate off: a third less work; the suite's few
      // module mocks are vitest's own, per file, and its stubbed globals are undone after each test).
      pool: 'forks',
      isolate: false,
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // Three at a time on two cores: test files wait on child processes, servers and the disk as well
      // as compute. (Four starve the walks and the timed tests.)
      maxWorkers: 3,
      sequence: { sequencer: LongestFirst },
      globalSetup: [quick ? 'test/setup/quick.ts' : 'test/setup/global.ts'],
      tags: [
        {
          name: 'postgres',
          description: 'on a PostgreSQL server (npm test starts one for the run; the quick lane leaves these out)',
        },
      ],
      reporters: ['./test/setup/assertions-reporter.ts', 'default'],
      setupFiles: ['./test/setup/count-assertions.ts'],
      projects: quick
        ? [project('unit', ['test/**/*.test.ts'], [...INTEGRATION, ...E2E])]
        : [
            project('unit', ['test/**/*.test.ts'], [...INTEGRATION, ...E2E]),
            // Kills, soaks and servers: each test sets its own time where it needs more.
            project('integration', INTEGRATION, [], { testTimeout: 120_000, hookTimeout: 120_000 }),
            project('e2e', E2E, E2E_TIMED, { testTimeout: 180_000, hookTimeout: 180_000 }),
            project('e2e-timed', E2E_TIMED, [], {
              testTimeout: 180_000,
              hookTimeout: 180_000,
              maxWorkers: 1,
              sequence: { groupOrder: 1 },
            }),
          ],
    },
  };
});
