/**
 * `npm run soak [-- KILLS]`: the job fault-injection test at scale (thousands of SIGKILLs; 2,000 by
 * default). Prints what it found and exits 1 on any double run, lost job or damaged store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { overlaps, runChaos } from '../test/helpers/chaos.ts';

const kills = Number(process.argv[2] ?? 2000);
const jobs = Math.max(500, Math.ceil(kills * 2.5));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-soak-'));
console.log(`soak: ${jobs} jobs, 4 workers, ${kills} SIGKILLs, in ${dir}`);
try {
  const report = await runChaos({
    dir,
    jobs,
    workers: 4,
    kills,
    steps: 8,
    stepMs: 6,
    killEveryMs: [20, 80],
    onKill: (n) => {
      if (n % 100 === 0) console.log(`  ${n} kills`);
    },
  });
  const doubled = [...report.effects].filter(([, n]) => n !== 1).map(([id]) => id);
  const missing = jobs - report.effects.size;
  const over = overlaps(report);
  console.log(
    `kills ${report.kills}, workers started ${report.spawned}, natural exits ${report.naturalExits}, ${(report.ms / 1000).toFixed(1)} s`,
  );
  console.log(
    `job states ${JSON.stringify(report.states)}; effects committed twice: ${doubled.length}; jobs without effect: ${missing}`,
  );
  console.log(`overlapping runs: ${over.length}; integrity_check: ${report.integrity}`);
  const ok =
    doubled.length === 0 &&
    missing === 0 &&
    over.length === 0 &&
    report.integrity === 'ok' &&
    report.states['done'] === jobs;
  console.log(ok ? 'soak: ok' : 'soak: FAILED');
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
