import { describe, expect, it } from 'vitest';
import { readCatalogueFile } from '../../src/catalogue/read-file.ts';
import { bytes, files, gzip } from '../helpers/catalogue-files.ts';
import { refusalOf } from '../helpers/refusal.ts';

const read = (name: string, content: Uint8Array | string, type: 'P' | 'S' | 'M' | null = null) =>
  readCatalogueFile({ name, content: typeof content === 'string' ? bytes(content) : content }, { type });

const refusal = refusalOf;

describe('catalogue files (SPEC §5)', () => {
  it('reads BrickLink items XML of any item type, with entities decoded', () => {
    const f = read(
      'Parts.xml',
      files.bricklinkItemsXml([
        { type: 'P', no: '3001', name: 'Brick 2 x 4', category: 5 },
        { type: 'M', no: 'sw0001a', name: 'Luke Skywalker &#40;Tatooine&#41; &amp; Friends' },
      ]),
    );
    expect(f.format).toBe('BrickLink items XML');
    expect(f.source).toBe('bricklink:Parts.xml');
    expect(f.records).toEqual([
      { kind: 'item', type: 'P', no: '3001', name: 'Brick 2 x 4', categoryId: 5 },
      { kind: 'item', type: 'M', no: 'sw0001a', name: 'Luke Skywalker (Tatooine) & Friends', categoryId: 5 },
    ]);
  });

  it('reads BrickLink colours (with their RGB, for the swatches) and categories, XML and tab-delimited', () => {
    expect(read('colors.xml', files.bricklinkColoursXml([{ id: 11, name: 'Black' }])).records).toEqual([
      { kind: 'colour', id: 11, name: 'Black', rgb: 'FFFFFF' },
    ]);
    // An odd or missing RGB is no error: the colour is shown by name alone.
    expect(
      read(
        'colors.xml',
        '<CATALOG><ITEM><COLOR>5</COLOR><COLORNAME>Red</COLORNAME><COLORRGB>nope</COLORRGB></ITEM></CATALOG>',
      ).records,
    ).toEqual([{ kind: 'colour', id: 5, name: 'Red', rgb: null }]);
    expect(read('categories.xml', files.bricklinkCategoriesXml([{ id: 5, name: 'Brick' }])).records).toEqual([
      { kind: 'category', id: 5, name: 'Brick' },
    ]);
    expect(read('colors.txt', files.bricklinkColoursTab([{ id: 86, name: 'Light Bluish Gray' }])).records).toEqual([
      { kind: 'colour', id: 86, name: 'Light Bluish Gray', rgb: 'FFFFFF' },
    ]);
    expect(read('categories.txt', files.bricklinkCategoriesTab([{ id: 5, name: 'Brick' }])).records).toEqual([
      { kind: 'category', id: 5, name: 'Brick' },
    ]);
  });

  it('takes the item type of a tab-delimited items file from its name as BrickLink names it, or as chosen; never a silent P', () => {
    const text = files.bricklinkItemsTab([{ no: '10190-1', name: 'Market Street', category: 66 }]);
    expect(read('Sets.txt', text).records).toEqual([
      { kind: 'item', type: 'S', no: '10190-1', name: 'Market Street', categoryId: 66 },
    ]);
    const named = {
      'Parts.txt': 'P',
      'Minifigures.txt.gz': 'M',
      'Sets (1).txt': 'S',
      'Gear.txt': 'G',
      'Books.txt': 'B',
      'Catalogs.txt': 'C',
      'Instructions.txt': 'I',
      'Original Boxes.txt': 'O',
      'OriginalBoxes.txt': 'O',
      'downloads/Minifigs.tsv': 'M',
    };
    for (const [name, type] of Object.entries(named)) expect(read(name, text).records[0], name).toMatchObject({ type });
    // The choice wins over the name (a file saved under another name).
    expect(read('Parts.txt', text, 'S').records[0]).toMatchObject({ type: 'S' });
    for (const name of ['items.txt', 'P.txt', 'catalog export.txt']) {
      expect(
        refusal(() => read(name, text)),
        name,
      ).toMatchObject({
        code: 'needs-type',
        message: expect.stringMatching(
          /is a list of BrickLink items, and neither it nor its name says which kind .*Minifigures, Sets.*choose the kind/,
        ),
      });
      expect(read(name, text, 'M').records[0]).toMatchObject({ type: 'M' });
    }
  });

  it('reads Rebrickable parts, part categories and sets, plain or gzipped, quoted names and all', () => {
    const parts = files.rebrickableParts([
      { no: '3001', name: 'Brick 2 x 4' },
      { no: '003383', name: 'Sticker Sheet for Sets 618-1, 628-2', category: 58 },
    ]);
    for (const content of [bytes(parts), gzip(parts)]) {
      const f = read('parts.csv.gz', content);
      expect(f.format).toBe('Rebrickable parts.csv');
      expect(f.records).toEqual([
        { kind: 'item', type: 'P', no: '3001', name: 'Brick 2 x 4', categoryId: 11 },
        { kind: 'item', type: 'P', no: '003383', name: 'Sticker Sheet for Sets 618-1, 628-2', categoryId: 58 },
      ]);
    }
    expect(read('part_categories.csv', files.rebrickableCategories([{ id: 11, name: 'Bricks' }])).records).toEqual([
      { kind: 'category', id: 11, name: 'Bricks' },
    ]);
    expect(read('sets.csv', files.rebrickableSets([{ no: '10190-1', name: 'Market Street' }])).records).toEqual([
      { kind: 'item', type: 'S', no: '10190-1', name: 'Market Street', categoryId: null },
    ]);
    expect(read('parts.csv', `\uFEFF${parts}`).records).toHaveLength(2);
  });

  it("refuses Rebrickable's colours and minifigs, whose numbering is not BrickLink's, with a plain message", () => {
    const colours = refusal(() => read('colors.csv', files.rebrickableColours()));
    expect(colours.code).toBe('parse-error');
    expect(colours.message).toContain("colour ids are Rebrickable's, not BrickLink's");
    const figs = refusal(() => read('minifigs.csv.gz', gzip(files.rebrickableMinifigs())));
    expect(figs.message).toContain("minifig numbers (fig-…) are Rebrickable's, not BrickLink's");
  });

  it('refuses files it does not know, bad rows and broken XML, naming where', () => {
    expect(refusal(() => read('orders.csv', 'Order,Customer\n1,Ann\n')).message).toContain(
      'not a catalogue file brick-work knows',
    );
    expect(refusal(() => read('parts.csv', 'part_num,name,part_cat_id\n3001,Brick 2 x 4,11\n3002,,11\n')).message).toBe(
      'parts.csv: line 3: the name is empty',
    );
    expect(refusal(() => read('parts.csv', 'part_num,name,part_cat_id\n3001,Brick,eleven\n')).message).toContain(
      'line 2: the category id "eleven" is not a whole number',
    );
    const xml = refusal(() =>
      read('Parts.xml', '<CATALOG>\n<ITEM>\n<ITEMTYPE>P</ITEMTYPE>\n<ITEMID>3001</ITEMNAME>\n</ITEM></CATALOG>'),
    );
    expect(xml.message).toBe('Parts.xml, line 4, column 13: expected </ITEMID> here, found </ITEMNAME>');
    expect(
      refusal(() => read('Parts.xml', '<INVENTORY><ITEM><ITEMID>1</ITEMID></ITEM></INVENTORY>')).message,
    ).toContain('not a BrickLink catalogue download');
    expect(
      refusal(() =>
        read(
          'Parts.xml',
          '<CATALOG><ITEM><ITEMTYPE>Z</ITEMTYPE><ITEMID>1</ITEMID><ITEMNAME>x</ITEMNAME></ITEM></CATALOG>',
        ),
      ).message,
    ).toContain('"Z" is not a BrickLink item type');
    expect(refusal(() => read('parts.csv', gzip('x').subarray(0, 8))).message).toContain('gzip data');
    // Issue 62 §5: a field given twice, saying two things, is refused; keeping one would drop the other unseen.
    expect(
      refusal(() =>
        read(
          'Parts.xml',
          '<CATALOG>\n<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID>\n<ITEMID>3003</ITEMID><ITEMNAME>x</ITEMNAME></ITEM></CATALOG>',
        ),
      ).message,
    ).toBe(
      'Parts.xml, line 3, column 13: <ITEMID> is given twice in one <ITEM> ("3001" and "3003"), so which is meant can\'t be told',
    );
    // Alike, nothing is lost; a field not read is not looked at.
    const alike = read(
      'Parts.xml',
      '<CATALOG><ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><ITEMID>3001</ITEMID><ITEMNAME>x</ITEMNAME><ITEMDIMX>1</ITEMDIMX><ITEMDIMX>2</ITEMDIMX></ITEM></CATALOG>',
    );
    expect(alike.records).toEqual([{ kind: 'item', type: 'P', no: '3001', name: 'x', categoryId: null }]);
  });
});
