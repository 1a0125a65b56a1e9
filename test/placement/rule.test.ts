import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogueLookup } from '../../src/placement/catalogue-lookup.ts';
import { UNPLACED_REASONS } from '../../src/vocabulary/reasons.ts';
import { placeItem, type GivenItem } from '../../src/placement/rule.ts';
import {
  buildStore,
  insertColour,
  insertColourPlacement,
  insertHandPlacement,
  insertItem,
  type Db,
} from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

const NOTHING: GivenItem = { type: null, no: null, name: null, colourId: null, colourName: null };
const given = (g: Partial<GivenItem>): GivenItem => ({ ...NOTHING, ...g });

describe('the placement rule (SPEC §6)', () => {
  let db: Db;
  beforeEach(() => {
    db = buildStore(path.join(tempDir(), 's.sqlite'), '4.2');
    insertItem(db, { no: '3001', name: 'Brick 2 x 4' });
    insertItem(db, { no: '3003', name: 'Brick 2 x 2' });
    insertItem(db, { no: '3710', name: 'Plate 1 x 4' });
    insertItem(db, { no: '3710b', name: 'Plate 1 x 4' });
    insertItem(db, { type: 'M', no: 'sw0001a', name: 'Luke Skywalker (Tatooine)' });
    return () => db.close();
  });
  const place = (g: Partial<GivenItem>) => placeItem(given(g), catalogueLookup(db));

  describe('places a line', () => {
    it('by a number the catalogue has, for the type (default P)', () => {
      expect(place({ no: '3001', name: 'Something else entirely' })).toMatchObject({
        item: { type: 'P', no: '3001' },
        by: 'number',
        reason: null,
      });
      expect(place({ type: 'm', no: 'SW0001A' })).toMatchObject({ item: { type: 'M', no: 'sw0001a' }, by: 'number' });
    });

    it('by a hand placement remembered for the same given type and number: the item only, each line in its own colour', () => {
      insertColour(db, { id: 5, name: 'Red' });
      insertColour(db, { id: 11, name: 'Black' });
      // Early 0.9.0 builds stored a colour with the memory: it is never read.
      insertHandPlacement(db, { givenNo: '3001old', item: { type: 'P', no: '3001' }, colourId: 5 });
      // A memory's placement says so (SPEC §6 step 2): the element tables say nothing of 3001's colours here.
      expect(place({ no: '3001old', colourId: 11 })).toEqual({
        item: { type: 'P', no: '3001' },
        colourId: 11,
        by: 'remembered',
        reason: null,
        via: 'remembered — 3001old → 3001, 1 Jan 2026',
      });
      expect(place({ no: '3001old' })).toEqual({
        item: { type: 'P', no: '3001' },
        colourId: null,
        by: 'remembered',
        reason: null,
        via: 'remembered — 3001old → 3001, 1 Jan 2026',
      });
      // The line's own colour is checked as any line's: a memory does not make an unknown colour known.
      expect(place({ no: '3001old', colourId: 999 })).toMatchObject({
        item: null,
        reason: UNPLACED_REASONS.colourNotInCatalogue,
      });
      // Another type's number is another number.
      expect(place({ type: 'S', no: '3001old' }).reason).toBe(UNPLACED_REASONS.numberNotInCatalogue);
    });

    it('with a colour placement for a given colour the catalogue does not know, in its own numbering', () => {
      insertColour(db, { id: 5, name: 'Red' });
      insertColourPlacement(db, { colourId: 999, to: 5 });
      insertColourPlacement(db, { colourName: 'Bright  Red', to: 5 });
      expect(place({ no: '3001', colourId: 999 })).toEqual({
        item: { type: 'P', no: '3001' },
        colourId: 5,
        by: 'number',
        reason: null,
      });
      expect(place({ no: '3001', colourName: 'bright red' })).toMatchObject({ colourId: 5, reason: null });
      // Ids map ids, names map names: a line giving id 998 with that name is still unknown.
      expect(place({ no: '3001', colourId: 998, colourName: 'Bright Red' }).reason).toBe(
        UNPLACED_REASONS.colourNotInCatalogue,
      );
      // A colour the catalogue knows is never mapped.
      insertColourPlacement(db, { colourId: 5, to: 5 });
      expect(place({ no: '3001', colourId: 5 })).toMatchObject({ colourId: 5 });
    });

    it('by a hand placement remembered for the same folded name, for a line without a number', () => {
      insertHandPlacement(db, { name: 'Plate 1 x 4', item: { type: 'P', no: '3710' } });
      expect(place({ name: '  plate 1  X 4 ' })).toMatchObject({ item: { no: '3710' }, by: 'remembered' });
      // With a number, the memory of a name does not apply.
      expect(place({ no: '9999', name: 'Plate 1 x 4' }).reason).toBe(UNPLACED_REASONS.nameSeveral);
    });

    it('by a name that equals exactly one catalogue name, case and spacing folded', () => {
      expect(place({ name: 'BRICK  2 x  4' })).toMatchObject({ item: { no: '3001' }, by: 'name' });
      expect(place({ no: '3001-unknown', name: 'brick 2 x 2' })).toMatchObject({ item: { no: '3003' }, by: 'name' });
    });

    it('with the given colour once colours are loaded, by id or by name', () => {
      expect(place({ no: '3001', colourId: 999 })).toMatchObject({ colourId: 999, reason: null }); // no colours yet: not checked
      insertColour(db, { id: 5, name: 'Red' });
      insertColour(db, { id: 86, name: 'Light Bluish Gray' });
      expect(place({ no: '3001', colourId: 5 })).toMatchObject({ colourId: 5, reason: null });
      expect(place({ no: '3001', colourName: 'light  bluish gray' })).toMatchObject({ colourId: 86, reason: null });
      expect(place({ no: '3001' })).toMatchObject({ colourId: null, reason: null });
      // BrickLink's colour 0, "(Not Applicable)", is no colour.
      expect(place({ no: '3001', colourId: 0 })).toMatchObject({ colourId: null, reason: null });
    });
  });

  describe('gives the first reason that fits', () => {
    it('neither a number nor a name', () => {
      expect(place({ colourId: 5 })).toEqual({
        item: null,
        colourId: null,
        by: null,
        reason: 'The line has neither a BrickLink number nor a name',
      });
      expect(place({ no: '  ', name: '' }).reason).toBe(UNPLACED_REASONS.noNumberNorName);
    });
    it('an item type that is not known', () => {
      expect(place({ type: 'X', no: '3001' }).reason).toBe('The item type is not known');
    });
    it('a name that matches several items, before an unknown number', () => {
      expect(place({ no: '12345', name: 'plate 1 x 4' }).reason).toBe('The name matches several items');
    });
    it('a number that is not in the catalogue', () => {
      expect(place({ no: '12345' }).reason).toBe('The BrickLink number is not in the catalogue');
      expect(place({ no: '12345', name: 'Brick 1 x 99' }).reason).toBe(UNPLACED_REASONS.numberNotInCatalogue);
    });
    it('a name that is not in the catalogue', () => {
      expect(place({ name: 'Brick 1 x 99' }).reason).toBe('The name is not in the catalogue');
      expect(place({ type: 'S', name: 'Brick 2 x 4' }).reason).toBe(UNPLACED_REASONS.nameNotInCatalogue);
    });
    it('a colour that is not in the catalogue, once colours are loaded', () => {
      insertColour(db, { id: 5, name: 'Red' });
      expect(place({ no: '3001', colourId: 6 }).reason).toBe('The colour is not in the catalogue');
      expect(place({ no: '3001', colourName: 'Octarine' }).reason).toBe(UNPLACED_REASONS.colourNotInCatalogue);
    });
  });
});
