import { describe, expect, it, onTestFinished } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import { suggestFor } from '../../src/suggest/catalogue-index.ts';
import { COMMON_PART_PULL, commonness, pulled, unpulled } from '../../src/suggest/commonness.ts';
import { partColours } from '../../src/suggest/part-colours.ts';
import { SuggestIndex, type IndexedItem } from '../../src/suggest/index.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

const options = { type: 'P' as const, me: identityOf(), clock: SYSTEM_CLOCK };

const part = (no: string, name: string, colours = 0): IndexedItem => ({ type: 'P', no, name, colours });

describe('a common part is pulled closer (SPEC §7 rule 3, ADR 0028)', () => {
  it('comes first among names as close, which without colours go shorter name, then number', () => {
    const items = [
      part('4032a', 'Plate Round 2 x 2 with Axle Hole Open'),
      part('4032b', 'Plate Round 2 x 2 with Axle Hole Shut', 60),
      part('3022', 'Plate 2 x 2', 80),
    ];
    const order = (index: SuggestIndex) => index.byName('Plate Round 2 x 2', 20).map((s) => s.no);
    expect(order(new SuggestIndex(items))).toEqual(['4032b', '4032a', '3022']);
    expect(order(new SuggestIndex(items.map(({ colours: _, ...it }) => it)))).toEqual(['4032a', '4032b', '3022']);
  });

  it('never passes the name that is the line’s own, however common', () => {
    const index = new SuggestIndex([part('3004', 'Brick 1 x 2'), part('2877', 'Brick 1 x 2 with Grille', 80)]);
    expect(index.byName('Brick 1 x 2', 20).map((s) => s.no)).toEqual(['3004', '2877']);
    expect(pulled(1, COMMON_PART_PULL)).toBe(1);
    expect(pulled(0, COMMON_PART_PULL)).toBe(0);
    // What a walk must see before the pull to reach a closeness after it.
    for (const c of [0.2, 0.5, 0.9]) expect(unpulled(pulled(c, COMMON_PART_PULL), COMMON_PART_PULL)).toBeCloseTo(c, 12);
  });

  it('is found by rule 3’s walk when only its pull lifts it above a closer name (the walk’s bounds count the pull)', () => {
    // "Gamma" is rarer than "Delta". The rare part's name holds "Gamma" and a word the line lacks; the
    // common part's only "Delta". Lists are walked rarest first, and the walk stops (or passes a name
    // over) when what is left could not lift a name past the last place — unless the pull could. (No
    // name begins with the line's words: rule 1 stays out of it.)
    const fillers = Array.from({ length: 40 }, (_, i) => part(`9${i}`, `Filler${i} Extra${i}`));
    const others = [part('5', 'Delta Long Words Here'), part('6', 'Delta Other Long Words')];
    const items = [part('1', 'Omega Gamma'), part('2', 'Delta', 80), ...others, ...fillers];
    const pulledFirst = new SuggestIndex(items).byName('Gamma Delta', 1);
    const plain = new SuggestIndex(items.map(({ colours: _, ...it }) => it)).byName('Gamma Delta', 1);
    expect(plain.map((s) => s.no)).toEqual(['1']);
    expect(pulledFirst.map((s) => s.no)).toEqual(['2']);
    // The same answer as when every place is filled and nothing is left unread.
    expect(new SuggestIndex(items).byName('Gamma Delta', 50)[0]?.no).toBe('2');
    // A rare part farther off (three words the line lacks) and a common one with a word the line lacks:
    // the walk goes on to "Delta"'s list, and there the common part's own bound must count its pull.
    const farther = [part('1', 'Omega Gamma Sigma Tau'), part('2', 'Kappa Delta', 80), ...others, ...fillers];
    expect(new SuggestIndex(farther).byName('Gamma Delta', 1).map((s) => s.no)).toEqual(['2']);
  });

  it('grows with the colours a part is made in, and stops at a part in 64', () => {
    expect(commonness(0)).toBe(0);
    expect(commonness(1)).toBeGreaterThan(0);
    expect(commonness(10)).toBeGreaterThan(commonness(1));
    expect(commonness(64)).toBe(1);
    expect(commonness(84)).toBe(1);
  });

  it('counts each numbering’s colours apart and keeps the most (BrickLink names colours, Rebrickable numbers them)', () => {
    const parts = partColours(
      [
        ['bricklink', '3001', 'Red'],
        ['bricklink', '3001', 'Red'],
        ['bricklink', '3001', 'Blue'],
        ['rebrickable', '3001', '4'],
        ['rebrickable', '3070B', '4'],
        ['rebrickable', '3070b', '1'],
      ],
      null,
    );
    const counted = new Map([...parts].map(([no, part]) => [no, part.colours]));
    expect(Object.fromEntries(counted)).toEqual({ '3001': 2, '3070b': 2 });
  });
});

describeEachStore('the app’s index counts the colours the store’s element tables give', () => {
  it('puts a part made in more colours first once the element tables are loaded, and not before', async () => {
    const storePath = newStoreLocation();
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    const load = (name: string, content: string) =>
      loadCatalogue(store.db, storePath, [{ name, content: bytes(content) }], options);
    await load(
      'parts.csv',
      files.rebrickableParts([
        { no: '4032a', name: 'Plate Round 2 x 2 with Axle Hole Open' },
        { no: '4032b', name: 'Plate Round 2 x 2 with Axle Hole Shut' },
      ]),
    );
    const order = () => suggestFor(store.db, { name: 'Plate Round 2 x 2', no: null }).map((s) => s.no);
    expect(order()).toEqual(['4032a', '4032b']);
    // BrickLink's codes name 4032b in two colours, Rebrickable's elements in three (one id twice): 3 counts.
    await load(
      'codes.txt',
      files.bricklinkCodes([
        { no: '4032b', colour: 'Red', element: '403201' },
        { no: '4032B', colour: 'Black', element: '403202' },
      ]),
    );
    await load(
      'elements.csv',
      files.rebrickableElements([
        { element: '403203', part: '4032b', colour: 4 },
        { element: '403204', part: '4032b', colour: 0 },
        { element: '403205', part: '4032b', colour: 1 },
        { element: '403206', part: '4032b', colour: 1 },
      ]),
    );
    expect(order()).toEqual(['4032b', '4032a']);
  });
});
