import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './report.ts';
import { runPabElements } from './pab-elements.ts';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data');

/** SPEC §12: a Pick a Brick list made from the PAB inventory's element ids, ≥ 98 % placed on its item and colour. */
export async function benchElements(): Promise<BenchRow | { skipped: string }> {
  const run = await runPabElements(SHARED);
  if (run === null)
    return {
      skipped: 'pick a brick list: skipped, the PAB inventory or the translation tables are not in ../shared/data',
    };
  const placed = run.right + run.renamed;
  return {
    name: 'a Pick a Brick list (elementId,quantity) from the PAB inventory’s element ids: placed on its item and colour',
    ranOn: `the PAB inventory's ${run.lots.toLocaleString('en-US')} lots (../shared/data), a BrickLink-numbered catalogue and the translation tables`,
    measuredMs: (100 * placed) / run.lots,
    baselineName: 'all of its lines',
    baselineMs: 100,
    maxRatio: null,
    minRatio: 0.98,
    unit: '%',
    details: [
      `right ${run.right}, right by a number BrickLink renamed since ${run.renamed}, wrong item ${run.wrongItem}, wrong colour ${run.wrongColour}, unplaced ${run.unplaced}; placed in ${Math.round(run.placeMs)} ms`,
      ...run.examples.map((e) => `  ${e}`),
    ],
  };
}
