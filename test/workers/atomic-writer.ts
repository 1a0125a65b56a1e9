/** Rewrites FILE atomically in a loop with large, self-checking JSON, until killed. argv: FILE */
import { writeFileAtomically } from '../../src/platform/files.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: atomic-writer FILE');
// One whole write before "ready": a kill that lands before the loop's first rename (a slow machine)
// would otherwise leave no file at all, which says nothing about tearing.
writeFileAtomically(file, JSON.stringify({ i: -1, filler: '', length: 0 }));
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const filler = 'x'.repeat(200_000 + (i % 7) * 10_000);
  writeFileAtomically(file, JSON.stringify({ i, filler, length: filler.length }));
}
