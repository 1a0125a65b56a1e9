import { describe, expect, it } from 'vitest';
import { ONE_WORD_PREFIX_CAP, SuggestIndex, type IndexedItem } from '../../src/suggest/index.ts';
import { dimensionsOf, nameTokens, sizeRelation, tokenSpans } from '../../src/suggest/tokens.ts';

describe('closeness tokens (SPEC §7 rule 3)', () => {
  it('make a size one token in every spelling, fractions as decimals', () => {
    for (const spelling of ['Plate 1 x 2', 'PLATE 1X2', 'plate 1x 2', 'Plate, 1 x 2'])
      expect(nameTokens(spelling)).toEqual({ words: ['plate'], sizes: ['1x2'] });
    expect(nameTokens('Brick 2 x 2 x 1 2/3').sizes).toEqual(['2x2x1.67']);
    expect(nameTokens('Brick  2 x  2 x  1.667').sizes).toEqual(['2x2x1.67']);
    expect(nameTokens('Slope 2 x 2 x 2/3').sizes).toEqual(['2x2x0.67']);
  });

  it('fold word forms: plurals, W. and w/ (with), w/o (without), Ø, °, decimal commas', () => {
    expect(nameTokens('PLATE 1X2 W. 1 KNOB').words).toEqual(['plate', 'with', '1', 'knob']);
    expect(nameTokens('Bar w/ Clips, w/o Studs').words).toEqual(['bar', 'with', 'clip', 'without', 'stud']);
    expect(nameTokens('Accessories and Boxes').words).toEqual(['accessory', 'and', 'box']);
    expect(nameTokens('Ball Ø16,5').words).toEqual(['ball', '16.5']);
    expect(nameTokens('Slope 45° 2 x 1').words).toEqual(['slope', '45']);
    // LEGO's angle after a slash is no fraction of the size (issue 24).
    expect(nameTokens('Roof Tile 2X3/25°')).toEqual({ words: ['roof', 'tile', '25'], sizes: ['2x3'] });
    expect(nameTokens('Roof Tile 2X2x2/65 Deg.')).toEqual({ words: ['roof', 'tile', '65', 'deg'], sizes: ['2x2x2'] });
    // A length in studs is its number: LEGO's module (`6M`), BrickLink's length (`11L`); millimetres stay.
    expect(nameTokens('Cross Axle 6M').words).toEqual(['cross', 'axle', '6']);
    expect(nameTokens('Axle Hose, Soft 11L').words).toEqual(['axle', 'hose', 'soft', '11']);
    expect(nameTokens('Ball 19mm').words).toEqual(['ball', '19mm']);
    // LEGO counts a gear's teeth as `Z24` (Zähne): the number and `tooth`, as the catalogues write it.
    expect(nameTokens('Double Conical Wheel Z12 1M').words).toEqual(['double', 'conical', 'wheel', '12', 'tooth', '1']);
    expect(nameTokens('Bevel Gear Z20').words).toEqual(['bevel', 'gear', '20', 'tooth']);
    expect(nameTokens('Zip Line Z').words).toEqual(['zip', 'line', 'z']);
    // Words ending in "ss", "us", "is" are no plurals.
    expect(nameTokens('Glass Cactus Axis').words).toEqual(['glass', 'cactus', 'axis']);
  });

  it('say where each token stands in the name, for highlighting', () => {
    const spans = (name: string) => tokenSpans(name).map((s) => [s.token, name.slice(s.start, s.end)]);
    expect(spans('Plate 1 x 2 w/ Door Rails')).toEqual([
      ['plate', 'Plate'],
      ['#1x2', '1 x 2'],
      ['with', 'w/'],
      ['door', 'Door'],
      ['rail', 'Rails'],
    ]);
    // A word that reads as two tokens highlights as one.
    expect(spans('Gear Wheel Z24')).toEqual([
      ['gear', 'Gear'],
      ['wheel', 'Wheel'],
      ['24', 'Z24'],
      ['tooth', 'Z24'],
    ]);
  });

  it('let sizes agree when one is part of the other, in any order', () => {
    // The relation the index weighs a size's routes by (null: they disagree, and the name is not close).
    const relation = (a: string, b: string) => sizeRelation(dimensionsOf(a), dimensionsOf(b));
    expect(relation('1x2', '2x1')).toBe('same');
    expect(relation('2x2', '2x2x0.67')).toBe('part');
    expect(relation('1x1.33', '1x1')).toBe('near');
    expect(relation('1x2', '1x4')).toBeNull();
  });
});

/** A catalogue the test makes: many plates, and the renamed parts of issue 11 in today's naming. */
function catalogue(): IndexedItem[] {
  const items: IndexedItem[] = [];
  for (const [a, b] of [
    [1, 1],
    [1, 2],
    [1, 3],
    [1, 4],
    [1, 6],
    [1, 8],
    [2, 2],
    [2, 3],
    [2, 4],
    [2, 6],
    [2, 8],
    [4, 4],
    [4, 6],
    [6, 6],
  ] as const) {
    items.push({ type: 'P', no: `30${a}${b}`, name: `Plate ${a} x ${b}` });
    items.push({ type: 'P', no: `30${a}${b}pr1`, name: `Plate ${a} x ${b} with Print` });
  }
  items.push(
    { type: 'P', no: '32028', name: 'Plate Special 1 x 2 with Door Rail' },
    { type: 'P', no: '2432', name: 'Tile Special 1 x 2 with Handle' },
    { type: 'P', no: '3900', name: 'Equipment Signal Paddle' },
    { type: 'P', no: '3700', name: 'Technic Brick 1 x 2 [1 Pin Hole]' },
    { type: 'P', no: '3701', name: 'Technic Brick 1 x 4 [3 Pin Holes]' },
    { type: 'P', no: '3004', name: 'Brick 1 x 2' },
    { type: 'P', no: '4073', name: 'Plate Round 1 x 1 Straight Side' },
    { type: 'P', no: '3069b', name: 'Tile 1 x 2 with Groove' },
    { type: 'P', no: '32270', name: 'Technic Gear 12 Tooth Double Bevel' },
    { type: 'P', no: '32269', name: 'Technic Gear 20 Tooth Double Bevel' },
    { type: 'P', no: '3648b', name: 'Technic Gear 24 Tooth' },
    { type: 'P', no: '3649', name: 'Technic Gear 40 Tooth' },
    { type: 'P', no: '6589', name: 'Technic Gear 12 Tooth Bevel' },
  );
  return items;
}

describe('suggestions for renamed parts (issue 11)', () => {
  const index = new SuggestIndex(catalogue());
  const rank = (name: string, no: string) => index.byName(name, 20).findIndex((s) => s.no === no);

  it('a one-word prefix group for a longer name shows at most its 5 closest, so closer names further down are seen', () => {
    const s = index.byName('Plate, Modified 1 x 2 with Door Rail', 20);
    const prefix = s.filter((x) => x.rule === 'prefix');
    expect(prefix.length).toBeLessThanOrEqual(ONE_WORD_PREFIX_CAP);
    expect(s[0]).toMatchObject({ no: '32028' });
    // Inside the group the closest come first: Plate 1 x 2 (same size) before other plates.
    expect(prefix.every((x) => x.name.includes('1 x 2') || x.no === '32028')).toBe(true);
  });

  it('a prefix group is shown whole when its words carry most of the name, and is weak when a rarer word is left out', () => {
    // "plate 1 x 2" is the whole name: every item it begins, closest first.
    expect(
      index
        .byName('Plate 1 x 2', 20)
        .filter((x) => x.rule === 'prefix')
        .map((x) => x.no),
    ).toEqual(['3012', '3012pr1']);
    // "plate 1 x 2 with" leaves out "Door", the rarest word: the group is weak, and the door rail, which
    // has every word (rule 2), comes first.
    const s = index.byName('Plate 1 x 2 with Door', 20);
    expect(s[0]).toMatchObject({ no: '32028', rule: 'words' });
    expect(s.filter((x) => x.rule === 'prefix').length).toBeLessThanOrEqual(ONE_WORD_PREFIX_CAP);
  });

  it('finds the renames every shop meets in the first five', () => {
    expect(rank('Plate, Modified 1 x 2 with Door Rail', '32028')).toBe(0);
    expect(rank('Minifig, Utensil Signal Paddle', '3900')).toBeLessThan(5);
    expect(rank('Technic, Brick 1 x 2 with Hole', '3700')).toBeLessThan(5);
    expect(rank('PLATE 1X2', '3012')).toBe(0);
    expect(rank('Tile, Modified 1 x 2 with Handle', '2432')).toBeLessThan(5);
    // "Technic Brick 1 x 4 [3 Pin Holes]" has the rare words but another size: it is not close at all.
    expect(rank('Technic, Brick 1 x 2 with Hole', '3701')).toBe(-1);
  });

  it("reads LEGO's count of a gear's teeth (Z20) as the catalogue's (20 Tooth)", () => {
    expect(rank('Double Conical Wheel Z20', '32269')).toBe(0);
    expect(rank('Double Conical Wheel Z12', '32270')).toBe(0);
    expect(rank('GEAR WHEEL Z24', '3648b')).toBe(0);
  });

  it('weighs a rare word far more than a common one', () => {
    // "Paddle" is in one name, "with" in many: the paddle wins though the plate shares more words.
    const s = index.byName('Paddle with Print', 20);
    expect(s[0]).toMatchObject({ no: '3900' });
  });

  it('bridges a mistyped word', () => {
    expect(rank('Equipment Signal Padle', '3900')).toBe(0);
  });

  it('tags each suggestion with its rule and never repeats an item', () => {
    const s = index.byName('Plate, Modified 1 x 2 with Door Rail', 20);
    expect(new Set(s.map((x) => x.no)).size).toBe(s.length);
    const rules = s.map((x) => x.rule);
    const order = ['prefix', 'words', 'close'];
    expect([...rules].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(rules);
    expect(s.some((x) => x.rule === 'close')).toBe(true);
  });
});
