import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './report.ts';
import { runPabElements } from './pab-elements.ts';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data');

const CATALOGUES = {
  bricklink: 'a BrickLink-numbered catalogue',
  rebrickable: "Rebrickable's parts download as the catalogue",
} as const;

/**
 * SPEC §12 (issue 43, point 5): a Pick a Brick list made from the PAB inventory's element ids, ≥ 99.5 %
 * placed on its item and colour — in a catalogue of BrickLink's numbers, and in Rebrickable's.
 */
export async function benchElements(): Promise<(BenchRow | { skipped: string })[]> {
  const rows: (BenchRow | { skipped: string })[] = [];
  for (const catalogue of ['bricklink', 'rebrickable'] as const) {
    const run = await runPabElements(SHARED, catalogue);
    if (run === null) {
      rows.push({
        skipped: 'pick a brick list: skipped, the PAB inventory or the translation tables are not in ../shared/data',
      });
      continue;
    }
    const placed = run.right + run.renamed + run.refiled;
    rows.push({
      name: `a Pick a Brick list (elementId,quantity) from the PAB inventory’s element ids, ${catalogue === 'bricklink' ? 'BrickLink' : 'Rebrickable'} catalogue: placed on its item and colour`,
      ranOn: `the PAB inventory's ${run.lots.toLocaleString('en-US')} lots (../shared/data), ${CATALOGUES[catalogue]} and the translation tables`,
      measuredMs: (100 * placed) / run.lots,
      baselineName: 'all of its lines',
      baselineMs: 100,
      maxRatio: null,
      minRatio: 0.995,
      unit: '%',
      details: [
        `right ${run.right}, by a number BrickLink renamed since ${run.renamed}, where BrickLink's codes file the element today ${run.refiled}; wrong item ${run.wrongItem}, wrong colour ${run.wrongColour}, unplaced ${run.unplaced}; placed in ${Math.round(run.placeMs)} ms`,
        ...run.examples.map((e) => `  ${e}`),
      ],
    });
  }
  return rows;
}
