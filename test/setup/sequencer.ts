import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, which start first so that a run's end is not one of them running alone.
 * Vitest orders by the last run's durations where it has them (a developer's machine); CI starts from a
 * fresh clone, without them. Soaks and kill loops, mostly waiting.
 */
export const LONGEST_FIRST = [
  'test/jobs/fault-injection.test.ts',
  'test/catalogue/load-kill.test.ts',
  'test/store/trouble.test.ts',
  'test/catalogue/load.test.ts',
  'test/store/copy.test.ts',
];

function rank(spec: TestSpecification): number {
  const file = path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/');
  const i = LONGEST_FIRST.indexOf(file);
  return i < 0 ? LONGEST_FIRST.length : i;
}

/** Vitest's own order (groups, then the last run's durations or file sizes), the longest files first. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const order = new Map(sorted.map((spec, i) => [spec, i]));
    return sorted.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }
}
