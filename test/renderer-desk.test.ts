import { describe, expect, it } from 'vitest';
import type { LineRowView, PlaceResultView } from '../src/api/contract.ts';
import { markedPieces, nextUnplacedAfter, placedMessage } from '../renderer/desk.ts';

const line = (id: number, placed: boolean): LineRowView => ({
  id,
  documentKey: 'a.bsx',
  position: id,
  given: { type: 'P', no: '4073', name: null, colourId: 1, colourName: 'White' },
  quantity: 1,
  unitPrice: null,
  condition: null,
  remarks: null,
  placed: placed
    ? {
        type: 'P',
        no: '6141',
        colour: 1,
        colourName: 'White',
        colourRgb: 'FFFFFF',
        via: null,
        by: 'hand',
        name: 'Plate Round 1 x 1',
      }
    : null,
  givenColour: null,
  reason: placed ? null : { code: 'number-not-in-catalogue', text: 'The BrickLink number is not in the catalogue' },
  itemFound: null,
});

describe('after a placement, the keyboard run goes on to the next unplaced line below (SPEC §9)', () => {
  const before = [line(1, false), line(2, true), line(3, false), line(4, false), line(5, true), line(6, false)];
  it('below the line just placed, not the first unplaced one', () => {
    const after = before.map((l) => (l.id === 3 ? line(3, true) : l));
    expect(nextUnplacedAfter(before, after, 3)).toBe(4);
  });
  it('skipping lines the placement placed too (the same number), and wrapping at the end', () => {
    const after = before.map((l) => (l.id === 4 || l.id === 6 ? line(l.id, true) : l));
    expect(nextUnplacedAfter(before, after, 4)).toBe(1);
  });
  it('when "unplaced only" hides the placed line, by where it was', () => {
    const after = [line(1, false), line(4, false), line(6, false)];
    expect(nextUnplacedAfter(before, after, 3)).toBe(4);
  });
  it('nowhere when nothing is left unplaced', () => {
    expect(
      nextUnplacedAfter(
        before,
        before.map((l) => line(l.id, true)),
        6,
      ),
    ).toBeNull();
  });
});

describe('what a fix did, in words (issue 10)', () => {
  const result = (others: PlaceResultView['others'], othersIn: string[] = []): PlaceResultView => ({
    line: { ...line(21, true), position: 21 },
    step: { id: 9, kind: 'hand-placement', label: 'x', desk: null },
    remembered: { item: 'added', colour: null, name: null },
    others,
    othersIn,
  });
  const s = {
    type: 'P',
    no: '6141',
    name: 'Plate Round 1 x 1 with Solid Stud',
    rule: 'prefix',
    matched: [],
    marks: [],
  } as const;
  it('names the lines it placed at once, each in its own colour', () => {
    expect(placedMessage(result({ placed: 9, moved: 0, unplaced: 0 }), s)).toBe(
      'Placed line 21 on P 6141 (Plate Round 1 x 1 with Solid Stud) in White, and 9 more lines giving 4073, each in its own colour.',
    );
    expect(placedMessage(result({ placed: 0, moved: 0, unplaced: 0 }), s)).toBe(
      'Placed line 21 on P 6141 (Plate Round 1 x 1 with Solid Stud) in White.',
    );
    expect(placedMessage(result({ placed: 1, moved: 2, unplaced: 3 }), s)).toBe(
      'Placed line 21 on P 6141 (Plate Round 1 x 1 with Solid Stud) in White, and 1 more line giving 4073, and moved 2 lines the old memory had placed, each in its own colour. 3 other lines giving it stay unplaced.',
    );
  });
  it('says which orders the other lines are in (issue 25)', () => {
    expect(placedMessage(result({ placed: 22, moved: 0, unplaced: 0 }, ['PAB.bsx', 'Market Street.bsx']), s)).toBe(
      'Placed line 21 on P 6141 (Plate Round 1 x 1 with Solid Stud) in White, and 22 more lines giving 4073 (in orders PAB.bsx, Market Street.bsx), each in its own colour.',
    );
  });
  it('says when the line taught the item its name (issue 11)', () => {
    const named: PlaceResultView = {
      line: {
        ...line(21, true),
        position: 21,
        given: { type: 'P', no: null, name: 'PLATE 1X1 ROUND', colourId: 1, colourName: 'White' },
      },
      step: { id: 9, kind: 'hand-placement', label: 'x', desk: null },
      remembered: { item: 'added', colour: null, name: 'added' },
      others: { placed: 0, moved: 0, unplaced: 0 },
      othersIn: [],
    };
    expect(placedMessage(named, s)).toBe(
      'Placed line 21 on P 6141 (Plate Round 1 x 1 with Solid Stud) in White. Suggestions now find it by “PLATE 1X1 ROUND” too.',
    );
    expect(placedMessage({ ...named, remembered: { ...named.remembered, name: 'kept' } }, s)).toBe(
      'Placed line 21 on P 6141 (Plate Round 1 x 1 with Solid Stud) in White.',
    );
  });
});

describe('the words that matched, marked in the name (issue 11)', () => {
  it('splits the name at the marks, in order', () => {
    expect(
      markedPieces('Plate Special 1 x 2 with Door Rail', [
        [25, 29],
        [0, 5],
        [14, 19],
        [30, 34],
      ]),
    ).toEqual([
      { text: 'Plate', marked: true },
      { text: ' Special ', marked: false },
      { text: '1 x 2', marked: true },
      { text: ' with ', marked: false },
      { text: 'Door', marked: true },
      { text: ' ', marked: false },
      { text: 'Rail', marked: true },
    ]);
  });
  it('clips marks that overlap or reach past the name', () => {
    expect(
      markedPieces('Brick', [
        [0, 3],
        [2, 9],
      ]),
    ).toEqual([
      { text: 'Bri', marked: true },
      { text: 'ck', marked: true },
    ]);
    expect(markedPieces('Brick', [])).toEqual([{ text: 'Brick', marked: false }]);
  });
});
