/**
 * The one percentile and the one median of the repository (bench rows and test measurements alike).
 * No samples is an error: a measurement that took none must not read as 0 ms.
 */

/** The nearest-rank percentile `p` (0–1] of the samples, in any order: 0.95 is the p95, 1 the worst. */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p > 0 && p <= 1)) throw new Error(`a percentile is of (0, 1], not ${p}`);
  const sorted = ascending(samples);
  return sorted[Math.ceil(sorted.length * p) - 1] as number;
}

/** The middle sample, or the mean of the middle two. */
export function median(samples: readonly number[]): number {
  const sorted = ascending(samples);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function ascending(samples: readonly number[]): number[] {
  if (samples.length === 0) throw new Error('no samples: nothing was measured');
  return [...samples].sort((a, b) => a - b);
}
