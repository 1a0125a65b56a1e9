import { describe, expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { SuggestionsView } from '../../src/api/contract.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { orderLines } from '../../src/store/lines.ts';
import { openStore } from '../../src/store/open.ts';
import { pulled } from '../../src/suggest/commonness.ts';
import { SuggestIndex, type IndexedItem } from '../../src/suggest/index.ts';
import { bothPulls, MADE_IN_COLOUR_PULL } from '../../src/suggest/made-in.ts';
import { partColours } from '../../src/suggest/part-colours.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

const part = (no: string, name: string, madeIn?: number[]): IndexedItem => ({
  type: 'P',
  no,
  name,
  ...(madeIn ? { madeIn } : {}),
});

describe("a part made in the line's colour is pulled closer (ADR 0029)", () => {
  const items = [
    part('3070a', 'Tile 1 x 1 Aaa'),
    part('3070b', 'Tile 1 x 1 Bbb', [5, 11]),
    part('3070c', 'Tile 1 x 1 Ccc', [11, 85]),
  ];
  const order = (colour: number | null) => new SuggestIndex(items).byName('Tile 1 x 1', 20, colour).map((s) => s.no);

  it('comes first among names as close; without a colour, or in a colour none is made in, the names decide', () => {
    expect(order(null)).toEqual(['3070a', '3070b', '3070c']);
    expect(order(5)).toEqual(['3070b', '3070a', '3070c']);
    expect(order(85)).toEqual(['3070c', '3070a', '3070b']);
    expect(order(11)).toEqual(['3070b', '3070c', '3070a']);
    expect(order(999)).toEqual(['3070a', '3070b', '3070c']);
  });

  it('never passes the name that is the line’s own', () => {
    const index = new SuggestIndex([part('3004', 'Brick 1 x 2'), part('2877', 'Brick 1 x 2 with Grille', [5])]);
    expect(index.byName('Brick 1 x 2', 20, 5).map((s) => s.no)).toEqual(['3004', '2877']);
    // Composes with the pull of a common part as one pull.
    expect(pulled(pulled(0.4, 0.15), MADE_IN_COLOUR_PULL)).toBeCloseTo(
      pulled(0.4, bothPulls(0.15, MADE_IN_COLOUR_PULL)),
      12,
    );
  });

  it('is found by rule 3’s walk when only its colour lifts it above a closer name (the bounds count the colour)', () => {
    // As commonness.test.ts: "Gamma" is rarer than "Delta"; the walk reads "Gamma"'s list first and stops
    // (or passes a name over) once what is left could not lift a name past the last place — unless the
    // line's colour could.
    const fillers = Array.from({ length: 40 }, (_, i) => part(`9${i}`, `Filler${i} Extra${i}`));
    const others = [part('5', 'Delta Long Words Here'), part('6', 'Delta Other Long Words')];
    const near = [part('1', 'Omega Gamma'), part('2', 'Delta', [5]), ...others, ...fillers];
    const index = new SuggestIndex(near);
    expect(index.byName('Gamma Delta', 1).map((s) => s.no)).toEqual(['1']);
    expect(index.byName('Gamma Delta', 1, 5).map((s) => s.no)).toEqual(['2']);
    // The same answer as when every place is filled and nothing is left unread.
    expect(index.byName('Gamma Delta', 50, 5)[0]?.no).toBe('2');
    // Farther names: the walk reaches "Delta"'s list, and there the part's own bound must count its colour.
    const farther = [part('1', 'Omega Gamma Sigma Tau'), part('2', 'Kappa Delta', [5]), ...others, ...fillers];
    expect(new SuggestIndex(farther).byName('Gamma Delta', 1, 5).map((s) => s.no)).toEqual(['2']);
    expect(new SuggestIndex(farther).byName('Gamma Delta', 1).map((s) => s.no)).toEqual(['1']);
  });

  it("reads BrickLink's colour names and Rebrickable's colour ids into the catalogue's ids", () => {
    const parts = partColours(
      [
        ['bricklink', '3070B', 'Red'],
        ['bricklink', '3070b', 'Dark Bluish Gray'],
        ['rebrickable', '3070b', '0'],
        ['rebrickable', '3070b', '9999'],
        ['bricklink', '3070b', 'No Such Colour'],
      ],
      {
        colourNamed: (key) => ({ red: 5, black: 11 })[key] ?? null,
        translate: (numbering, key) =>
          numbering === 'rebrickable'
            ? ({ '0': 11 } as Record<string, number>)[key]
            : key === 'dark bluish gray'
              ? 86
              : undefined,
      },
    );
    const made = new Map([...parts].map(([no, part]) => [no, part.madeIn]));
    expect(Object.fromEntries(made)).toEqual({ '3070b': [5, 11, 86] });
  });
});

describeEachStore("an unplaced line's suggestions put the parts made in its colour first", () => {
  it('once the element and colour tables are loaded: by BrickLink’s colour names and Rebrickable’s ids', async () => {
    const storePath = newStoreLocation();
    const store = await openStore(storePath);
    onTestFinished(() => store.close());
    const db = store.db;
    const load = (name: string, content: string) =>
      loadCatalogue(db, storePath, [{ name, content: bytes(content) }], {
        type: 'P',
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
    await load(
      'parts.csv',
      files.rebrickableParts([
        { no: '3070a', name: 'Tile 1 x 1 Aaa' },
        { no: '3070b', name: 'Tile 1 x 1 Bbb' },
        { no: '3070c', name: 'Tile 1 x 1 Ccc' },
      ]),
    );
    await load(
      'colors.txt',
      files.bricklinkColoursTab([
        { id: 5, name: 'Red' },
        { id: 11, name: 'Black' },
      ]),
    );
    const [r] = confirmImport(
      writeSession(db),
      {
        file: file(
          'order.bsx',
          bsx([
            { no: 'x1', name: 'Tile 1 x 1', colour: 5 },
            { no: 'x2', name: 'Tile 1 x 1', colour: 11 },
            // Colours given by name only: BrickLink's, and LEGO's own words (through the colour table).
            { no: 'x3', name: 'Tile 1 x 1', colourName: 'Black' },
            { no: 'x4', name: 'Tile 1 x 1', colourName: 'BR.RED' },
          ]),
        ),
      },
      SYSTEM_CLOCK,
    );
    const [red, black, blackByName, redInLegoWords] = orderLines(db, r?.order.id ?? 0);
    const service = serviceFor(db, storePath);
    const suggested = async (lineId: number) => {
      const answer = await service.call('lines.suggest', { lineId, limit: 3 });
      if (!answer.ok) throw new Error(answer.error.message);
      return (answer.value as SuggestionsView).suggestions.map((s) => s.no);
    };
    expect(await suggested(red?.id ?? 0)).toEqual(['3070a', '3070b', '3070c']);
    expect(await suggested(black?.id ?? 0)).toEqual(['3070a', '3070b', '3070c']);
    // BrickLink's codes name 3070b's colour; Rebrickable's elements number 3070c's, read through its colour table.
    await load('codes.txt', files.bricklinkCodes([{ no: '3070b', colour: 'Red', element: '307001' }]));
    await load('elements.csv', files.rebrickableElements([{ element: '307002', part: '3070c', colour: 0 }]));
    await load(
      'colors.json',
      files.rebrickableColourTable([
        { id: 0, name: 'Black', bricklink: { id: 11, name: 'Black' } },
        { id: 4, name: 'Red', bricklink: { id: 5, name: 'Red' }, lego: { id: 21, names: ['Bright Red', 'BR.RED'] } },
      ]),
    );
    // Each is now known in a colour, so both pass 3070a for being made at all (`commonness.ts`); the line's
    // colour then decides between them.
    expect(await suggested(red?.id ?? 0)).toEqual(['3070b', '3070c', '3070a']);
    expect(await suggested(black?.id ?? 0)).toEqual(['3070c', '3070b', '3070a']);
    // A colour given by name is read as placement reads it (SPEC §6), and pulls the same way.
    expect(await suggested(blackByName?.id ?? 0)).toEqual(['3070c', '3070b', '3070a']);
    expect(await suggested(redInLegoWords?.id ?? 0)).toEqual(['3070b', '3070c', '3070a']);
    // The search box belongs to the selected line: its colour pulls there too; a search for no line has none.
    const searched = async (forLine?: number) => {
      const answer = await service.call('catalogue.search', {
        query: 'tile 1 x 1',
        limit: 3,
        ...(forLine === undefined ? {} : { forLine }),
      });
      if (!answer.ok) throw new Error(answer.error.message);
      return (answer.value as SuggestionsView).suggestions.map((s) => s.no);
    };
    expect(await searched(black?.id ?? 0)).toEqual(['3070c', '3070b', '3070a']);
    expect(await searched(redInLegoWords?.id ?? 0)).toEqual(['3070b', '3070c', '3070a']);
    expect(await searched()).toEqual(['3070b', '3070c', '3070a']);
    // Each suggestion's picture (SPEC §15, issue 48): in the line's colour where the tables make the part in
    // it or say nothing of it; its usual picture, said so, where they make it only in others.
    const pictured = async (call: 'lines.suggest' | 'catalogue.search', lineId?: number) => {
      const answer =
        call === 'lines.suggest'
          ? await service.call('lines.suggest', { lineId: lineId ?? 0, limit: 3 })
          : await service.call('catalogue.search', {
              query: 'tile 1 x 1',
              limit: 3,
              ...(lineId === undefined ? {} : { forLine: lineId }),
            });
      if (!answer.ok) throw new Error(answer.error.message);
      return (answer.value as SuggestionsView).suggestions.map((s) => [s.no, s.pictureColour, s.notMadeIn]);
    };
    expect(await pictured('lines.suggest', red?.id)).toEqual([
      ['3070b', 5, undefined],
      ['3070c', null, 'Red'],
      ['3070a', 5, undefined],
    ]);
    expect(await pictured('catalogue.search', redInLegoWords?.id)).toEqual([
      ['3070b', 5, undefined],
      ['3070c', null, 'Red'],
      ['3070a', 5, undefined],
    ]);
    expect(await pictured('catalogue.search')).toEqual([
      ['3070b', undefined, undefined],
      ['3070c', undefined, undefined],
      ['3070a', undefined, undefined],
    ]);
    // And from a shell, for the same line.
    const shell = await cliJson([
      '--db',
      storePath,
      'suggest',
      'Tile 1 x 1',
      '--limit',
      '3',
      '--line',
      String(black?.id),
    ]);
    expect((shell.json as SuggestionsView).suggestions.map((s) => s.no)).toEqual(['3070c', '3070b', '3070a']);
  });
});
