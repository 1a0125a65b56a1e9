import { describe, expect, it } from 'vitest';
import { overlaps, runChaos } from '../helpers/chaos.ts';
import { tempDir } from '../helpers/temp.ts';

describe('four processes claiming from one store at once', () => {
  it('claim every job exactly once, and no two runs of a job overlap', async () => {
    const report = await runChaos({
      dir: tempDir(),
      jobs: 400,
      workers: 4,
      kills: 0,
      steps: 2,
      stepMs: 1,
      killEveryMs: [0, 0],
      barrier: true,
    });
    expect(report.integrity).toBe('ok');
    expect(report.states).toEqual({ done: 400 });
    expect(report.runs.size).toBe(400);
    for (const [id, runs] of report.runs) expect(runs, `job ${id}`).toHaveLength(1);
    expect([...report.effects.values()].every((n) => n === 1)).toBe(true);
    expect(report.effects.size).toBe(400);
    // The work really was shared: every worker ran jobs.
    const pids = new Set([...report.runs.values()].flat().map((r) => r.pid));
    expect(pids.size).toBe(4);
    expect(overlaps(report)).toEqual([]);
  });
});
