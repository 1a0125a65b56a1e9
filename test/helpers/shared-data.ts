import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './cli.ts';

/** The real data beside the project (../shared/data), read in place, never copied. Absent on some machines. */
export const SHARED_DATA = path.resolve(REPO_ROOT, '..', 'shared', 'data');

export function sharedFile(...parts: string[]): string | null {
  // Lets a developer run the suite as a machine without the data would (the fixtures' path).
  if (process.env['BRICK_WORK_TEST_WITHOUT_SHARED_DATA'] === '1') return null;
  const file = path.join(SHARED_DATA, ...parts);
  return fs.existsSync(file) ? file : null;
}
