import { describe, expect, it } from 'vitest';
import { median, percentile } from './helpers/stats.ts';

// Issue 27: one percentile (nearest rank) for the bench and the tests; no samples is an error, never 0 ms.
describe('the one percentile', () => {
  it('is the nearest rank, whatever order the samples come in', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentile(samples, 0.99)).toBe(99);
    expect(percentile(samples, 0.95)).toBe(95);
    expect(percentile(samples, 1)).toBe(100);
    expect(percentile([7], 0.5)).toBe(7);
    expect(percentile([1, 2, 3], 0.5)).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('refuses no samples and a rank outside (0, 1]', () => {
    expect(() => percentile([], 0.99)).toThrow(/no samples/);
    expect(() => median([])).toThrow(/no samples/);
    expect(() => percentile([1], 0)).toThrow(/of \(0, 1\]/);
    expect(() => percentile([1], 99)).toThrow(/of \(0, 1\]/);
  });
});
