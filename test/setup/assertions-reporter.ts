import type { Reporter, TestModule } from 'vitest/node';

/**
 * One line before the runner's own summary: how many assertions the tests that ran made (counted by
 * test/setup/count-assertions.ts), and how many were left out and why, so that no lane drops a test
 * unseen: by tag (the quick lane leaves `postgres` to `npm test`), or by what the machine lacks (each such
 * test names what, in a `skipped:` line of its own).
 */
export default class AssertionsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let assertions = 0;
    let ran = 0;
    const leftOut = new Map<string, number>();
    for (const module of modules)
      for (const test of module.children.allTests()) {
        if (test.result().state === 'skipped') {
          const why = test.tags.length > 0 ? `tagged ${test.tags.join(', ')}` : 'what this machine lacks';
          leftOut.set(why, (leftOut.get(why) ?? 0) + 1);
          continue;
        }
        ran += 1;
        assertions += (test.meta() as { assertions?: number }).assertions ?? 0;
      }
    const skipped = [...leftOut].map(([why, n]) => `${n} for ${why}`).join('; ');
    process.stdout.write(
      `\n Assertions  ${assertions.toLocaleString('en-US')} in ${ran} tests that ran` +
        (skipped === '' ? '' : ` · left out: ${skipped}`) +
        '\n',
    );
  }
}
