import { describe, expect, it } from 'vitest';
import { runPabElements } from '../../bench/pab-elements.ts';
import { SHARED_DATA, sharedFile } from '../helpers/shared-data.ts';
import { needs } from '../helpers/needs.ts';

/**
 * Issue 43's bar on the real data (SPEC §12): the PAB inventory's element ids, as a Pick a Brick list,
 * placed on the inventory's item and colour (or where BrickLink's codes file the element today) for
 * ≥ 99.5 % of its lots, in a BrickLink-numbered catalogue and in Rebrickable's. Without ../shared/data the
 * same placement is proven on fixtures (other-numberings.test.ts).
 */
describe('a Pick a Brick list made from the real PAB inventory', () => {
  const present = sharedFile('brickstore-bsx', 'PAB_inventory_US_July_22_2012.bsx') !== null;
  it.runIf(needs(present, 'the PAB inventory in ../shared/data', 'the Pick a Brick placement check'))(
    'places at least 99.5 % of its lines on the inventory’s item and colour, whichever numbering the catalogue speaks',
    async () => {
      for (const catalogue of ['bricklink', 'rebrickable'] as const) {
        const run = await runPabElements(SHARED_DATA, catalogue);
        expect(run).not.toBeNull();
        if (run === null) return;
        expect(run.lots).toBe(1532);
        expect(
          (run.right + run.renamed + run.refiled) / run.lots,
          `${catalogue}: ${run.examples.join('\n')}`,
        ).toBeGreaterThanOrEqual(0.995);
      }
    },
    120_000,
  );
});
