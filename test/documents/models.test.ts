/**
 * Models as parts lists (issue 49, SPEC §8): LDraw `.ldr`/`.mpd` and BrickLink Studio `.io` files read
 * into lines per (part, colour), submodels expanded with their counts multiplied, and the caps that keep a
 * hostile file from costing more than a refusal: counted before anything is unfolded or built (issue 62).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_PART_LIMIT } from '../../src/documents/formats/ldraw.ts';
import { DOCUMENT_LINE_LIMIT, DOCUMENT_SIZE_LIMIT, readDocumentFile } from '../../src/documents/read-document.ts';
import type { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { file } from '../helpers/documents.ts';
import {
  distinctPartsLdr,
  manyEntriesIo,
  slashNamesIo,
  studioFile,
  submodelMpd,
  use,
} from '../helpers/hostile-models.ts';
import { needs } from '../helpers/needs.ts';
import { findProgram } from '../helpers/programs.ts';
import { tempDir } from '../helpers/temp.ts';
import { zipFile } from '../helpers/zip.ts';

/** Each line as (number, colour as given, quantity, remarks). */
const linesOf = (name: string, content: string | Uint8Array) => {
  const [doc] = readDocumentFile(file(name, content));
  return (doc?.lines ?? []).map((l) => [l.given.no, l.given.colourName, l.quantity, l.remarks]);
};

const refusal = (name: string, content: string | Uint8Array): string => {
  try {
    readDocumentFile(file(name, content));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('not refused');
};

/** An MPD: the main model uses `wheel.ldr` twice (red, blue) and `axle.ldr` once; `axle.ldr` uses `wheel.ldr` too. */
const CAR = [
  '0 FILE car.ldr',
  '0 Car',
  '0 Name: car.ldr',
  use(4, 'wheel.ldr'),
  use(1, 'Wheel.LDR'),
  use(14, 'axle.ldr'),
  use(15, '3001.dat'),
  use(24, '3002.dat'),
  '0 NOFILE',
  '0 FILE wheel.ldr',
  '0 Wheel',
  use(16, '3641.dat'),
  use(0, '4624.dat'),
  use(0, '4624.dat'),
  '0 NOFILE',
  '0 FILE axle.ldr',
  use(16, '3705.dat'),
  use(7, 'wheel.ldr'),
  use(16, 'wheel.ldr'),
  '',
].join('\r\n');

describe('an LDraw model as a parts list (issue 49)', () => {
  it('expands its submodels, counts multiplied, colour 16 from the line that uses each; parts counted per part and colour', () => {
    const [doc] = readDocumentFile(file('car.mpd', CAR));
    expect(doc?.format).toBe('ldraw-model');
    expect(doc?.reading.colourNumbering).toEqual({ numbering: 'ldraw', how: 'format' });
    expect(doc?.key).toMatch(/^car\.mpd#[0-9a-f]{12}$/);
    expect(linesOf('car.mpd', CAR)).toEqual([
      // wheel.ldr in red and in blue (its 3641 in the user's colour)…
      ['3641', 'LDraw colour 4', 1, 'LDraw part 3641'],
      // …each with two 4624 in black: 2 wheels here, 2 in the axle → 8.
      ['4624', 'LDraw colour 0', 8, 'LDraw part 4624'],
      ['3641', 'LDraw colour 1', 1, 'LDraw part 3641'],
      // axle.ldr in yellow: its own 3705 and the wheel it uses in colour 16 take yellow; its grey wheel stays grey.
      ['3705', 'LDraw colour 14', 1, 'LDraw part 3705'],
      ['3641', 'LDraw colour 7', 1, 'LDraw part 3641'],
      ['3641', 'LDraw colour 14', 1, 'LDraw part 3641'],
      ['3001', 'LDraw colour 15', 1, 'LDraw part 3001'],
      // 3002 in the edge colour (24) is no part of the model.
    ]);
    expect(doc?.reading.read).toEqual([
      { title: 'parts', as: '14' },
      { title: 'submodels expanded', as: '2' },
    ]);
  });

  it('a plain .ldr is its own model; a part the model holds is a line named as the model names it; a submodel it does not hold is a line saying so', () => {
    const ldr = [
      '0 Gate',
      use(4, '3001.dat'),
      use(4, 'parts\\3001.DAT'),
      use(16, '3003.dat'),
      use(2, 'door.ldr'),
      use(5, 'mybrick.dat'),
      '0 FILE mybrick.dat',
      '0 My special brick',
      '0 !LDRAW_ORG Unofficial_Part',
      use(16, '3001.dat'),
    ].join('\n');
    expect(linesOf('gate.ldr', ldr)).toEqual([
      ['3001', 'LDraw colour 4', 2, 'LDraw part 3001'],
      // Colour 16 at the top: the user's colour, which nobody gave.
      ['3003', null, 1, 'LDraw part 3003'],
      ['door.ldr', 'LDraw colour 2', 1, 'a submodel the file names but does not hold'],
      ['mybrick', 'LDraw colour 5', 1, 'a part the model holds'],
    ]);
    const [doc] = readDocumentFile(file('gate.ldr', ldr));
    expect(doc?.lines.find((l) => l.given.no === 'mybrick')?.given.name).toBe('My special brick');
    // What it could not read is said, never dropped unseen.
    const [cut] = readDocumentFile(file('cut.ldr', `${ldr}\n1 4 0 0 0 1 0 0\n`));
    expect(cut?.reading.notRead).toEqual(['1 type-1 line that names no part (line 11)']);
  });

  it('a model that includes itself is refused, saying which files; a model of more than a million parts is refused in words, at once', () => {
    const loop = ['0 FILE a.ldr', use(4, 'b.ldr'), '0 FILE b.ldr', use(16, 'c.ldr'), '0 FILE c.ldr', use(16, 'B.ldr')];
    expect(refusal('loop.mpd', loop.join('\n'))).toBe(
      "loop.mpd: the model includes itself (b.ldr → c.ldr → b.ldr); it can't be counted.",
    );
    // Ten levels, each using the next ten times: 10^10 parts, from a file of a few kilobytes.
    const levels = Array.from({ length: 10 }, (_, i) => [
      `0 FILE level${i}.ldr`,
      ...Array.from({ length: 10 }, () => use(16, i === 9 ? '3001.dat' : `level${i + 1}.ldr`)),
    ]).flat();
    const t = performance.now();
    expect(refusal('huge.mpd', levels.join('\n'))).toBe(
      `huge.mpd holds more than ${MODEL_PART_LIMIT.toLocaleString('en-US')} parts (submodels counted each time they are used); brick-work reads models up to that size.`,
    );
    expect(performance.now() - t).toBeLessThan(2_000);
  });

  it('submodels nested past 64 deep are refused, naming where', () => {
    const deep = Array.from({ length: 66 }, (_, i) => [
      `0 FILE m${i}.ldr`,
      use(16, i === 65 ? '3001.dat' : `m${i + 1}.ldr`),
    ]).flat();
    expect(refusal('deep.mpd', deep.join('\n'))).toBe(
      'deep.mpd: submodels are nested more than 64 deep (at m64.ldr); the file is damaged or not a model.',
    );
    expect(linesOf('deep.mpd', deep.slice(2 * 10).join('\n'))).toEqual([['3001', null, 1, 'LDraw part 3001']]);
  });

  it('a file that names no part is refused in words', () => {
    expect(refusal('empty.ldr', '0 Nothing here\n0 Name: empty.ldr\n0 Author: me\n')).toBe(
      'empty.ldr: the model places no parts (it has no type-1 lines)',
    );
  });
});

describe('a BrickLink Studio model (.io)', () => {
  const model = [use(4, '3001.dat'), use(4, '3001.dat'), use(71, '3023.dat')].join('\r\n');
  const expected = [
    ['3001', 'LDraw colour 4', 2, 'LDraw part 3001'],
    ['3023', 'LDraw colour 71', 1, 'LDraw part 3023'],
  ];

  it('reads its model.ldr, plain as newer files keep it or encrypted as older ones do', () => {
    const plain = zipFile([
      { name: '.info', data: '{"version":"2.2"}' },
      { name: 'model.ldr', data: model },
      { name: 'thumbnail.png', data: 'png' },
    ]);
    const encrypted = zipFile([{ name: 'model.ldr', data: model, password: 'soho0909' }]);
    expect(linesOf('Castle.io', plain)).toEqual(expected);
    expect(linesOf('Castle old.io', encrypted)).toEqual(expected);
    const [doc] = readDocumentFile(file('Castle.io', plain));
    expect(doc?.format).toBe('studio-model');
    // Named otherwise, its entries still tell it.
    expect(linesOf('Castle.zip', plain)).toEqual(expected);
  });

  it('refuses in words: another password, a damaged archive, no model, a ZIP bomb before it is unpacked, a size the archive lies about', () => {
    expect(refusal('other.io', zipFile([{ name: 'model.ldr', data: model, password: 'secret' }]))).toBe(
      "other.io: its model is encrypted with a password other than Studio's, so it can't be read",
    );
    const whole = zipFile([{ name: 'model.ldr', data: model }]);
    expect(refusal('cut.io', whole.slice(0, 40))).toBe(
      'cut.io: it is not a Studio model that can be read: its ZIP archive is damaged',
    );
    expect(refusal('none.io', zipFile([{ name: '.info', data: '{}' }]))).toBe(
      'none.io: the Studio file holds no model (no model.ldr in its archive)',
    );
    // 200 MB of model in 200 kB: refused from its directory, nothing unpacked.
    const bomb = zipFile([{ name: 'model.ldr', data: new Uint8Array(200 * 1024 * 1024).fill(0x30) }]);
    expect(bomb.byteLength).toBeLessThan(1_000_000);
    expect(refusal('bomb.io', bomb)).toBe(
      'bomb.io would unpack to 200 MB, more than the 80 MB a Studio model may; nothing was unpacked.',
    );
    // Saying 1 kB while holding 30 MB: unpacked no further than the kilobyte it states, and refused.
    const liar = zipFile([{ name: 'model.ldr', data: new Uint8Array(30 * 1024 * 1024).fill(0x30), statedSize: 1024 }]);
    expect(refusal('liar.io', liar)).toBe('liar.io: its model could not be unpacked (the archive is damaged)');
    // Encrypted under Studio's own password, its size a lie: damaged, not "another password" (issue 62 §5).
    const oldLiar = zipFile([
      { name: 'model.ldr', data: new Uint8Array(30 * 1024).fill(0x30), password: 'soho0909', statedSize: 1024 },
    ]);
    expect(refusal('old liar.io', oldLiar)).toBe(
      'old liar.io: its model could not be unpacked (the archive is damaged)',
    );
    const many = zipFile(Array.from({ length: 10_001 }, (_, i) => ({ name: `p${i}.dat`, data: '' })));
    expect(refusal('many.io', many)).toBe(
      'many.io holds 10,001 entries, more than the 10,000 a Studio model may; nothing was unpacked.',
    );
  });
});

/** What `name` is refused with: its code and words. */
const refused = (name: string, content: string | Uint8Array): { code: string; message: string } => {
  try {
    readDocumentFile(file(name, content));
  } catch (e) {
    return { code: (e as BrickWorkError).code, message: (e as Error).message };
  }
  throw new Error('not refused');
};

/** `read()`'s answer and how long it took, in milliseconds. */
const timed = <T>(read: () => T): { answer: T; ms: number } => {
  const t = performance.now();
  const answer = read();
  return { answer, ms: performance.now() - t };
};

describe('a Studio file’s directory is checked before anything is built from it (issue 62 §1)', () => {
  it('four entries named with 32,767 "x/" each (525 kB): refused at once, naming the name’s length', () => {
    const io = slashNamesIo();
    expect(io.byteLength).toBeLessThan(600_000);
    const { answer, ms } = timed(() => refused('slashes.io', io));
    expect(answer).toEqual({
      code: 'too-big',
      message:
        "slashes.io holds an entry whose name is 65,534 bytes long, more than the 1,024 a Studio model's entry names may be; nothing was unpacked.",
    });
    expect(ms).toBeLessThan(1_000);
    // A name of a path's length is read as any other.
    const long = zipFile([
      { name: 'model.ldr', data: use(4, '3001.dat') },
      { name: `${'CustomParts/'.repeat(84)}x.dat`, data: '' },
    ]);
    expect(linesOf('long.io', long)).toEqual([['3001', 'LDraw colour 4', 1, 'LDraw part 3001']]);
  });

  it('65,001 entries: refused from the directory’s end, before an entry is read', () => {
    const crowd = manyEntriesIo(65_001);
    const { answer, ms } = timed(() => refused('crowd.io', crowd));
    expect(answer).toEqual({
      code: 'too-big',
      message: 'crowd.io holds 65,001 entries, more than the 10,000 a Studio model may; nothing was unpacked.',
    });
    expect(ms).toBeLessThan(1_000);
  });

  it('a model whose sizes lie is damaged, whether or not it is encrypted; the same name twice is refused', () => {
    const lying = (password?: string) =>
      zipFile([
        {
          name: 'model.ldr',
          data: new Uint8Array(30 * 1024 * 1024).fill(0x30),
          statedSize: 1024,
          ...(password === undefined ? {} : { password }),
        },
      ]);
    expect(refusal('liar.io', lying('soho0909'))).toBe(
      'liar.io: its model could not be unpacked (the archive is damaged)',
    );
    expect(refusal('liar.io', lying())).toBe('liar.io: its model could not be unpacked (the archive is damaged)');
    const twice = zipFile([
      { name: 'model.ldr', data: use(4, '3001.dat') },
      { name: 'model.ldr', data: use(1, '3003.dat') },
    ]);
    expect(refusal('twice.io', twice)).toBe(
      'twice.io: it is not a Studio model that can be read: its archive holds model.ldr twice',
    );
  });

  it.runIf(needs(findProgram('zip') !== null, "Info-ZIP's zip", 'a .io made by another ZIP writer'))(
    'made by another writer (Info-ZIP, sizes after the data and the password checked by the time): read, plain or encrypted',
    () => {
      const dir = tempDir();
      fs.writeFileSync(
        path.join(dir, 'model.ldr'),
        [use(4, '3001.dat'), use(4, '3001.dat'), use(71, '3023.dat')].join('\r\n'),
      );
      const expected = [
        ['3001', 'LDraw colour 4', 2, 'LDraw part 3001'],
        ['3023', 'LDraw colour 71', 1, 'LDraw part 3023'],
      ];
      for (const [name, args] of [
        ['plain.io', []],
        // Info-ZIP encrypts with its sizes after the data (flag bit 3): its password is checked by the time.
        ['old.io', ['-P', 'soho0909']],
      ] as const) {
        execFileSync(findProgram('zip') as string, ['-q', '-X', ...args, name, 'model.ldr'], { cwd: dir });
        expect(linesOf(name, fs.readFileSync(path.join(dir, name)))).toEqual(expected);
      }
    },
  );
});

/** `n` LDraw colours, none of them the user's 16 or the edge colour 24. */
const colours = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);

describe('small files, large work: a model is counted before it is unfolded (issue 62 §1)', () => {
  it('a submodel of 10,000 parts used 100,000 times (a .io of tens of kB): refused at once, past a million parts', () => {
    const io = studioFile(submodelMpd(10_000, [16], 100_000));
    expect(io.byteLength).toBeLessThan(200_000);
    const { answer, ms } = timed(() => refused('reused.io', io));
    expect(answer).toEqual({
      code: 'too-big',
      message: `reused.io holds more than ${MODEL_PART_LIMIT.toLocaleString('en-US')} parts (submodels counted each time they are used); brick-work reads models up to that size.`,
    });
    expect(ms).toBeLessThan(2_000);
  });

  it('a submodel of 20,000 parts in colour 16 used in 1,000 colours: refused at once, not `internal` after gigabytes', () => {
    const io = studioFile(submodelMpd(20_000, colours(1_000)));
    const { answer, ms } = timed(() => refused('colours.io', io));
    expect(answer.code).toBe('too-big');
    expect(answer.message).toMatch(/^colours\.io holds more than 1,000,000 parts/);
    expect(ms).toBeLessThan(2_000);
  });

  it('a model is at most a document’s 200,000 lines: its type-1 lines as they are read, its parts in their colours as they are made', () => {
    const limit = DOCUMENT_LINE_LIMIT.toLocaleString('en-US');
    // 480,000 parts, one line each (19 MB): imported whole before; the reader stops at the line past the cap.
    const flat = distinctPartsLdr(480_000);
    expect(flat.length).toBeLessThan(DOCUMENT_SIZE_LIMIT);
    expect(refused('flat.ldr', flat)).toEqual({
      code: 'too-big',
      message: `flat.ldr has more than ${limit} lines that place a part or a submodel (the reader stopped at text line 200,001); brick-work imports at most ${limit} lines per document.`,
    });
    // 1,000 parts in 201 colours: 201,000 lines of 201,000 parts, from a file of 40 kB.
    expect(refused('coloured.mpd', submodelMpd(1_000, colours(201)))).toEqual({
      code: 'too-big',
      message: `coloured.mpd would make more than ${limit} lines (a line for each part in each colour, submodels expanded); brick-work imports at most ${limit} lines per document.`,
    });
    // At the caps, read whole.
    const [full] = readDocumentFile(file('full.mpd', submodelMpd(1_000, colours(200))));
    expect(full?.lines).toHaveLength(DOCUMENT_LINE_LIMIT);
    expect(full?.lines.at(-1)).toMatchObject({ position: 200_000, quantity: 1, given: { no: 'p999' } });
    const [each] = readDocumentFile(file('each.ldr', distinctPartsLdr(DOCUMENT_LINE_LIMIT)));
    expect(each?.lines).toHaveLength(DOCUMENT_LINE_LIMIT);
  });

  it('nesting is counted by the deepest chain, however a submodel was first reached: a chain of 2,000 is refused, not a stack overflow', () => {
    // The main model uses m1999 first, then m1998 (which uses m1999), …: each first reached two deep.
    const chain = [
      '0 FILE main.ldr',
      ...Array.from({ length: 2_000 }, (_, i) => use(16, `m${1_999 - i}.ldr`)),
      ...Array.from({ length: 2_000 }, (_, i) => [
        `0 FILE m${i}.ldr`,
        use(16, i === 1_999 ? '3001.dat' : `m${i + 1}.ldr`),
      ]).flat(),
    ].join('\n');
    expect(refusal('chain.mpd', chain)).toMatch(
      /^chain\.mpd: submodels are nested more than 64 deep \(at m\d+\.ldr\); the file is damaged or not a model\.$/,
    );
  });

  it('counted once per submodel and colour, a model reads as it does unfolded use by use: 60 random models', () => {
    let seed = 62;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return (seed >>> 8) % n;
    };
    const someColours = [16, 16, 16, 4, 1, 0, 24];
    for (let m = 0; m < 60; m++) {
      const count = 1 + random(6);
      const model = Array.from({ length: count }, (_, s) => ({
        name: `s${s}.ldr`,
        uses: Array.from({ length: 1 + random(6) }, () => {
          const sub = s + 1 + random(count - s + 2);
          const name = sub < count && random(2) === 0 ? `s${sub}.ldr` : `${3001 + random(4)}.dat`;
          return [someColours[random(someColours.length)] as number, name] as const;
        }),
      }));
      const text = model.flatMap((s) => [`0 FILE ${s.name}`, ...s.uses.map(([c, n]) => use(c, n))]).join('\n');
      const reference = unfolded(model);
      expect(
        linesOf(`random${m}.mpd`, text).map(([no, colour, qty]) => [no, colour, qty]),
        text,
      ).toEqual(reference);
    }
  });
});

/** The lines of a model unfolded use by use, nothing kept: what the reader's counting must agree with. */
function unfolded(model: readonly { name: string; uses: readonly (readonly [number, string])[] }[]) {
  const lines = new Map<string, [string, string | null, number]>();
  const go = (section: (typeof model)[number], colour: number): void => {
    for (const [c, name] of section.uses) {
      if (c === 24) continue;
      const inColour = c === 16 ? colour : c;
      const sub = model.find((s) => s.name === name);
      if (sub !== undefined) go(sub, inColour);
      else {
        const no = name.replace(/\.dat$/, '');
        const line = lines.get(`${no} ${inColour}`);
        if (line !== undefined) line[2] += 1;
        else lines.set(`${no} ${inColour}`, [no, inColour === 16 ? null : `LDraw colour ${inColour}`, 1]);
      }
    }
  };
  if (model[0] !== undefined) go(model[0], 16);
  return [...lines.values()];
}
