import type { StockItemView } from '../../../src/api/contract.ts';
import { Colour } from '../../components/Colour.tsx';
import { ItemNo } from '../../components/ItemNo.tsx';

/** A list's item as every screen shows it: the shop's number, its name, its colour. */
export function StockItem({ item, compact = false }: { item: StockItemView; compact?: boolean }) {
  return (
    <span className="stock-item">
      <ItemNo type={item.type} no={item.no} shown={item.shown} compact={compact} />
      {item.name ? <span className="item-name"> {item.name}</span> : null}
      {item.colour ? (
        <>
          {' '}
          <Colour id={item.colour.id} name={item.colour.name} rgb={null} />
        </>
      ) : null}
    </span>
  );
}

/** The picture's item: the catalogue's number in its colour. */
export const pictureOf = (item: StockItemView) => ({
  item: { type: item.type, no: item.no, colour: item.colour?.id ?? null },
});

/** "new", "used", or nothing where the document gave none. */
export const conditionWords = (c: 'N' | 'U' | null) => (c === 'N' ? 'new' : c === 'U' ? 'used' : '');
