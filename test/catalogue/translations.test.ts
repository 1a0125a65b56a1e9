import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { catalogueLoadSummary, loadCatalogue } from '../../src/catalogue/load.ts';
import { runCatalogueLoad } from '../../src/app/work.ts';
import { catalogueHeld } from '../../src/store/catalogue.ts';
import { readCatalogueFile } from '../../src/catalogue/read-file.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, gzip, TABLES } from '../helpers/catalogue-files.ts';
import { refusalOf } from '../helpers/refusal.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** Issue 24, point 1: the catalogue job loads the tables that translate other numberings (SPEC §5). */

const options = { type: 'P' as const, me: identityOf(), clock: SYSTEM_CLOCK };

async function newStore() {
  const file = newStoreLocation();
  const store = await openStore(file);
  onTestFinished(() => store.close());
  return { file, db: store.db };
}

describeEachStore('the translation tables (issue 24, point 1)', () => {
  it('each table is recognised by its content, whatever its name, plain or gzipped', () => {
    const formats = [
      ['a.txt', TABLES.codes, 'BrickLink codes (element ids)'],
      ['b.csv', TABLES.elements, 'Rebrickable elements.csv (element ids)'],
      ['c.json', TABLES.colourTable, 'Rebrickable colours with external ids (colour table)'],
      ['d.ron', TABLES.crossrefs, 'Rebrickable part cross-references'],
      ['e.csv', TABLES.relationships, 'Rebrickable part_relationships.csv'],
    ] as const;
    for (const [name, text, format] of formats) {
      expect(readCatalogueFile({ name, content: bytes(text) }, { type: 'P' }).format, name).toBe(format);
      expect(readCatalogueFile({ name: `${name}.gz`, content: gzip(text) }, { type: 'P' }).format, name).toBe(format);
    }
    const table = readCatalogueFile({ name: 'colours.json', content: bytes(TABLES.colourTable) }, { type: 'P' });
    const rows = table.records.map((r) =>
      r.kind === 'colour-translation' ? `${r.numbering}:${r.key}=${r.bricklinkId}` : '',
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        'rebrickable:4=5',
        'ldraw:4=5',
        'lego:21=5',
        'name:br.red=5',
        'name:bright red=5',
        'name:reddish brown=88',
        'rebrickable:1088=null',
        'name:medium brown=null',
      ]),
    );
  });

  it('something else is refused in words', () => {
    const json = refusalOf(() =>
      readCatalogueFile({ name: 'inventory.json', content: bytes('{"parts": [1, 2]}') }, { type: 'P' }),
    );
    expect(json.message).toBe(
      'inventory.json is a JSON file, but not Rebrickable\'s colour list with its external ids (an object whose "results" are colours with "id", "name" and "external_ids").',
    );
    const badType = refusalOf(() =>
      readCatalogueFile(
        { name: 'rels.csv', content: bytes('rel_type,child_part_num,parent_part_num\nX,1,2\n') },
        { type: 'P' },
      ),
    );
    expect(badType.message).toBe(
      'rels.csv: line 2: the relationship type "X" is none of Rebrickable\'s (A, M, P, T, B, R)',
    );
    const badElement = refusalOf(() =>
      readCatalogueFile(
        { name: 'codes.txt', content: bytes('Item No\tColor\tCode\n3001\tRed\t30O121\n') },
        { type: 'P' },
      ),
    );
    expect(badElement.message).toBe('codes.txt: line 2: the element id "30O121" is not a number');
  });

  it('the catalogue job loads them, merged (a second load changes nothing), and the status counts them', async () => {
    const { file, db } = await newStore();
    const all = [
      { name: 'codes.txt', content: bytes(TABLES.codes) },
      { name: 'elements.csv.gz', content: gzip(TABLES.elements) },
      { name: 'colors.json', content: bytes(TABLES.colourTable) },
      { name: 'part-crossrefs.ron', content: bytes(TABLES.crossrefs) },
      { name: 'part_relationships.csv', content: bytes(TABLES.relationships) },
    ];
    const first = await loadCatalogue(db, file, all, options);
    expect(first.translations).toEqual({ elements: 5, partNumbers: 7, colourTranslations: 20, relationships: 3 });
    expect(catalogueLoadSummary(first)).toBe(
      'Loaded 5 element ids, 7 part translations, 20 colour translations, 3 relationships.',
    );
    const dump = () =>
      ['element_code', 'part_number', 'colour_translation', 'part_relationship'].map((t) =>
        db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).all(),
      );
    const once = dump();
    await loadCatalogue(db, file, all, options);
    expect(dump()).toEqual(once);

    const status = await serviceFor(db, file).call('catalogue.status', {});
    expect(status).toMatchObject({
      ok: true,
      value: { translations: { elementIds: 4, colourTranslations: 3, partTranslations: 3, relationships: 3 } },
    });
    // Issue 64 §2: the load's words and the Catalogue card agree. Rows read, and where they are not what
    // the catalogue holds (an element id in both tables, a colour's several numberings), the card's count
    // beside them, with its meaning.
    expect(catalogueLoadSummary(first, catalogueHeld(db))).toBe(
      'Loaded 5 element ids (4 in the catalogue now), 7 part translations (3 in the catalogue now), ' +
        '20 colour translations (3 in the catalogue now), 3 relationships.',
    );
    const again = await runCatalogueLoad(
      writeSession(db),
      file,
      [{ name: 'codes.txt', content: bytes(TABLES.codes) }],
      options,
    );
    expect(again.summary).toMatch(/^Loaded \d+ element ids? \(4 in the catalogue now\)\.$/);
  });
});
