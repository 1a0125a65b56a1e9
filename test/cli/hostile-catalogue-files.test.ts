/**
 * Small hostile catalogue files (issue 62, §2), through the CLI, each measured as the child's peak
 * resident memory against the 200 MB bar of every refused input (`test/cli/too-big.test.ts`): JSON that
 * nests 50 million deep, gzipped (97 KB) or plain (40 MB), is refused at the reader's depth (`too-big`,
 * naming it, as SPEC §11 has what a file would unfold to refused), and a colour
 * list beside tens of MB of other members is read a colour at a time; a gzip file that unpacks past the
 * catalogue cap is `too-big`, naming the cap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gzipped, nested, repeated, writePieces } from '../helpers/hostile-files.ts';
import { cliMeasured, MB200 } from '../helpers/peak-rss.ts';
import { tempDir } from '../helpers/temp.ts';

const DEPTH_REFUSAL =
  'line 1, column 33: the JSON nests more than 32 levels deep here; brick-work reads no deeper (no file it reads nests more than a few)';

describe('a catalogue file of JSON is read a piece at a time, to a depth (issue 62, §2)', () => {
  it('50 million "[" then 50 million "]", gzipped to about 100 KB: too-big at the depth, naming it, under 200 MB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'colours.json.gz');
    fs.writeFileSync(file, await gzipped(nested(50_000_000)));
    expect(fs.statSync(file).size).toBeLessThan(200 * 1024);
    const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'catalogue', 'import', file]);
    expect(r.code).toBe(1);
    expect(r.json.error).toEqual({ code: 'too-big', message: `colours.json.gz, ${DEPTH_REFUSAL}` });
    expect(r.peakKb).toBeLessThan(MB200);
  });

  it('a 40 MB plain file of the same: the same refusal, under 200 MB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'colours.json');
    writePieces(file, nested(20_000_000));
    const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'catalogue', 'import', file]);
    expect(r.json.error).toEqual({ code: 'too-big', message: `colours.json, ${DEPTH_REFUSAL}` });
    expect(r.peakKb).toBeLessThan(MB200);
  });

  it('a colour list beside 33 MB of other members is read a colour at a time, within 200 MB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'colours.json');
    const colour = (id: number, ids: Iterable<Buffer>) => [
      Buffer.from(
        `{"id": ${id}, "name": "Colour ${id}", "external_ids": {"BrickLink": {"ext_ids": [${id}], "ext_descrs": [["Colour ${id}"]]}, "LDraw": {"ext_ids": [`,
      ),
      ...ids,
      Buffer.from(`${id}]}}}`),
    ];
    writePieces(file, [
      Buffer.from('{"count": 2, "junk": ['),
      ...repeated('[1, 2, 3], ', 3_000_000),
      Buffer.from('0], "results": ['),
      ...colour(1, []),
      Buffer.from(', '),
      ...colour(2, repeated('1, ', 10)),
      Buffer.from(']}'),
    ]);
    const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'catalogue', 'import', file]);
    expect(r.json.files).toEqual([
      { name: 'colours.json', format: 'Rebrickable colours with external ids (colour table)', rows: 6 },
    ]);
    expect(r.peakKb).toBeLessThan(MB200);
  });
});

describe('a gzip file that unpacks past the cap (issue 62, §2)', () => {
  it('4 MB unpacking to 4 GB: too-big, naming the cap, as it passes it; under 200 MB', async () => {
    const dir = tempDir();
    // A header, then a member of 64 MB 64 times (gzip unpacks members one after another): of one long
    // value, and of blank lines.
    for (const filler of ['0', '\n']) {
      const file = path.join(dir, 'parts.csv.gz');
      const member = await gzipped(repeated(filler, 64 * 1024 * 1024));
      writePieces(file, [
        await gzipped([Buffer.from('part_num,name,part_cat_id\n')]),
        ...Array.from({ length: 64 }, () => member),
      ]);
      expect(fs.statSync(file).size).toBeLessThan(5 * 1024 * 1024);
      const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'catalogue', 'import', file]);
      expect(r.code).toBe(1);
      expect(r.json.error).toEqual({
        code: 'too-big',
        message:
          'parts.csv.gz unpacks to more than the 256 MB a catalogue file may be, so unpacking stopped there; it was not read.',
      });
      expect(r.peakKb, JSON.stringify(filler)).toBeLessThan(MB200);
    }
  });
});
