import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { overlaps, runChaos } from '../test/helpers/chaos.ts';
import type { BenchRow } from './report.ts';

const JOBS = 2_000;

/** SPEC §12: 4 processes racing to claim 2,000 jobs from one store: no job claimed twice; throughput. */
export async function benchClaims(): Promise<BenchRow> {
  const run = async (workers: number) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
    try {
      return await runChaos({
        dir,
        jobs: JOBS,
        workers,
        kills: 0,
        steps: 0,
        stepMs: 0,
        killEveryMs: [0, 0],
        barrier: true,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const four = await run(4);
  const one = await run(1);
  const twice =
    [...four.runs.values()].filter((r) => r.length > 1).length +
    [...four.effects.values()].filter((n) => n !== 1).length;
  const ok = twice === 0 && four.states['done'] === JOBS && overlaps(four).length === 0 && four.integrity === 'ok';
  return {
    name: `job claims: 4 processes racing over ${JOBS.toLocaleString('en')} jobs (${Math.round(JOBS / (four.ms / 1000))} jobs/s, process start-up included)`,
    ranOn: 'a store of generated jobs; each job is claimed, its effect committed, and finished',
    measuredMs: four.ms,
    baselineName: 'one process claiming the same jobs',
    baselineMs: one.ms,
    maxRatio: null,
    check: {
      what: 'no job claimed twice',
      ok,
      detail: `${twice} claimed twice, ${four.states['done'] ?? 0} of ${JOBS} done, integrity ${four.integrity}`,
    },
  };
}
