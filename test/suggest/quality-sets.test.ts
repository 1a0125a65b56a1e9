import { describe, expect, it } from 'vitest';
import {
  brickstoreCases,
  brickstoreCasesFrom,
  EXPECTED_BRICKSTORE_CASES,
  foldCaseAndSpacing,
  ldrawPairs,
  ldrawPairsFrom,
  namesDiffer,
  numberHashIsEven,
  parseLdrawList,
  stripLdrawMarkers,
} from '../../tools/quality-sets.ts';
import { sharedFile } from '../helpers/shared-data.ts';
import { needs } from '../helpers/needs.ts';

/** Part numbers of the shapes real catalogues use: plain, with a letter, with a print code, with a mould suffix. */
function generatedNumbers(count: number): string[] {
  const shapes = [
    (i: number) => `${3000 + i}`,
    (i: number) => `${3000 + i}b`,
    (i: number) => `${970 + i}p0${i % 10}`,
    (i: number) => `${60000 + i}c01`,
  ];
  return Array.from({ length: count }, (_, i) => (shapes[i % shapes.length] as (i: number) => string)(i));
}

describe('the train/evaluation split of issue 11 (FNV-1a 32-bit parity)', () => {
  it('follows the definition: FNV-1a over the UTF-8 bytes of the trimmed, lower-cased number', () => {
    // FNV-1a("") = 0x811c9dc5 (odd); FNV-1a("a") = 0xe40c292c (even): the published test vectors.
    expect(numberHashIsEven('')).toBe(false);
    expect(numberHashIsEven('a')).toBe(true);
    expect(numberHashIsEven(' A ')).toBe(true);
    expect(numberHashIsEven('3001')).toBe(numberHashIsEven('3001'));
    expect(numberHashIsEven('3001P01')).toBe(numberHashIsEven('3001p01'));
    // Bytes beyond ASCII count as UTF-8: "é" is two bytes, 0xc3 0xa9 (both odd), so it leaves "" odd.
    expect(numberHashIsEven('é')).toBe(false);
  });

  it('splits about half and half', () => {
    const numbers = generatedNumbers(4000);
    const even = numbers.filter(numberHashIsEven).length;
    expect(even / numbers.length).toBeGreaterThan(0.4);
    expect(even / numbers.length).toBeLessThan(0.6);
    // The same answer every time.
    expect(numbers.filter(numberHashIsEven)).toEqual(generatedNumbers(4000).filter(numberHashIsEven));
  });
});

describe('the fold that decides whether two names differ', () => {
  it('folds case and runs of spacing, nothing else', () => {
    expect(foldCaseAndSpacing('  Brick  2 x  4 ')).toBe('brick 2 x 4');
    expect(namesDiffer('Brick  2 x  4', 'brick 2 X 4')).toBe(false);
    expect(namesDiffer('Brick\t2 x 4', 'Brick 2 x 4')).toBe(false);
    // Punctuation and words are not folded: those are what the suggestions must bridge.
    expect(namesDiffer('Plate, Modified 1 x 2', 'Plate Modified 1 x 2')).toBe(true);
    expect(namesDiffer('Brick 2 x 4', 'Brick 2x4')).toBe(true);
  });
});

describe("LDraw's parts.lst", () => {
  const LIST = [
    '3001.dat                   Brick  2 x  4',
    '3002.DAT                   Brick  2 x  3',
    '3003.dat                   ~Brick  2 x  2',
    '3004.dat                   =Brick  1 x  2',
    '3005.dat                   _Brick  1 x  1',
    't1008.dat                  | Brickstuff Pico LED',
    '3006.dat                   ~_Brick  2 x 10',
    '3007.dat                   ~Moved to 3008',
    '3009.dat                   Moved to 3010',
    'not a part line',
    '',
    '3010.dat                   Brick  1 x  4',
  ].join('\r\n');

  it('gives numbers lower-cased and names with their markers stripped, without moved-to entries', () => {
    expect(parseLdrawList(LIST)).toEqual([
      { no: '3001', name: 'Brick  2 x  4' },
      { no: '3002', name: 'Brick  2 x  3' },
      { no: '3003', name: 'Brick  2 x  2' },
      { no: '3004', name: 'Brick  1 x  2' },
      { no: '3005', name: 'Brick  1 x  1' },
      { no: 't1008', name: 'Brickstuff Pico LED' },
      { no: '3006', name: 'Brick  2 x 10' },
      { no: '3010', name: 'Brick  1 x  4' },
    ]);
    expect(stripLdrawMarkers('~|=_Tile')).toBe('Tile');
    expect(stripLdrawMarkers('Tile ~1 x 1')).toBe('Tile ~1 x 1');
  });

  it('pairs with Rebrickable only where both have the number and the names differ, split by hash', () => {
    const rebrickable = new Map([
      ['3001', { no: '3001', name: 'Brick 2 x 4' }], // same name once folded: not a pair
      ['3002', { no: '3002', name: 'Brick 2 x 3 (old)' }],
      ['3004', { no: '3004', name: 'Brick 1 x 2 without Tube' }],
      ['t1008', { no: 'T1008', name: 'Pico LED' }],
      ['3010', { no: '3010', name: 'Brick 1 x 4 Special' }],
    ]);
    const { train, evaluation } = ldrawPairsFrom(parseLdrawList(LIST), rebrickable);
    const all = [...train, ...evaluation];
    expect(all.map((p) => p.no).sort()).toEqual(['3002', '3004', '3010', 'T1008']);
    expect(all.find((p) => p.no === 'T1008')).toEqual({
      no: 'T1008',
      ldrawName: 'Brickstuff Pico LED',
      rebrickableName: 'Pico LED',
    });
    expect(train.every((p) => numberHashIsEven(p.no))).toBe(true);
    expect(evaluation.every((p) => !numberHashIsEven(p.no))).toBe(true);
  });
});

describe('the BrickStore cases', () => {
  const bsx = (items: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><BrickStoreXML><Inventory>${items}</Inventory></BrickStoreXML>`;
  const item = (no: string, name: string, type: string | null = 'P') =>
    `<Item><ItemID>${no}</ItemID>${type === null ? '' : `<ItemTypeID>${type}</ItemTypeID>`}<ItemName>${name}</ItemName></Item>`;

  it("are the distinct (number, name) parts whose name differs from Rebrickable's, where it has the number", () => {
    const rebrickable = new Map([
      ['3001', { no: '3001', name: 'Brick 2 x 4' }],
      ['3794', { no: '3794', name: 'Plate Special 1 x 2 with 1 Stud with Groove' }],
      ['973', { no: '973', name: 'Torso' }],
    ]);
    const cases = brickstoreCasesFrom(
      [
        {
          fileName: 'a.bsx',
          text: bsx(
            item('3001', 'Brick  2 x  4') +
              item('3794', 'Plate, Modified 1 x 2 with 1 Stud with Groove') +
              item('9999', 'Unknown'),
          ),
        },
        {
          fileName: 'b.bsx',
          text: bsx(
            item('3794', 'Plate, Modified 1 x 2 with 1 Stud with Groove', null) +
              item('973', 'Minifig Torso', 'M') +
              item('3001', 'Brick 2 x 4 &amp; more'),
          ),
        },
      ],
      rebrickable,
    );
    expect(cases).toEqual([
      {
        no: '3794',
        name: 'Plate, Modified 1 x 2 with 1 Stud with Groove',
        rebrickableName: 'Plate Special 1 x 2 with 1 Stud with Groove',
      },
      { no: '3001', name: 'Brick 2 x 4 & more', rebrickableName: 'Brick 2 x 4' },
    ]);
  });
});

describe('the sets built from the real data (../shared/data)', () => {
  const dataDir = sharedFile();
  const present = sharedFile('rebrickable', 'parts.csv.gz') !== null;

  it('are null when the data is absent', () => {
    expect(ldrawPairs(null)).toBeNull();
    expect(brickstoreCases(null)).toBeNull();
  });

  it.runIf(
    needs(
      present && sharedFile('brickstore-bsx') !== null,
      'the BrickStore documents in ../shared/data',
      'the BrickStore quality cases',
    ),
  )(`give issue 11's ${EXPECTED_BRICKSTORE_CASES} BrickStore cases`, () => {
    const cases = brickstoreCases(dataDir);
    expect(cases?.length).toBe(EXPECTED_BRICKSTORE_CASES);
    expect(new Set(cases?.map((c) => `${c.no}\u0000${c.name}`)).size).toBe(EXPECTED_BRICKSTORE_CASES);
  });

  it.runIf(
    needs(
      present && sharedFile('ldraw', 'parts.lst.gz') !== null,
      'the LDraw parts list in ../shared/data',
      'the LDraw evaluation set',
    ),
  )('keep every even hash out of the LDraw evaluation set', () => {
    const sets = ldrawPairs(dataDir);
    expect(sets).not.toBeNull();
    expect(sets?.evaluation.length).toBeGreaterThan(1000);
    expect(sets?.evaluation.filter((p) => numberHashIsEven(p.no))).toEqual([]);
    expect(sets?.train.filter((p) => !numberHashIsEven(p.no))).toEqual([]);
    expect(sets?.evaluation.filter((p) => !namesDiffer(p.ldrawName, p.rebrickableName))).toEqual([]);
    // Nothing the table may learn from is measured on.
    const learned = new Set(sets?.train.map((p) => p.no.toLowerCase()));
    expect(sets?.evaluation.filter((p) => learned.has(p.no.toLowerCase()))).toEqual([]);
  });
});
