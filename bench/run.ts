/**
 * `npm run bench`: every benchmark in one run, each printed with its ratio against its named baseline
 * (SPEC §12). Exits 1 when a row is over its bar.
 */
import { formatRow, overTheBar, type BenchRow } from './report.ts';
import { benchUpgrade } from './upgrade.bench.ts';

const BENCHES: readonly (() => Promise<BenchRow>)[] = [benchUpgrade];

const rows: BenchRow[] = [];
for (const bench of BENCHES) {
  const row = await bench();
  rows.push(row);
  console.log(`${formatRow(row)}\n`);
}
const over = rows.filter(overTheBar);
console.log(over.length === 0 ? `${rows.length} benchmarks, all within their bars.` : `${over.length} of ${rows.length} benchmarks over their bars.`);
process.exitCode = over.length === 0 ? 0 : 1;
