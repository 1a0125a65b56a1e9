/**
 * A model imported and compared (issue 49): its LDraw numbers placed through the cross-references' LDraw
 * ids, then as numbers, `via` saying how; its LDraw colours through the colour table; a model as a side of
 * Compare ("does what arrived build this MOC?").
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { files } from '../helpers/catalogue-files.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';
import { zipFile } from '../helpers/zip.ts';

const use = (colour: number, name: string) => `1 ${colour} 0 0 0 1 0 0 0 1 0 0 0 1 ${name}`;

describe('a model imported and compared (issue 49)', () => {
  it('places its parts by the LDraw ids first, its colours by LDraw’s numbering; previews, revives by content, and compares with an order', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'brick-work.sqlite');
    const write = (name: string, content: string | Uint8Array) => {
      fs.writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
    const catalogue = [
      write(
        'items.xml',
        files.bricklinkItemsXml([
          { type: 'P', no: '3001', name: 'Brick 2 x 4' },
          { type: 'P', no: '3626cpb0001', name: 'Minifig Head with Smile' },
          // 973old is also a number here, of another part: LDraw's 973old is BrickLink's 973.
          { type: 'P', no: '973', name: 'Torso' },
          { type: 'P', no: '973old', name: 'Torso (old mould)' },
        ]),
      ),
      write(
        'colors.xml',
        files.bricklinkColoursXml([
          { id: 5, name: 'Red' },
          { id: 11, name: 'Black' },
        ]),
      ),
      write(
        'colors.json',
        files.rebrickableColourTable([
          { id: 4, name: 'Red', bricklink: { id: 5, name: 'Red' }, ldraw: { id: 4, name: 'Red' } },
          { id: 0, name: 'Black', bricklink: { id: 11, name: 'Black' }, ldraw: { id: 0, name: 'Black' } },
        ]),
      ),
      write(
        'crossrefs.ron',
        files.partCrossrefs([
          { rebrickable: '3001', bricklink: ['3001'] },
          { rebrickable: '3626cpr0001', ldraw: '3626cp01', bricklink: ['3626cpb0001'] },
          { rebrickable: '973pr0001', ldraw: '973old', bricklink: ['973'] },
        ]),
      ),
    ];
    for (const f of catalogue) expect((await cliJson(['--db', db, 'catalogue', 'import', f])).code).toBe(0);
    const model = [
      '0 FILE moc.ldr',
      use(4, '3001.dat'),
      use(4, 'figure.ldr'),
      use(0, 'figure.ldr'),
      use(4, 'notinlibrary.dat'),
      '0 FILE figure.ldr',
      use(14, '3626cp01.dat'),
      use(16, '973old.dat'),
    ].join('\n');
    const mpd = write('moc.mpd', model);

    const preview = await cliJson(['--db', db, 'import', mpd, '--dry-run']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.json.documents[0]).toMatchObject({ format: 'ldraw-model', formatName: 'LDraw model' });

    const imported = await cliJson(['--db', db, 'import', mpd]);
    expect(imported.code, imported.stderr).toBe(0);
    const orderId = imported.json.imports[0].order.id as number;
    const lines = (await cliJson(['--db', db, 'lines', String(orderId)])).json.lines as {
      given: { no: string; colourName: string | null };
      quantity: number;
      placed: { no: string; colour: number | null; via: string | null } | null;
      reason: { code: string } | null;
    }[];
    const shown = lines.map((l) => [
      l.given.no,
      l.given.colourName,
      l.quantity,
      l.placed ? `${l.placed.no} in ${l.placed.colour}${l.placed.via ? ` (${l.placed.via})` : ''}` : l.reason?.code,
    ]);
    expect(shown).toEqual([
      ['3001', 'LDraw colour 4', 1, '3001 in 5 (LDraw colour 4 = BrickLink colour 5)'],
      // Yellow (LDraw 14) is in no colour table here: the item is found, its colour unknown.
      ['3626cp01', 'LDraw colour 14', 2, 'colour-not-in-catalogue'],
      // The LDraw id first: 973old is BrickLink's 973, although the catalogue has a 973old of its own.
      ['973old', 'LDraw colour 4', 1, '973 in 5 (LDraw 973old = BrickLink 973; LDraw colour 4 = BrickLink colour 5)'],
      ['973old', 'LDraw colour 0', 1, '973 in 11 (LDraw 973old = BrickLink 973; LDraw colour 0 = BrickLink colour 11)'],
      ['notinlibrary', 'LDraw colour 4', 1, 'number-not-in-catalogue'],
    ]);

    // The same file again is the same document; a changed model is another.
    const again = await cliJson(['--db', db, 'import', mpd, '--dry-run']);
    expect(again.json.error).toMatchObject({ code: 'duplicate-document' });
    expect(again.json.error.message).toContain(preview.json.documents[0].key);
    write('moc.mpd', `${model}\n${use(4, '3001.dat')}`);
    expect((await cliJson(['--db', db, 'import', mpd, '--dry-run'])).json.documents[0].key).not.toBe(
      preview.json.documents[0].key,
    );

    // Does what arrived build the MOC? An order of its parts, one red brick short; the model as a Studio file.
    const arrived = write(
      'arrived.bsx',
      bsx([
        { no: '973', colour: 5, qty: 1 },
        { no: '973', colour: 11, qty: 1 },
      ]),
    );
    const io = write('moc.io', zipFile([{ name: 'model.ldr', data: model, password: 'soho0909' }]));
    const compared = await cliJson(['--db', db, 'compare', io, arrived]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.json.counts).toMatchObject({ onlyLeft: 1, same: 2, unplaced: 2 });
    expect(compared.json.onlyLeft[0].item).toMatchObject({ no: '3001', colour: 5 });
    // The model imported as an order is compared the same way: its saved lines give no condition either.
    const asOrder = await cliJson(['--db', db, 'compare', `order:${orderId}`, arrived]);
    expect(asOrder.code, asOrder.stderr).toBe(0);
    expect(asOrder.json.counts).toMatchObject({ onlyLeft: 1, same: 2, unplaced: 2 });
  });
});
