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
