import v8 from 'node:v8';
import vm from 'node:vm';

/** One row of `npm run bench`: what ran, against which baseline, the ratio, and the bar it must meet. */
export interface BenchRow {
  readonly name: string;
  readonly ranOn: string;
  readonly measuredMs: number;
  readonly baselineName: string;
  readonly baselineMs: number;
  /** The bar for measured / baseline: at most `maxRatio`, at least `minRatio`; neither: the row only reports. */
  readonly maxRatio: number | null;
  readonly minRatio?: number;
  /**
   * Why the row only reports where SPEC §12 says so, its baseline a goal and no bar (e.g. no data here to
   * hold it to one): printed in place of a verdict, and its ratio never misses.
   */
  readonly reportOnly?: string;
  /** A condition the run must meet besides its ratio (e.g. "no job claimed twice"), and whether it did. */
  readonly check?: { readonly what: string; readonly ok: boolean; readonly detail: string };
  /** What `measuredMs` and `baselineMs` count: milliseconds (the default), a percentage (e.g. hit@5), or megabytes (a heap). */
  readonly unit?: 'ms' | '%' | 'MB';
  /** Lines printed under the row (e.g. the table a quality row is read from). */
  readonly details?: readonly string[];
}

export { median, percentile } from '../test/helpers/stats.ts';
import { median, percentile } from '../test/helpers/stats.ts';

/** What `timePerName` measured: the p99 over names of each name's median, and the samples as they came. */
export interface PerNameLatency {
  readonly p99: number;
  readonly rawP99: number;
  readonly mean: number;
  readonly max: number;
  /** How many samples were over the bar given. */
  readonly over: number;
  readonly samples: number;
}

/**
 * Times `run` on every name, `rounds` times over, and takes the p99 over names of each name's median time:
 * a name that is slow is slow in every round, while a stall of the machine (a virtual machine here stalls
 * a few ms every 50 ms or so, whatever runs) lands in one round of one name. The samples as they came are
 * summed up beside it (their p99, mean, worst, and how many were over `bar`).
 */
export function timePerName(
  names: readonly string[],
  rounds: number,
  run: (name: string) => unknown,
  bar: number,
): PerNameLatency {
  const times: number[][] = [];
  for (let round = 0; round < rounds; round++) {
    const row: number[] = [];
    for (const name of names) {
      const t = performance.now();
      run(name);
      row.push(performance.now() - t);
    }
    times.push(row);
  }
  return perNameLatency(times, bar);
}

/** The statistics of `timePerName` over `times[round][name]`. */
export function perNameLatency(times: readonly (readonly number[])[], bar: number): PerNameLatency {
  const names = times[0]?.length ?? 0;
  const medians = Array.from({ length: names }, (_, i) => median(times.map((round) => round[i] as number)));
  const all = times.flat();
  return {
    p99: percentile(medians, 0.99),
    rawP99: percentile(all, 0.99),
    mean: all.reduce((a, b) => a + b, 0) / all.length,
    max: Math.max(...all),
    over: all.filter((t) => t > bar).length,
    samples: all.length,
  };
}

export function ratioOf(row: BenchRow): number {
  return row.measuredMs / row.baselineMs;
}

function ratioMisses(row: BenchRow): boolean {
  if (row.reportOnly !== undefined) return false;
  const r = ratioOf(row);
  return (row.maxRatio !== null && r > row.maxRatio) || (row.minRatio !== undefined && r < row.minRatio);
}

export function missesTheBar(row: BenchRow): boolean {
  return ratioMisses(row) || row.check?.ok === false;
}

/** What the row's ratio says: met or missed its bar, or, a row without one, that it only reports. */
function verdictOf(row: BenchRow): string {
  if (row.reportOnly !== undefined) return `report only: ${row.reportOnly}`;
  const bar = row.maxRatio !== null ? `≤ ${row.maxRatio}×` : row.minRatio !== undefined ? `≥ ${row.minRatio}×` : null;
  if (bar === null) return 'report only';
  return ratioMisses(row) ? `MISSES the bar (${bar})` : `ok (bar ${bar})`;
}

export function formatRow(row: BenchRow): string {
  const ratio = ratioOf(row);
  const verdict = verdictOf(row);
  const value = (v: number) =>
    row.unit === '%' ? `${v.toFixed(1)} %` : row.unit === 'MB' ? `${v.toFixed(1)} MB` : `${v.toFixed(3)} ms`;
  return [
    `${row.name}`,
    `  ran on:   ${row.ranOn}`,
    `  measured: ${value(row.measuredMs)}; ${row.baselineName}: ${value(row.baselineMs)}`,
    `  ratio:    ${ratio.toFixed(2)}× — ${verdict}`,
    ...(row.check ? [`  check:    ${row.check.what}: ${row.check.ok ? 'yes' : 'NO'} (${row.check.detail})`] : []),
    ...(row.details ?? []).map((d) => `  ${d}`),
  ].join('\n');
}

/** V8's `gc`, fetched once: each fetch makes a new context, which the heap then holds (megabytes). */
let gc: (() => void) | null = null;

/**
 * A full garbage collection, before a timed loop or a timed step: what earlier work left (an index built
 * three times, another group's data, a step's setup) is collected then, not inside the samples.
 */
export function collectGarbage(): void {
  if (gc === null) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
