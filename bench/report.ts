/** One row of `npm run bench`: what ran, against which baseline, the ratio, and the bar it must meet. */
export interface BenchRow {
  readonly name: string;
  readonly ranOn: string;
  readonly measuredMs: number;
  readonly baselineName: string;
  readonly baselineMs: number;
  /** The bar for measured / baseline (≤), or null when the row only reports. */
  readonly maxRatio: number | null;
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function formatRow(row: BenchRow): string {
  const ratio = row.measuredMs / row.baselineMs;
  const verdict = row.maxRatio === null ? 'report' : ratio <= row.maxRatio ? `ok (bar ≤ ${row.maxRatio}×)` : `OVER the bar of ${row.maxRatio}×`;
  return [
    `${row.name}`,
    `  ran on:   ${row.ranOn}`,
    `  measured: ${row.measuredMs.toFixed(1)} ms; ${row.baselineName}: ${row.baselineMs.toFixed(1)} ms`,
    `  ratio:    ${ratio.toFixed(2)}× — ${verdict}`,
  ].join('\n');
}

export function overTheBar(row: BenchRow): boolean {
  return row.maxRatio !== null && row.measuredMs / row.baselineMs > row.maxRatio;
}
