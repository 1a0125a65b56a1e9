import { BrickWorkError, quote } from '../../vocabulary/errors.ts';
import { countLineEnds, parseError } from '../../text/position.ts';
import { forEachRecord } from '../../text/xml.ts';
import { isItemType } from '../../vocabulary/item-types.ts';
import { rgbOrNull, type CatalogueFile, type CatalogueRecord } from '../records.ts';
import { optionalId, requiredId, requiredText } from './fields.ts';

/** The fields read of an `ITEM`: none may be given twice, saying two things. */
const READ_ONCE: ReadonlySet<string> = new Set([
  'ITEMTYPE',
  'ITEMID',
  'ITEMNAME',
  'CATEGORY',
  'CATEGORYNAME',
  'COLOR',
  'COLORNAME',
  'COLORRGB',
]);

/**
 * BrickLink's XML catalogue downloads (SPEC §5): `CATALOG` of `ITEM`s, each an item (`ITEMTYPE`,
 * `ITEMID`, `ITEMNAME`, `CATEGORY`), a colour (`COLOR`, `COLORNAME`) or a category (`CATEGORY`,
 * `CATEGORYNAME`). One file holds one kind.
 */
export function readBrickLinkXml(name: string, text: string): CatalogueFile {
  const records: CatalogueRecord[] = [];
  let kind: CatalogueRecord['kind'] | null = null;
  // Records come in file order, so the line count is carried forward instead of recounted each time.
  let counted = 0;
  let lineNo = 1;
  const lineAt = (offset: number): number => {
    lineNo += countLineEnds(text, counted, offset).count;
    counted = offset;
    return lineNo;
  };
  forEachRecord(
    text,
    name,
    'ITEM',
    (f, offset) => {
      const line = lineAt(offset);
      const k: CatalogueRecord['kind'] =
        f['ITEMID'] !== undefined ? 'item' : f['COLOR'] !== undefined ? 'colour' : 'category';
      if (kind !== null && k !== kind)
        throw parseError(name, `line ${line}: a ${k} among ${kind}s; a catalogue file holds one kind`);
      kind = k;
      if (k === 'item') {
        const type = requiredText(f['ITEMTYPE'], 'item type', name, line).toUpperCase();
        if (!isItemType(type)) throw parseError(name, `line ${line}: "${quote(type)}" is not a BrickLink item type`);
        records.push({
          kind: 'item',
          type,
          no: requiredText(f['ITEMID'], 'item number', name, line),
          name: requiredText(f['ITEMNAME'], 'name', name, line),
          categoryId: optionalId(f['CATEGORY'], 'category id', name, line),
        });
      } else if (k === 'colour') {
        records.push({
          kind: 'colour',
          id: requiredId(f['COLOR'], 'colour id', name, line),
          name: requiredText(f['COLORNAME'], 'colour name', name, line),
          rgb: rgbOrNull(f['COLORRGB']),
        });
      } else {
        if (f['CATEGORYNAME'] === undefined)
          throw parseError(name, `line ${line}: an ITEM that is neither an item, a colour nor a category`);
        records.push({
          kind: 'category',
          id: requiredId(f['CATEGORY'], 'category id', name, line),
          name: requiredText(f['CATEGORYNAME'], 'category name', name, line),
        });
      }
    },
    (root) => {
      if (root !== 'CATALOG') {
        throw new BrickWorkError(
          'parse-error',
          `${name} is XML, but not a BrickLink catalogue download (its root is <${quote(root)}>, not <CATALOG>).`,
        );
      }
    },
    READ_ONCE,
  );
  const what = kind === 'colour' ? 'colours' : kind === 'category' ? 'categories' : 'items';
  return { name, format: `BrickLink ${what} XML`, source: `bricklink:${name}`, records };
}
