import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/cli.ts';
import { csv } from '../helpers/documents.ts';
import { insertColour, insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';
import { describeEachStore, storeFingerprint } from '../helpers/stores.ts';

const HEADER = ['number', 'name', 'color id', 'quantity', 'price'];

// Issue 28 (SPEC §10, §13): `brick-work compare LEFT RIGHT` over the contract's compare.run; it writes nothing.
describeEachStore('brick-work compare', () => {
  it('compares an imported order with a file, by what the lines are, and leaves the store as it was', async () => {
    const { db, dbPath } = await storeWithCatalogue();
    insertItem(db, { no: '3020', name: 'Plate 2 x 4' });
    insertColour(db, { id: 11, name: 'Black' });
    db.close();
    const dir = tempDir();
    const ordered = path.join(dir, 'ordered.csv');
    const arrived = path.join(dir, 'arrived.csv');
    fs.writeFileSync(
      ordered,
      csv(HEADER, [
        ['3001', 'Brick 2 x 4', 5, 10, '0.10'],
        ['3020', 'Plate 2 x 4', 11, 2, '0.20'],
      ]),
    );
    fs.writeFileSync(
      arrived,
      csv(HEADER, [
        ['3001', 'Brick 2 x 4', 5, 9, '0.10'],
        ['3003', 'Brick 2 x 2', 5, 1, '0.05'],
      ]),
    );
    const imported = await cliJson(['--db', dbPath, 'import', ordered]);
    expect(imported.code, imported.stderr).toBe(0);
    const orderId = imported.json.imports[0].order.id as number;
    const before = await storeFingerprint(dbPath);

    const r = await cliJson(['--db', dbPath, 'compare', `order:${orderId}`, arrived]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.left.label).toMatch(/^order /);
    expect(r.json.right.label).toBe('file arrived.csv');
    expect(r.json.quantityDiffers.map((x: any) => [x.item.no, x.left, x.right])).toEqual([['3001', 10, 9]]);
    expect(r.json.onlyLeft.map((x: any) => [x.item.no, x.item.colourName])).toEqual([['3020', 'Black']]);
    expect(r.json.onlyRight.map((x: any) => x.item.no)).toEqual(['3003']);
    expect(r.json.totals).toMatchObject({ missing: 3, extra: 1, missingValue: '0.50', extraValue: '0.05' });
    expect(await storeFingerprint(dbPath)).toBe(before);

    const words = await cliJson(['--db', dbPath, 'compare', 'order:x', arrived]);
    expect(words.code).toBe(2);

    // The difference as files: --out with --as writes it; --as alone prints it; --out alone is bad usage.
    const out = path.join(dir, 'difference.csv');
    const csvRun = await cliJson(['--db', dbPath, 'compare', `order:${orderId}`, arrived, '--out', out, '--as', 'csv']);
    expect(csvRun.code, csvRun.stderr).toBe(0);
    expect(csvRun.json.export.savedTo).toBe(out);
    expect(fs.readFileSync(out, 'utf8').split('\r\n').slice(0, 2)).toEqual([
      'Where,Item Type,BrickLink Item No,Catalogue Item No,Item Name,BrickLink Color ID,Color Name,Condition,Quantity,Left,Right,Difference,Left Price,Right Price',
      'missing on the right,P,3020,,Plate 2 x 4,11,Black,,2,2,0,-2,0.20,',
    ]);
    const printed = await cli(['--db', dbPath, 'compare', `order:${orderId}`, arrived, '--as', 'upload']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(
      /^<INVENTORY>\n[\s\S]*<ITEMID>3003<\/ITEMID>[\s\S]*<QTY>1<\/QTY>[\s\S]*<\/INVENTORY>\n$/,
    );
    expect((await cliJson(['--db', dbPath, 'compare', `order:${orderId}`, arrived, '--out', out])).code).toBe(2);
    expect((await cliJson(['--db', dbPath, 'compare', `order:${orderId}`, arrived, '--as', 'pdf'])).code).toBe(2);
    expect(await storeFingerprint(dbPath)).toBe(before);
  });
});
