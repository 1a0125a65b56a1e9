/**
 * Issue 60's proof on the real inventories (../shared/data): Market Street and the Tie Fighter against
 * Rebrickable's catalogue with every table loaded (BrickLink's colours and codes, Rebrickable's elements,
 * colours and cross-references). The lines the element tables give for exactly one Rebrickable item in
 * their colour are placed there (3861 White = 3861b, 3957 White = 3957b, 4032 in three colours = 4032a,
 * 3960px4 Dark Bluish Gray = 3960pr9977), saying how; what is left unplaced is what no table places in its
 * colour. Without the data it says so and proves nothing here (number-and-colour.test.ts makes its own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { planImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import { file } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { sharedFile } from '../helpers/shared-data.ts';
import { tempDir } from '../helpers/temp.ts';

const TABLES = [
  ['rebrickable', 'parts.csv.gz'],
  ['bricklink', 'colors.txt'],
  ['bricklink', 'codes.txt.gz'],
  ['rebrickable', 'elements.csv.gz'],
  ['rebrickable', 'colors-api.json.gz'],
  ['rebrickable', 'part-crossrefs.ron.gz'],
] as const;
const tables = TABLES.map((t) => sharedFile(...t));
const marketStreet = sharedFile('brickstore-bsx', 'Inventory for 10190-1 Market Street.bsx');
const tieFighter = sharedFile('brickstore-bsx', 'Tie Fighter 9492-1.bsx');
const present = marketStreet !== null && tieFighter !== null && tables.every((t) => t !== null);

describe.runIf(needs(present, '../shared/data (the inventories and every table)', 'the real inventories'))(
  'the real inventories with every table loaded (issue 60 §1, real data)',
  () => {
    it('Market Street and the Tie Fighter: each number read with its colour, the same text only where no table says otherwise', async () => {
      const storePath = path.join(tempDir(), 'brick-work.sqlite');
      const store = await openStore(storePath);
      onTestFinished(() => store.close());
      await loadCatalogue(
        store.db,
        storePath,
        (tables as string[]).map((t) => ({ name: path.basename(t), content: fs.readFileSync(t) })),
        { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
      );
      const plan = (f: string) =>
        planImport(store.db, {
          file: file(path.basename(f), fs.readFileSync(f)),
          acknowledge: ['colour-number-and-name-disagree'],
        }).documents[0]?.lines ?? [];
      const at = (lines: ReturnType<typeof plan>, no: string, colour: number) =>
        lines.find((l) => l.given.no === no && l.given.colourId === colour)?.placement;

      const market = plan(marketStreet ?? '');
      expect(at(market, '3861', 1)).toMatchObject({ item: { no: '3861b' }, colourId: 1 });
      expect(at(market, '3957', 1)).toMatchObject({ item: { no: '3957b' }, colourId: 1 });
      expect(at(market, '4032', 85)).toMatchObject({
        item: { no: '4032a' },
        via: 'BrickLink 4032 in Dark Bluish Gray = Rebrickable 4032a (element 4211042)',
      });
      const tie = plan(tieFighter ?? '');
      expect(at(tie, '3960px4', 85)).toMatchObject({ item: { no: '3960pr9977' } });
      expect(at(tie, '4032', 1)).toMatchObject({ item: { no: '4032a' } });
      expect(at(tie, '4032', 6)).toMatchObject({ item: { no: '4032a' } });

      // Fewer unplaced than before (17 and 8), and every line placed across numberings says how.
      const unplaced = (lines: typeof market) => lines.filter((l) => l.placement.item === null);
      expect(unplaced(market).length).toBeLessThanOrEqual(14);
      expect(unplaced(tie).length).toBeLessThanOrEqual(6);
      for (const l of [...market, ...tie]) {
        const p = l.placement;
        if (p.item !== null && p.item.no.toLowerCase() !== (l.given.no ?? '').toLowerCase())
          expect('via' in p ? p.via : undefined, `${l.given.no} → ${p.item.no}`).toBeTruthy();
      }
      console.info(
        `Market Street: ${unplaced(market).length} of ${market.length} unplaced; Tie Fighter: ${unplaced(tie).length} of ${tie.length}`,
      );
    }, 120_000);
  },
);
