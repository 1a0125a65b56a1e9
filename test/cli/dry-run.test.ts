import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { PreviewLineView } from '../../src/api/contract.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';

/** Issue 60 §4: a dry run of a document already imported shows each line's reason, as any preview does. */

const MARKET = bsx([
  { no: '3001', name: 'Brick 2 x 4', colour: 5, qty: 4 },
  { no: '3003', name: 'Brick 2 x 2', colour: 5, qty: 2 },
  { no: 'x999', name: 'Mystery part', colour: 5, qty: 1 },
  { no: '', name: 'Odd bit', colour: 5, qty: 1 },
]);

describeEachStore('a dry run of a duplicate (issue 60 §4)', () => {
  it('shows every line with its placement or its reason, beside the refusal, in --json too', async () => {
    const { db, dbPath } = await storeWithCatalogue();
    const service = serviceFor(db, dbPath);
    const dir = tempDir();
    const doc = path.join(dir, 'Market Street.bsx');
    fs.writeFileSync(doc, MARKET);
    expect(await service.call('import.confirm', { file: file('Market Street.bsx', MARKET) })).toMatchObject({
      ok: true,
    });

    const reasons = (lines: readonly PreviewLineView[]) => lines.map((l) => l.placed?.no ?? l.reason?.code);
    const expected = ['3001', '3003', 'number-not-in-catalogue', 'name-not-in-catalogue'];
    const preview = await service.call('import.preview', { file: file('Market Street.bsx', MARKET) });
    if (!preview.ok) throw new Error(JSON.stringify(preview.error));
    expect(preview.value.refusal?.code).toBe('duplicate-document');
    expect(reasons(preview.value.documents[0]?.lines ?? [])).toEqual(expected);

    const dry = await cliJson(['--db', dbPath, 'import', doc, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.json.error.code).toBe('duplicate-document');
    expect(dry.json.refusal.code).toBe('duplicate-document');
    expect(reasons(dry.json.documents[0].lines)).toEqual(expected);
    // The words say what it would do, then why it won't: no made-up order.
    expect(dry.stderr).toMatch(/Would import Market Street\.bsx: 4 lines, 2 placed, 2 unplaced\./);
    expect(dry.stderr).not.toMatch(/order \?/);
    expect(dry.stderr).toMatch(/already imported/);
  });
});

// Issue 64 §5: a script sees what a person sees. An import refused until its warnings are acknowledged
// prints, with --json, the preview it would need to read (the same shape as a dry run's) beside the error.
describeEachStore('an import that needs its warnings acknowledged (issue 64 §5)', () => {
  it('prints the preview beside the error, dry run or not, and imports nothing until accepted', async () => {
    const { dbPath } = await storeWithCatalogue();
    const dir = tempDir();
    const list = path.join(dir, 'list.csv');
    // No quantity column, and a bare colour column whose numbering is guessed: two warnings.
    fs.writeFileSync(list, 'number,name,color\n3001,Brick 2 x 4,5\nx999,Mystery part,5\n');
    for (const dry of [['--dry-run'], []]) {
      const r = await cliJson(['--db', dbPath, 'import', list, ...dry]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.json.error.code).toBe('needs-acknowledgement');
      expect(r.json.documents).toHaveLength(1);
      expect(r.json.documents[0].warnings.map((w: { code: string }) => w.code).sort()).toEqual([
        'colour-numbering-guessed',
        'no-quantity-column',
      ]);
      expect(r.json.documents[0].lines.map((l: PreviewLineView) => l.placed?.no ?? l.reason?.code)).toEqual([
        '3001',
        'number-not-in-catalogue',
      ]);
      expect(r.json.documents[0].colourNumbering).toMatchObject({ numbering: 'bricklink', how: 'guessed' });
    }
    expect((await cliJson(['--db', dbPath, 'orders'])).json.orders ?? []).toHaveLength(0);
    const accepted = await cliJson([
      '--db',
      dbPath,
      'import',
      list,
      '--accept',
      'no-quantity-column,colour-numbering-guessed',
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.json.imports[0].lines).toMatchObject({ total: 2, placed: 1, unplaced: 1 });
  });
});
