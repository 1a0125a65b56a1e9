/**
 * The memory bar's own measure (`test/workers/peak-rss.mjs`): a child's peak is its own, not that of the
 * process it was started from. getrusage's maxRSS carries the parent's mark across exec on Linux, so every
 * child of a test process grown past 200 MB (a full run's worker) reported that instead, and the bars of
 * too-big, hostile-models, hostile-documents and hostile-catalogue-files failed in a full run only.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { MB200, PEAK_RSS, peakKbOf } from '../helpers/peak-rss.ts';

it('a small child of a 600 MB process reports its own peak, far under the bar', () => {
  // The big parent is a process of its own: this test's worker stays as it is.
  const parent = `
    const { spawnSync } = require('node:child_process');
    const hog = Buffer.alloc(600 * 1024 * 1024, 1);
    const r = spawnSync(process.execPath, ['--import', ${JSON.stringify(PEAK_RSS)}, '-e', '0'], { encoding: 'utf8' });
    process.stdout.write(r.stderr + ' ' + hog.length);
  `;
  const r = spawnSync(process.execPath, ['-e', parent], { encoding: 'utf8' });
  const kb = peakKbOf(r.stdout);
  expect(kb).toBeGreaterThan(10 * 1024); // a node process: some tens of MB
  expect(kb).toBeLessThan(MB200);
});
