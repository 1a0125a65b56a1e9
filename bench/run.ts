/**
 * `npm run bench`: every benchmark of SPEC §12 in one run, each printed with its ratio against its named
 * baseline and its bar. Exits 1 when a row misses its bar.
 */
import { execFileSync } from 'node:child_process';
import { benchCatalogueLoad } from './catalogue-load.bench.ts';
import { benchClaims } from './claims.bench.ts';
import { benchImport } from './import.bench.ts';
import { formatRow, missesTheBar, type BenchRow } from './report.ts';
import { benchSuggest } from './suggest.bench.ts';
import { benchUpgrade } from './upgrade.bench.ts';

function hasSqliteShell(): boolean {
  try {
    execFileSync('sqlite3', ['-version']);
    return true;
  } catch {
    return false;
  }
}

const rows: BenchRow[] = [];
const print = (row: BenchRow) => {
  rows.push(row);
  console.log(`${formatRow(row)}\n`);
};

if (hasSqliteShell()) print(await benchCatalogueLoad());
else console.log('catalogue load: skipped, the sqlite3 shell (its baseline) is missing: apt-get install -y sqlite3\n');
const suggest = benchSuggest();
print(suggest.p99);
print(suggest.fuse);
const imports = await benchImport();
print(imports.importRow);
print(imports.insertOnlyRow);
print(imports.undoRow);
print(await benchClaims());
print(await benchUpgrade());

const missed = rows.filter(missesTheBar);
console.log(missed.length === 0 ? `${rows.length} rows, all within their bars.` : `${missed.length} of ${rows.length} rows miss their bars: ${missed.map((r) => r.name).join('; ')}`);
process.exitCode = missed.length === 0 ? 0 : 1;
