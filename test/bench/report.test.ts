/**
 * The bench's verdicts (issue 66 §8): "MISSES" means a bar was missed. A row SPEC §12 calls report only
 * (LEGO's element names: no data here holds LEGO's names) prints as such, with no verdict, whatever its
 * ratio to the goal it is read against.
 */
import { describe, expect, it } from 'vitest';
import { formatRow, missesTheBar, type BenchRow } from '../../bench/report.ts';

const row = (over: Partial<BenchRow>): BenchRow => ({
  name: 'a row',
  ranOn: 'a sample',
  measuredMs: 57.4,
  baselineName: 'the 70 % goal',
  baselineMs: 70,
  maxRatio: null,
  unit: '%',
  ...over,
});

const ratioLine = (r: BenchRow) =>
  formatRow(r)
    .split('\n')
    .find((l) => l.includes('ratio:'));

describe("the bench's verdict on a row", () => {
  it('a row below its bar misses it, and says so', () => {
    const barred = row({ minRatio: 1 });
    expect(ratioLine(barred)).toBe('  ratio:    0.82× — MISSES the bar (≥ 1×)');
    expect(missesTheBar(barred)).toBe(true);
    expect(ratioLine(row({ minRatio: 0.8 }))).toBe('  ratio:    0.82× — ok (bar ≥ 0.8×)');
  });

  it('a report-only row prints why, never MISSES, and misses nothing, even with a bar left on it', () => {
    for (const over of [{}, { minRatio: 1 }, { maxRatio: 0.5 }]) {
      const reported = row({ ...over, reportOnly: "SPEC §12: the data here has no table of LEGO's names" });
      expect(formatRow(reported)).not.toContain('MISSES');
      expect(ratioLine(reported)).toBe(
        "  ratio:    0.82× — report only: SPEC §12: the data here has no table of LEGO's names",
      );
      expect(missesTheBar(reported)).toBe(false);
    }
  });

  it('a row with no bar reports only; a check it fails is still missed, on its own line', () => {
    expect(ratioLine(row({}))).toBe('  ratio:    0.82× — report only');
    expect(missesTheBar(row({}))).toBe(false);
    const checked = row({
      reportOnly: 'throughput reported',
      check: { what: 'no job claimed twice', ok: false, detail: '1 claimed twice' },
    });
    expect(formatRow(checked)).not.toContain('MISSES');
    expect(formatRow(checked)).toContain('  check:    no job claimed twice: NO (1 claimed twice)');
    expect(missesTheBar(checked)).toBe(true);
  });
});
