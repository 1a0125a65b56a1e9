import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { csv } from '../helpers/documents.ts';
import { storeWithCatalogue } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

// Issue 64 §3: "1 lines" reads "1 line" everywhere, the command line included.
it('one of anything is said in the singular: a line, a lot, a piece', async () => {
  const { dbPath } = await storeWithCatalogue();
  const dir = tempDir();
  const one = path.join(dir, 'one.csv');
  fs.writeFileSync(one, csv(['BLItemNo', 'BLColorId', 'Qty'], [['3001', 5, 1]]));
  const dry = await cli(['--db', dbPath, 'import', one, '--dry-run']);
  expect(dry.stdout).toContain('Would import one.csv into a new order one.csv: 1 line, 1 placed, 0 unplaced.');
  const done = await cli(['--db', dbPath, 'import', one]);
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toMatch(/Imported one\.csv into order one\.csv \(#1, USD\): 1 line, 1 placed, 0 unplaced\./);
  expect((await cli(['--db', dbPath, 'orders'])).stdout).toMatch(/ 1 line {2,}0 unplaced/);
  const compared = await cli(['--db', dbPath, 'compare', 'order:1', one]);
  expect(compared.stdout).toContain(': 1 lot, 1 piece');
  expect(compared.stdout).toContain('Same: 1 lot.');
  expect(compared.stdout).toContain('Missing on the right: 0 pieces');
  expect(`${dry.stdout}${done.stdout}${compared.stdout}`).not.toMatch(/\b1 (lines|lots|pieces)\b/);
});
