/**
 * `npm run build:equivalents`: learns the table of renamed words that suggestions bridge (SPEC §7 rule 3)
 * and writes it to src/suggest/equivalents.ts.
 *
 * It reads the LDraw parts library's names (parts.lst, LDraw.org, CC BY 4.0), and LEGO's element names in
 * the PAB inventory's remarks, against Rebrickable's names (parts.csv) for the same part numbers, from
 * ../shared/data, and learns only from the numbers whose hash is even (tools/quality-sets.ts): the odd
 * ones are what the suggestions are measured on. Each naming is learned from on its own, then merged. For every such
 * pair, the words one name has and the other lacks are set against each other; a word `a` of LDraw's
 * naming becomes `b` of Rebrickable's when they stand in for each other often enough:
 *   - in at least MIN_PAIRS pairs, and
 *   - in at least MIN_SHARE of the pairs whose LDraw name holds `a` (the table's weight for a → b),
 *   - in at least MIN_TARGET_SHARE of the pairs where Rebrickable's name has `b` and LDraw's lacks it.
 * Words with digits, and words shorter than three letters, are never learned, except a measurement with
 * decimals (LEGO's `Ø4.9` is a pin hole). No name is typed in by hand.
 * (The learning itself is tools/equivalents-learning.ts; test/suggest/equivalents.test.ts checks the file is its output.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ldrawPairs, legoNamePairs } from '../tools/quality-sets.ts';
import { equivalentsSource, learnFromNamings } from '../tools/equivalents-learning.ts';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'suggest', 'equivalents.ts');

const sets = ldrawPairs();
if (sets === null) {
  console.error(
    'build-equivalents: ../shared/data (LDraw parts.lst.gz and Rebrickable parts.csv.gz) is not there; the table was left as it is.',
  );
  process.exit(1);
}
// LEGO's element names (the PAB inventory's, issue 24), learned from on their own, where the data has them.
const lego = (legoNamePairs()?.train ?? []).map((p) => ({ ldrawName: p.legoName, rebrickableName: p.rebrickableName }));
const table = learnFromNamings([sets.train, lego]);
const pairs = sets.train.length + lego.length;
fs.writeFileSync(OUT, equivalentsSource(table, pairs));
console.log(
  `build-equivalents: ${table.length} renamed words from ${pairs} training pairs → ${path.relative(process.cwd(), OUT)}`,
);
