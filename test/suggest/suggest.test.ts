import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { SuggestIndex, type IndexedItem } from '../../src/suggest/index.ts';
import { suggestWords } from '../../src/suggest/words.ts';
import { readCatalogueFile } from '../../src/catalogue/read-file.ts';
import { cliJson } from '../helpers/cli.ts';
import { files } from '../helpers/catalogue-files.ts';
import { sharedFile } from '../helpers/shared-data.ts';
import { tempDir } from '../helpers/temp.ts';

const ITEMS: IndexedItem[] = [
  { type: 'P', no: '3001', name: 'Brick 2 x 4' },
  { type: 'P', no: '3001old', name: 'Brick 2 x 4 with Cross Supports' },
  { type: 'P', no: '3001a', name: 'Brick 2 x 4 without Bottom Tubes' },
  { type: 'P', no: '30144', name: 'Brick 2 x 4 x 3' },
  { type: 'P', no: '2456', name: 'Brick 2 x 6' },
  { type: 'P', no: '3023', name: 'Plate 1 x 2' },
  { type: 'P', no: '3794', name: 'Plate, Modified 1 x 2 with 1 Stud with Groove' },
  { type: 'P', no: '4081', name: 'Plate 1 x 1 with Clip Light' },
  { type: 'P', no: '60470', name: 'Plate 1 x 2 with 2 Clips Horizontal' },
  { type: 'P', no: '48336', name: 'Plate 1 x 2 with Handle on Side' },
  { type: 'P', no: '63868', name: 'Plate 1 x 2 with Clip Horizontal on End' },
  { type: 'P', no: '11476', name: 'Plate, Modified 1 x 2 with Clip Horizontal on Side' },
  { type: 'S', no: '10190-1', name: 'Market Street' },
];

describe('suggestions (SPEC §7) on a catalogue the test makes', () => {
  const index = new SuggestIndex(ITEMS);

  it('fold case, spacing and punctuation into whole words', () => {
    expect(suggestWords('Brick  2 x  4')).toEqual(['brick', '2', 'x', '4']);
    expect(suggestWords('Plate, Modified 1 x 2 (with Clip)')).toEqual(['plate', 'modified', '1', 'x', '2', 'with', 'clip']);
  });

  it('give the longest whole-word prefix group first, shorter names first', () => {
    const s = index.byName('Brick 2 x 4', 20);
    expect(s.slice(0, 4).map((x) => [x.no, x.rule])).toEqual([
      ['3001', 'prefix'],
      ['30144', 'prefix'],
      ['3001old', 'prefix'],
      ['3001a', 'prefix'],
    ]);
    // "brick 2 x 4" is not a prefix of "brick 2 x 40…": whole words only.
    expect(index.byName('Brick  2 x  4', 20)).toEqual(s);
  });

  it('fall back to the longest prefix that exists, then add the all-words group, fewest extra words first, without repeats', () => {
    const s = index.byName('Plate 1 x 2 with Clip Horizontal', 20);
    // The whole name is a prefix of one item; the others hold all its words elsewhere.
    expect(s.map((x) => [x.no, x.rule])).toEqual([
      ['63868', 'prefix'],
      ['11476', 'words'],
    ]);
    // "plate 1 x 2 with" is the longest prefix any name shares with this one: all three, shortest first.
    expect(index.byName('Plate 1 x 2 with Bar', 20).map((x) => [x.no, x.rule])).toEqual([
      ['48336', 'prefix'],
      ['60470', 'prefix'],
      ['63868', 'prefix'],
    ]);
    expect(new Set(s.map((x) => x.no)).size).toBe(s.length);
    const words = index.byName('Clip Horizontal Plate', 20);
    // No name starts with "clip": all words, fewest extra words first ("Clips" is another word).
    expect(words.map((x) => [x.no, x.rule])).toEqual([
      ['63868', 'words'],
      ['11476', 'words'],
    ]);
  });

  it('by number: the longest common prefix in characters, shortest numbers first', () => {
    expect(index.byNumberPrefix('3001old', 3).map((x) => [x.no, x.rule])).toEqual([['3001old', 'number']]);
    expect(index.byNumberPrefix('3001new', 10).map((x) => x.no)).toEqual(['3001', '3001a', '3001old']);
    expect(index.byNumberPrefix('2456x', 10).map((x) => x.no)).toEqual(['2456']);
    expect(index.byNumberPrefix('zzz', 10)).toEqual([]);
  });

  it('respect the limit and search by name or number', () => {
    expect(index.byName('Brick', 2).map((x) => x.no)).toEqual(['3001', '2456']);
    expect(index.search('3794', 5).map((x) => [x.no, x.rule])).toEqual([['3794', 'number']]);
    expect(index.search('market', 5).map((x) => x.no)).toEqual(['10190-1']);
  });

  it('suggest --json through the CLI, by name and by number', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'brick-work.sqlite');
    const parts = path.join(dir, 'parts.csv');
    fs.writeFileSync(parts, files.rebrickableParts(ITEMS.filter((i) => i.type === 'P')));
    expect((await cliJson(['--db', db, 'catalogue', 'import', parts])).code).toBe(0);
    const byName = await cliJson(['--db', db, 'suggest', 'Brick 2 x 4', '--limit', '2']);
    expect(byName.json).toEqual({
      suggestions: [
        { type: 'P', no: '3001', name: 'Brick 2 x 4', rule: 'prefix' },
        { type: 'P', no: '30144', name: 'Brick 2 x 4 x 3', rule: 'prefix' },
      ],
    });
    const byNumber = await cliJson(['--db', db, 'suggest', '--number', '3001old']);
    expect(byNumber.json.suggestions[0]).toEqual({ type: 'P', no: '3001old', name: 'Brick 2 x 4 with Cross Supports', rule: 'number' });
    expect((await cliJson(['--db', db, 'suggest'])).code).toBe(2);
  });
});

const partsFile = sharedFile('rebrickable', 'parts.csv.gz');
const ldrawFile = sharedFile('ldraw', 'parts.lst.gz');

describe.runIf(partsFile !== null)('suggestions on the real Rebrickable catalogue (../shared/data)', () => {
  let index: SuggestIndex;
  beforeAll(() => {
    const f = readCatalogueFile({ name: 'parts.csv.gz', content: fs.readFileSync(partsFile ?? '') }, { type: 'P' });
    index = new SuggestIndex(f.records.flatMap((r) => (r.kind === 'item' ? [{ type: r.type, no: r.no, name: r.name }] : [])));
  });

  it('list 3001 first for "Brick 2 x 4", and the same for LDraw\'s "Brick  2 x  4"', () => {
    expect(index.byName('Brick 2 x 4', 20)[0]).toMatchObject({ no: '3001', rule: 'prefix' });
    expect(index.byName('Brick  2 x  4', 20)).toEqual(index.byName('Brick 2 x 4', 20));
  });

  it('list every item that begins like "Plate 1 x 2 with" under prefix before any words match', () => {
    const s = index.byName('Plate 1 x 2 with', 200);
    const rules = s.map((x) => x.rule);
    const firstWords = rules.indexOf('words');
    expect(firstWords).toBeGreaterThan(5);
    expect(rules.slice(0, firstWords).every((r) => r === 'prefix')).toBe(true);
    expect(rules.slice(firstWords).every((r) => r === 'words')).toBe(true);
    for (const x of s.filter((y) => y.rule === 'prefix')) expect(suggestWords(x.name).slice(0, 5)).toEqual(['plate', '1', 'x', '2', 'with']);
  });

  it('list 3001 first for the number 3001old', () => {
    expect(index.byNumberPrefix('3001old', 20)[0]).toMatchObject({ no: '3001', rule: 'number' });
  });

  it.runIf(ldrawFile !== null)('find the part of an LDraw name in the prefix group, whatever its spacing', () => {
    const lines = zlib.gunzipSync(fs.readFileSync(ldrawFile ?? '')).toString('utf8').split('\n');
    const names = new Map<string, string>();
    for (const line of lines) {
      const m = /^(\S+)\.dat\s+(.+?)\s*$/.exec(line);
      if (m?.[1] && m[2] && /\s{2,}/.test(m[2])) names.set(m[1], m[2]);
    }
    let checked = 0;
    for (const [no, ldrawName] of names) {
      const s = index.byName(ldrawName, 50);
      const mine = s.find((x) => x.no === no);
      if (mine && suggestWords(mine.name).join(' ') === suggestWords(ldrawName).join(' ')) {
        expect(mine.rule).toBe('prefix');
        checked += 1;
      }
      if (checked >= 300) break;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
