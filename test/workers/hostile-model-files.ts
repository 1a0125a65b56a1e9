/**
 * Writes issue 62's hostile models into the folder given (test/cli/hostile-models.test.ts). Made here, in
 * a process of their own, not in the test's: a child's peak RSS counts its parent's memory at the fork
 * (Linux keeps the high-water mark across exec), and making them takes hundreds of megabytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { distinctPartsLdr, manyEntriesIo, slashNamesIo, studioFile, submodelMpd } from '../helpers/hostile-models.ts';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: hostile-model-files FOLDER');
const colours = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);
const files: Record<string, () => string | Uint8Array> = {
  'slashes.io': slashNamesIo,
  'crowd.io': () => manyEntriesIo(65_001),
  'reused.io': () => studioFile(submodelMpd(10_000, [16], 100_000)),
  'colours.io': () => studioFile(submodelMpd(20_000, colours(1_000))),
  'flat.ldr': () => distinctPartsLdr(480_000),
};
for (const [name, make] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), make());
