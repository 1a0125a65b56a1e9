import type { StoreDb } from '../../src/store/db.ts';
import { writeSession } from '../../src/store/session.ts';
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { forgetMemory, placeByHand } from '../../src/hand/placement.ts';
import { orderLines } from '../../src/store/lines.ts';
import { openStore } from '../../src/store/open.ts';
import { taughtNames } from '../../src/store/memories.ts';
import { catalogueIndex, suggestIn } from '../../src/suggest/catalogue-index.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { redoNext, undoNewest } from '../helpers/history.ts';
import { insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';

const clock = SYSTEM_CLOCK;

/** A store whose catalogue calls 3794 by its 2026 name, and an order giving it by a 2012 one. */
async function renamedPart(givenName = 'Plate, Modified 1 x 2 w/ 1 Stud w/o Groove') {
  const { db, dbPath } = await storeWithCatalogue();
  insertItem(db, { no: '3794', name: 'Plate Special 1 x 2 with 1 Stud without Groove [Jumper]' });
  insertItem(db, { no: '15573', name: 'Plate Special 1 x 2 with 1 Stud with Groove [Jumper]' });
  const [imported] = confirmImport(
    writeSession(db),
    { file: file('2012.bsx', bsx([{ no: '3794a', name: givenName, colour: 5 }])) },
    clock,
  );
  const line = orderLines(db, imported?.order.id ?? 0)[0];
  return { db, dbPath, lineId: line?.id ?? 0, givenName };
}

/** Which suggestion, if any, came by a taught name. */
const taughtSuggestion = (db: StoreDb, name: string) =>
  suggestIn(catalogueIndex(db), { name, no: null }, 20).find((s) => s.via !== undefined) ?? null;

describeEachStore('staff teach suggestions names (SPEC §7 rule 3, §8)', () => {
  it("a hand placement whose given name differs from the item's keeps it as an extra name of the item", async () => {
    const { db, lineId, givenName } = await renamedPart();
    expect(taughtSuggestion(db, givenName)).toBeNull();
    const result = placeByHand(writeSession(db), lineId, { type: 'P', no: '3794', colourId: null }, clock);
    expect(result.remembered.name).toBe('added');
    expect(taughtNames(db)).toMatchObject([
      {
        name: givenName,
        item: { type: 'P', no: '3794', name: 'Plate Special 1 x 2 with 1 Stud without Groove [Jumper]' },
      },
    ]);

    // The next line giving that name (in any spelling the fold takes away) gets 3794 first, by the taught name.
    const [first] = suggestIn(
      catalogueIndex(db),
      { name: 'PLATE, MODIFIED 1 X 2  W/ 1 STUD W/O GROOVE', no: null },
      20,
    );
    expect(first).toMatchObject({ no: '3794', rule: 'prefix', via: 'taught', taughtName: givenName });
    // The screen highlights the item's own words that matched.
    expect(first?.marks.map(([a, b]) => first.name.slice(a, b))).toEqual([
      'Plate',
      '1 x 2',
      'with',
      '1',
      'Stud',
      'without',
      'Groove',
    ]);
  });

  it('keeps one name per item once; a name the item already has, or none, teaches nothing', async () => {
    const { db, lineId, givenName } = await renamedPart();
    placeByHand(writeSession(db), lineId, { type: 'P', no: '3794', colourId: null }, clock);
    const [again] = confirmImport(
      writeSession(db),
      { file: file('again.bsx', bsx([{ no: 'x1', name: `  ${givenName.toUpperCase()} `, colour: 5 }])) },
      clock,
    );
    const second = placeByHand(
      writeSession(db),
      orderLines(db, again?.order.id ?? 0)[0]?.id ?? 0,
      { type: 'P', no: '3794', colourId: null },
      clock,
    );
    expect(second.remembered.name).toBe('kept');
    const [same] = confirmImport(
      writeSession(db),
      {
        file: file(
          'same.bsx',
          bsx([
            { no: 'x2', name: 'brick  2 x 4', colour: 5 },
            { no: 'x3', colour: 5 },
          ]),
        ),
      },
      clock,
    );
    const [ownName, noName] = orderLines(db, same?.order.id ?? 0);
    expect(
      placeByHand(writeSession(db), ownName?.id ?? 0, { type: 'P', no: '3001', colourId: null }, clock).remembered.name,
    ).toBeNull();
    expect(
      placeByHand(writeSession(db), noName?.id ?? 0, { type: 'P', no: '3001', colourId: null }, clock).remembered.name,
    ).toBeNull();
    expect(taughtNames(db).map((t) => t.item.no)).toEqual(['3794']);
  });

  it("undo takes the name back with the placement, and redo teaches it again; every connection's index follows", async () => {
    const { db, dbPath, lineId, givenName } = await renamedPart();
    const other = (await openStore(dbPath, { readOnly: true })).db;
    onTestFinished(() => {
      other.close();
    });
    expect(taughtSuggestion(other, givenName)).toBeNull(); // builds (and caches) the other connection's index
    placeByHand(writeSession(db), lineId, { type: 'P', no: '3794', colourId: null }, clock);
    expect(taughtSuggestion(other, givenName)).toMatchObject({ no: '3794' });
    undoNewest(db, clock);
    expect(taughtNames(db)).toEqual([]);
    expect(taughtSuggestion(db, givenName)).toBeNull();
    expect(taughtSuggestion(other, givenName)).toBeNull();
    redoNext(db, clock);
    expect(taughtSuggestion(other, givenName)).toMatchObject({ no: '3794' });
  });

  it('a forgotten name finds nothing any more, and Undo brings it back', async () => {
    const { db, lineId, givenName } = await renamedPart();
    placeByHand(writeSession(db), lineId, { type: 'P', no: '3794', colourId: null }, clock);
    const [taught] = taughtNames(db);
    const step = forgetMemory(writeSession(db), 'name', taught?.id ?? 0, clock);
    expect(step.label).toBe(`Forgetting the name "${givenName}" taught to P 3794`);
    expect(taughtSuggestion(db, givenName)).toBeNull();
    // The line stays placed: forgetting is about later suggestions.
    expect(orderLines(db, 1)[0]?.placed?.no).toBe('3794');
    undoNewest(db, clock);
    expect(taughtSuggestion(db, givenName)).toMatchObject({ no: '3794' });
  });

  it('the CLI lists taught names with the other memories (N…) and forgets one', async () => {
    const { dbPath, lineId, givenName } = await renamedPart();
    const placed = await cliJson(['--db', dbPath, 'place', String(lineId), 'P', '3794']);
    expect(placed.json).toMatchObject({ remembered: { name: 'added' } });
    const list = await cliJson(['--db', dbPath, 'placements']);
    expect(list.json.names).toMatchObject([{ ref: 'N1', name: givenName, item: { type: 'P', no: '3794' } }]);
    const text = await cli(['--db', dbPath, 'placements']);
    expect(text.stdout).toContain(`N1  "${givenName}" → P 3794`);
    // I1 (the item for 3794a) and N1 both exist: a bare 1 is refused, N1 is taken.
    expect((await cliJson(['--db', dbPath, 'placements', 'forget', '1'])).code).toBe(2);
    const forgot = await cliJson(['--db', dbPath, 'placements', 'forget', 'N1']);
    expect(forgot.json).toMatchObject({ ref: 'N1', kind: 'name' });
    expect((await cliJson(['--db', dbPath, 'placements'])).json.names).toEqual([]);
    const suggested = await cliJson(['--db', dbPath, 'suggest', givenName]);
    expect(suggested.json.suggestions.some((s: { via?: unknown }) => s.via !== undefined)).toBe(false);
  });
});
