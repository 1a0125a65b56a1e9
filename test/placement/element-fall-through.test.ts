import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { planImport } from '../../src/documents/import.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { csv, file } from '../helpers/documents.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * Issue 43, point 5: an element id whose first table (BrickLink's codes) names a number the catalogue
 * lacks, or several, is placed by the next table (Rebrickable's elements) where that names one part.
 */
describeEachStore('element ids: the next table decides (issue 43, point 5)', () => {
  it("places 9327 on Rebrickable's 970c27 and 379401 on 15573, and says so of an element no table places", async () => {
    const path = newStoreLocation();
    const store = await openStore(path);
    onTestFinished(() => store.close());
    const load = (name: string, text: string) =>
      loadCatalogue(store.db, path, [{ name, content: bytes(text) }], {
        type: null,
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
    await load(
      'parts.csv',
      files.rebrickableParts([
        { no: '970c27', name: 'Hips and Legs with Black Boots' },
        { no: '3794a', name: 'Plate Special 1 x 2 with 1 Stud without Groove' },
        { no: '3794b', name: 'Plate Special 1 x 2 with 1 Stud with Groove' },
        { no: '15573', name: 'Plate Special 1 x 2 with 1 Stud with Groove and Inside Stud Holder' },
      ]),
    );
    await load('colors.txt', files.bricklinkColoursTab([{ id: 1, name: 'White' }]));
    await load(
      'colors.json',
      files.rebrickableColourTable([{ id: 15, name: 'White', bricklink: { id: 1, name: 'White' } }]),
    );
    // BrickLink files 9327 under 970c00 (not in this catalogue) and 379401 under both 3794a and 3794b.
    await load(
      'codes.txt',
      files.bricklinkCodes([
        { no: '970c00', colour: 'White', element: '9327' },
        { no: '3794a', colour: 'White', element: '379401' },
        { no: '3794b', colour: 'White', element: '379401' },
      ]),
    );
    await load(
      'elements.csv',
      files.rebrickableElements([
        { element: '9327', part: '970c27', colour: 15 },
        { element: '379401', part: '15573', colour: 15 },
      ]),
    );
    const list = csv(
      ['elementId', 'quantity'],
      [
        ['9327', 1],
        ['379401', 2],
        ['4580964', 1],
      ],
    );
    const plan = planImport(store.db, { file: file('pab.csv', list) });
    expect(
      plan.documents[0]?.lines.map((l) => {
        const p = l.placement;
        return p.item === null
          ? [l.given.no, p.reason]
          : [l.given.no, `${p.item.no}/${p.colourId}`, 'via' in p ? p.via : null];
      }),
    ).toEqual([
      ['9327', '970c27/1', 'element 9327'],
      ['379401', '15573/1', 'element 379401'],
      ['4580964', 'The element id is not known'],
    ]);
  });
});
