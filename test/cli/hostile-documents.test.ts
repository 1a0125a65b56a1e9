/**
 * Small hostile documents (issue 62, §2), through the CLI's import preview (`--dry-run`: the refusal in
 * its `refusal`, exit 1), each measured as the child's peak resident memory against the 200 MB bar of
 * every refused input (`test/cli/too-big.test.ts`): 200,001 XML items, millions of character references
 * in a field, and 10 million nested brackets are refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nested, repeated, writePieces } from '../helpers/hostile-files.ts';
import { cliMeasured, MB200 } from '../helpers/peak-rss.ts';
import { tempDir } from '../helpers/temp.ts';

describe('documents refused within memory (issue 62, §2)', () => {
  const item = '<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><MINQTY>1</MINQTY></ITEM>\n';

  it('200,001 XML items: refused at the line cap before they are held, under 200 MB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'wanted.xml');
    writePieces(file, [Buffer.from('<INVENTORY>\n'), ...repeated(item, 200_001), Buffer.from('</INVENTORY>\n')]);
    expect(fs.statSync(file).size).toBeLessThan(20 * 1024 * 1024);
    const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'import', file, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.json.refusal).toEqual({
      code: 'parse-error',
      message:
        'wanted.xml has more than 200,000 lines (the reader stopped at line 200,001, text line 200,002); brick-work imports at most 200,000 lines per document — split the file.',
    });
    expect(r.peakKb).toBeLessThan(MB200);
  });

  it('20 MB of nested brackets named .csv: said to be JSON, not an order document, under 200 MB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'list.csv');
    writePieces(file, nested(10_000_000));
    const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'import', file, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.json.refusal.code).toBe('parse-error');
    expect(r.json.refusal.message).toMatch(/^This is a JSON file, not an order document \(list\.csv\): /);
    expect(r.peakKb).toBeLessThan(MB200);
  });

  it('18 MB of character references in a field: refused as too long, under 200 MB', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'wanted.xml');
    writePieces(file, [
      Buffer.from('<INVENTORY><ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><REMARKS>'),
      ...repeated('&#x1F9F1;', 2_000_000),
      Buffer.from('</REMARKS></ITEM></INVENTORY>\n'),
    ]);
    const r = await cliMeasured(['--db', path.join(dir, 'shop.sqlite'), 'import', file, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.json.refusal.code).toBe('parse-error');
    expect(r.json.refusal.message).toMatch(
      /^wanted\.xml: line 1: the remarks field holds 4,000,000 characters; brick-work takes at most 2,000 there/,
    );
    expect(r.peakKb).toBeLessThan(MB200);
  });
});
