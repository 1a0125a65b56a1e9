/**
 * Counts each test's assertions (`expect` calls) into its meta, so the run can say how many it made
 * (test/setup/assertions-reporter.ts): a change to the suite's shape is checked to keep every one.
 */
import { afterEach, expect } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    assertions?: number;
  }
}

afterEach((context) => {
  context.task.meta.assertions = expect.getState().assertionCalls;
});
