import { describe, expect, it } from 'vitest';
import { perNameLatency } from '../bench/report.ts';
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

// The bench's suggestion rows: each name's median over the rounds, then the p99 over names.
describe('latency per name', () => {
  const rounds = (n: number, at: (round: number, name: number) => number) =>
    Array.from({ length: 5 }, (_, r) => Array.from({ length: n }, (_, i) => at(r, i)));

  it('a stall of the machine in one round of one name is not that name’s time, but is counted as it came', () => {
    const stalled = rounds(200, (r, i) => (r === 2 && i < 20 ? 5 : 0.3));
    const l = perNameLatency(stalled, 1);
    expect(l.p99).toBe(0.3);
    expect(l.over).toBe(20);
    expect(l.samples).toBe(1000);
    expect(l.rawP99).toBe(5);
  });

  it('a name slow in every round is slow', () => {
    const slow = rounds(200, (r, i) => (i < 3 ? 2 + r / 10 : 0.3));
    expect(perNameLatency(slow, 1).p99).toBe(2.2);
  });
});
