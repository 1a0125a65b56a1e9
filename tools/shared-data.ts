/**
 * Where the real data beside the project is (../shared/data): read in place, never copied into it. Shared
 * by the benches, the scripts and the tests' sets (`tools/`), so that none of them imports another's folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data');

/** A file of the real data, or null when it is absent. */
export function shared(...parts: string[]): string | null {
  const file = path.join(SHARED, ...parts);
  return fs.existsSync(file) ? file : null;
}
