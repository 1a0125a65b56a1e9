import { describe, expect, it } from 'vitest';
import { overlaps, runChaos } from '../helpers/chaos.ts';
import { tempDir } from '../helpers/temp.ts';

describe('workers killed with SIGKILL while running jobs', () => {
  it('after 100+ kills, every job is done exactly once, nothing is stuck, and the store is intact', async () => {
    const report = await runChaos({
      dir: tempDir(),
      jobs: 300,
      workers: 4,
      kills: 110,
      steps: 8,
      stepMs: 6,
      killEveryMs: [30, 90],
    });
    expect(report.kills).toBeGreaterThanOrEqual(100);
    expect(report.integrity).toBe('ok');
    expect(report.states).toEqual({ done: 300 });
    expect(report.effects.size).toBe(300);
    for (const [id, n] of report.effects) expect(n, `effect of job ${id}`).toBe(1);
    // Killed runs really were mid-job, and their jobs were finished by someone else.
    const interrupted = [...report.runs.values()].flat().filter((r) => !r.finished);
    expect(interrupted.length).toBeGreaterThanOrEqual(100);
    expect(overlaps(report)).toEqual([]);
  }, 240_000);
});
