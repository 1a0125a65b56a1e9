import { describe, expect, it } from 'vitest';
import { readCatalogue, readCatalogueFile, unpacked, type NamedContent } from '../../src/catalogue/read-file.ts';
import { streamFile, type StreamMessage } from '../../src/catalogue/read-stream.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { bytes, gzip, TABLES } from '../helpers/catalogue-files.ts';
import { gzipped, repeated } from '../helpers/hostile-files.ts';

/**
 * Catalogue files read as the app and the CLI read them (issue 62, §2): Rebrickable's colour list (JSON)
 * a piece at a time as it unpacks, with the rows reading it whole gives, on the reader thread too;
 * JSON that is too deep, broken or not UTF-8 refused in words, with its line and column; a gzip file
 * refused as `too-big` as it unpacks past the cap, one that fits unpacked exactly.
 */

async function refusalOfAsync(fn: () => Promise<unknown>): Promise<BrickWorkError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof BrickWorkError) return e;
    throw e;
  }
  throw new Error('expected a refusal, but nothing was refused');
}

/** What the reader thread sends for a file (on this thread). */
async function streamed(file: NamedContent): Promise<StreamMessage[]> {
  const out: StreamMessage[] = [];
  await streamFile(file, 'P', (m) => out.push(m));
  return out;
}

/** The refusal a file gets read by `readCatalogue`, and the same from the reader thread's work. */
async function refusedBoth(file: NamedContent): Promise<{ code: string; message: string }> {
  const read = await refusalOfAsync(() => readCatalogue(file, { type: 'P' }));
  expect((await streamed(file)).at(-1)).toEqual({ kind: 'error', error: read.toValue() });
  return read.toValue();
}

const json = (name: string, text: string): NamedContent => ({ name, content: bytes(text) });

describe('a JSON catalogue file is read as it unpacks (issue 62, §2)', () => {
  it("Rebrickable's colour list, plain, gzipped or with a BOM: the rows reading it whole gives, on the reader thread too", async () => {
    const whole = readCatalogueFile(json('colours.json', TABLES.colourTable), { type: 'P' });
    expect(whole.records.length).toBeGreaterThan(5);
    for (const content of [
      bytes(TABLES.colourTable),
      gzip(TABLES.colourTable),
      bytes(`\uFEFF\n ${TABLES.colourTable}`),
    ]) {
      const file = { name: 'colours.json', content };
      expect(await readCatalogue(file, { type: 'P' })).toEqual(whole);
      const messages = await streamed(file);
      expect(messages.map((m) => m.kind)).toEqual(['start', 'rows', 'end']);
      expect(messages[1]).toMatchObject({ kind: 'rows', records: whole.records });
    }
  });

  it('nesting past 32 levels is too-big at the first bracket too deep, whatever follows', async () => {
    const deep = `{"results": ${'['.repeat(100)}`;
    expect(await refusedBoth(json('colours.json', deep))).toEqual({
      code: 'too-big',
      message:
        'colours.json, line 1, column 44: the JSON nests more than 32 levels deep here; brick-work reads no deeper (no file it reads nests more than a few)',
    });
    const gz = { name: 'colours.json.gz', content: await gzipped(repeated('[', 10_000_000)) };
    expect((await refusedBoth(gz)).message).toMatch(
      /^colours\.json\.gz, line 1, column 33: the JSON nests more than 32/,
    );
    // Read whole, as a test does, the same.
    expect(() => readCatalogueFile(json('colours.json', deep), { type: 'P' })).toThrow(/column 44: the JSON nests/);
  });

  it('broken JSON, a colour of more than 1 MB, a NUL, bytes that are not UTF-8: refused in words, saying where', async () => {
    expect(await refusedBoth(json('colours.json', '{"results": [{"id": 1,, }]}'))).toEqual({
      code: 'parse-error',
      message:
        'colours.json, line 1, column 23: found "," where the JSON needs a member name in quotes (is the file damaged?)',
    });
    const big = `{"results": [\n{"id": 1, "name": "x", "external_ids": {"LDraw": {"ext_ids": [${'1,'.repeat(400_000)}1]}}}]}`;
    const tooBig = await refusedBoth(json('colours.json', big));
    expect(tooBig.code).toBe('too-big');
    expect(tooBig.message).toMatch(
      /^colours\.json, line 2, column \d+: a colour of "results" is larger than 1 MB; no colour of Rebrickable's list is more than a few KB$/,
    );
    expect(
      await refusedBoth(json('colours.json', '{"results": [{"id": 1, "name": "a\\u0000b", "external_ids": {}}]}')),
    ).toEqual({
      code: 'parse-error',
      message:
        'colours.json, line 1, column 32: a string of the JSON holds a NUL character (\\u0000), which no catalogue file holds',
    });
    const latin1 = Buffer.concat([
      Buffer.from('{"results": [\n  {"id": 1, "name": "Gr'),
      Buffer.from([0xfc]),
      Buffer.from('n"}]}'),
    ]);
    expect(await refusedBoth({ name: 'colours.json', content: latin1 })).toEqual({
      code: 'parse-error',
      message: 'colours.json, line 2, column 24: byte 0xFC is not UTF-8 text, which JSON is; save it as UTF-8',
    });
  });

  it('JSON in UTF-16 or UTF-32, with or without a mark, is named as that text', async () => {
    const text = '{"results": []}';
    for (const [content, wide] of [
      [Buffer.from(text, 'utf16le'), 'UTF-16'],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'UTF-16'],
      [Buffer.from([...text].flatMap((c) => [c.charCodeAt(0), 0, 0, 0])), 'UTF-32'],
    ] as const) {
      expect(await refusedBoth({ name: 'colours.json', content })).toEqual({
        code: 'parse-error',
        message: `colours.json: the file is ${wide} text; save it as UTF-8`,
      });
    }
  });

  it('JSON that is not the colour list is refused as before', async () => {
    expect(await refusedBoth(json('inventory.json', '[{"id": 1, "name": "x", "external_ids": {}}]'))).toEqual({
      code: 'parse-error',
      message:
        'inventory.json is a JSON file, but not Rebrickable\'s colour list with its external ids (an object whose "results" are colours with "id", "name" and "external_ids").',
    });
    for (const text of [
      '{"results": []}',
      '{"results": [{"id": "1", "name": "x", "external_ids": {}}]}',
      '{"results": {}}',
    ]) {
      expect((await refusedBoth(json('inventory.json', text))).message, text).toMatch(/is a JSON file, but not/);
    }
  });
});

describe('a gzip file unpacks within the cap (issue 62, §2)', () => {
  it('past 256 MB: too-big naming the cap, as it passes it', async () => {
    // 64 MB of rows, five times over (gzip unpacks one member after another).
    const member = await gzipped([
      Buffer.from('part_num,name,part_cat_id\n'),
      ...repeated('3001,Brick,11\n', 4_800_000),
    ]);
    const file = { name: 'parts.csv.gz', content: Buffer.concat([member, member, member, member, member]) };
    expect(await refusedBoth(file)).toEqual({
      code: 'too-big',
      message:
        'parts.csv.gz unpacks to more than the 256 MB a catalogue file may be, so unpacking stopped there; it was not read.',
    });
  });

  it('one that unpacks to more than is held at once, within the cap, unpacks exactly', async () => {
    const rows = [...repeated('3001,Brick 2 x 4,11\n', 1_000_000)];
    const plain = Buffer.concat([Buffer.from('part_num,name,part_cat_id\n'), ...rows]);
    expect(plain.byteLength).toBeGreaterThan(16 * 1024 * 1024);
    const got = await unpacked({ name: 'parts.csv.gz', content: await gzipped([plain]) });
    expect(Buffer.compare(Buffer.from(got), plain)).toBe(0);
  });
});
