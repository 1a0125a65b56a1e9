import { expect, it } from 'vitest';
import type { ExportFileView } from '../../src/api/contract.ts';
import { remarksToWrite } from '../../src/placement/rule.ts';
import { csv, file } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { insertColour, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { bricklinkXmlProblems, strictXmlProblem } from '../helpers/xml-check.ts';

/** Issue 64 §4: what goes back to BrickLink is the shop's lots as BrickLink takes them, without the readers' notes. */

const lots = (xml: string) => [...xml.matchAll(/<ITEM>[\s\S]*?<\/ITEM>/g)].map((m) => m[0]);
const tag = (lot: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(lot)?.[1] ?? null;

async function shop() {
  const { db, dbPath } = await storeWithCatalogue();
  // It holds 3001 and 3003 in Red already.
  insertColour(db, { id: 11, name: 'Black' });
  const service = serviceFor(db, dbPath);
  const call = async <T>(name: string, args: object): Promise<T> => {
    const r = await service.call(name as never, args as never);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value as T;
  };
  const exported = async (name: string, text: string, accept: string[] = []) => {
    const [imported] = await call<{ order: { id: number } }[]>('import.confirm', {
      file: file(name, text),
      acknowledge: accept,
    });
    if (imported === undefined) throw new Error('not imported');
    const x = await call<ExportFileView>('export.bricklink', { orderId: imported.order.id });
    expect(strictXmlProblem(x.content)).toBeNull();
    expect(bricklinkXmlProblems(x.content, 'upload')).toEqual([]);
    return x;
  };
  return { exported, call };
}

describeEachStore('exports without noise (issue 64 §4)', () => {
  it("a model's lots go without the LDraw part its reader noted, nor the line numbers a list's columns gave", async () => {
    const { exported } = await shop();
    const model = [
      '0 FILE house.ldr',
      '1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat',
      '1 0 0 0 0 1 0 0 0 1 0 0 0 1 3003.dat',
      '',
    ].join('\n');
    const x = await exported('house.ldr', model);
    expect(lots(x.content)).toHaveLength(2);
    for (const lot of lots(x.content)) expect(tag(lot, 'REMARKS')).toBeNull();

    // A Studio-shaped list: its LDraw and element id columns and its spare mark stay here; its own remarks go.
    const list = csv(
      ['BLItemNo', 'ElementId', 'LdrawId', 'PartName', 'BLColorId', 'Qty', 'Price', 'Remarks'],
      [
        ['3001', '300121', '3001', 'Brick 2 x 4', 5, 2, '0.10', 'bin A2'],
        ['3003', '300321', '3003', 'Brick 2 x 2', 5, 1, '0.05', ''],
      ],
    );
    const y = await exported('studio.csv', list);
    expect(lots(y.content).map((l) => tag(l, 'REMARKS'))).toEqual(['bin A2', null]);
  });

  it("an order line's description goes back as BrickLink's DESCRIPTION, its remarks as they were", async () => {
    const { exported } = await shop();
    const order = `<ORDER><ORDERID>7001</ORDERID><SELLER>brickshop</SELLER><ORDERDATE>7/22/2012</ORDERDATE><BASECURRENCYCODE>USD</BASECURRENCYCODE>
<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>4</QTY><PRICE>0.25</PRICE><CONDITION>N</CONDITION><DESCRIPTION>Like new; no marks</DESCRIPTION><REMARKS>drawer 12</REMARKS></ITEM>
<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3003</ITEMID><COLOR>11</COLOR><QTY>2</QTY><PRICE>0.10</PRICE><CONDITION>U</CONDITION><DESCRIPTION>Scratched</DESCRIPTION></ITEM>
</ORDER>`;
    const x = await exported('order.xml', order);
    const [first, second] = lots(x.content);
    expect([tag(first ?? '', 'REMARKS'), tag(first ?? '', 'DESCRIPTION')]).toEqual(['drawer 12', 'Like new; no marks']);
    expect([tag(second ?? '', 'REMARKS'), tag(second ?? '', 'DESCRIPTION')]).toEqual([null, 'Scratched']);
  });

  it('a lot of 0 pieces is left out and said; a price goes in thousandths; a lot without one gets no PRICE, said', async () => {
    const { exported } = await shop();
    const list = csv(
      ['Part', 'Color', 'Quantity', 'Price'],
      [
        ['3001', 5, 3, '0.0125'],
        ['3003', 5, 0, '0.10'],
        ['3003', 11, 2, ''],
        ['3001', 11, 1, '0.0004'],
      ],
    );
    const x = await exported('prices.csv', list.replace('Part,Color', 'BLItemNo,BLColorId'));
    expect(lots(x.content).map((l) => [tag(l, 'ITEMID'), tag(l, 'QTY'), tag(l, 'PRICE')])).toEqual([
      ['3001', '3', '0.013'],
      ['3003', '2', null],
      // Under a thousandth is no price BrickLink can show: none made up.
      ['3001', '1', null],
    ]);
    expect(x.leftOut?.map((l) => [l.reason, l.quantity])).toEqual([['no-quantity', 0]]);
    expect(x.rows).toBe(3);
    expect(x.note).toContain('1 line is left out (1 of 0 pieces).');
    expect(x.note).toContain("2 lots have no price: BrickLink's mass upload asks a price of each before it lists them");
  });
});

describeEachStore('a compare’s upload of the extra (issue 64 §4)', () => {
  it('writes a price only where a side gives one, and says how many lots BrickLink will ask a price of', async () => {
    const { call } = await shop();
    const header = ['BLItemNo', 'BLColorId', 'Qty', 'Price'];
    const left = csv(header, [['3001', 5, 1, '0.20']]);
    const right = csv(header, [
      ['3001', 5, 3, '0.20'],
      ['3003', 11, 2, ''],
    ]);
    const side = (name: string, text: string) => ({ kind: 'file', file: file(name, text) });
    const compared = await call<{ compareId: string }>('compare.run', {
      left: side('left.csv', left),
      right: side('right.csv', right),
    });
    const x = await call<ExportFileView & { content: string }>('compare.export', {
      compareId: compared.compareId,
      as: 'upload',
    });
    expect(bricklinkXmlProblems(x.content, 'upload')).toEqual([]);
    const written = lots(x.content).map((l) => [tag(l, 'ITEMID'), tag(l, 'QTY'), tag(l, 'PRICE')]);
    expect(written.sort()).toEqual([
      ['3001', '2', '0.20'],
      ['3003', '2', null],
    ]);
    expect(x.note).toContain("1 lot has no price: BrickLink's mass upload asks a price of each before it lists it");
  });
});

it('the readers’ notes are told from the shop’s own words, whatever they are joined with', () => {
  expect(remarksToWrite('LDraw part 3001')).toEqual({ remarks: null, description: null });
  expect(remarksToWrite('LDraw 3001 · Element 300121; bin A2')).toEqual({ remarks: 'bin A2', description: null });
  expect(remarksToWrite('colour Trans Purple; Spare; top shelf')).toEqual({ remarks: 'top shelf', description: null });
  expect(
    remarksToWrite(
      'colour number 4 (Red) disagrees with the name Blue: placed by the number; bag 3; Description: As new; boxed',
    ),
  ).toEqual({ remarks: 'bag 3', description: 'As new; boxed' });
  expect(remarksToWrite('Description: Scratched')).toEqual({ remarks: null, description: 'Scratched' });
  expect(remarksToWrite('a part the model holds')).toEqual({ remarks: null, description: null });
  // A shop's own words that only look alike stay.
  expect(remarksToWrite('Elements from set 6964; LDraw parts too')).toEqual({
    remarks: 'Elements from set 6964; LDraw parts too',
    description: null,
  });
  expect(remarksToWrite(null)).toEqual({ remarks: null, description: null });
});
