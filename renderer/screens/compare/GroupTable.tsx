import { ItemNo } from '../../components/ItemNo.tsx';
import { memo, useEffect, useRef } from 'react';
import type { CompareRowView } from '../../../src/api/contract.ts';
import type { CompareGroup } from '../../../src/vocabulary/compare-kinds.ts';
import { Colour } from '../../components/Colour.tsx';
import { Picture } from '../../components/Picture.tsx';
import { count, money } from '../../format.ts';
import { GROUP_TITLES, rowName } from './groups.ts';

const signed = (n: number) => (n > 0 ? `+${count(n)}` : n < 0 ? `−${count(-n)}` : '0');

const Row = memo(function Row(props: {
  r: CompareRowView;
  selected: boolean;
  prices: boolean;
  pictures: boolean;
  currency: string | null;
  onSelect(): void;
  onOpen(): void;
}) {
  const { r } = props;
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (props.selected) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [props.selected]);
  const n = rowName(r);
  const colour = r.item
    ? { id: r.item.colour, name: r.item.colourName, rgb: r.item.colourRgb }
    : { id: r.given.colourId, name: r.given.colourName, rgb: null };
  return (
    <tr
      ref={ref}
      aria-selected={props.selected}
      className={`clickable${props.selected ? ' selected' : ''}${r.item ? '' : ' unplaced'}`}
      onClick={props.onSelect}
      onDoubleClick={props.onOpen}
    >
      {props.pictures ? (
        <td className="c-pic">
          <Picture
            of={r.item ? { item: { type: r.item.type, no: r.item.no, colour: r.item.colour } } : null}
            size={24}
            label={r.item ? `${r.item.type} ${r.item.no}` : 'Unplaced'}
          />
        </td>
      ) : null}
      <td className="c-no">
        {r.item ? (
          <ItemNo
            type={r.item.type}
            no={r.item.no}
            shown={r.item.shown}
            sharedWith={r.item.sharedWith}
            hideType
            compact
          />
        ) : (
          n.no
        )}
      </td>
      <td className="item-name" title={n.name}>
        {n.name}
      </td>
      <td>
        <Colour {...colour} />
      </td>
      <td>{r.condition === 'U' ? 'Used' : r.condition === 'N' ? 'New' : ''}</td>
      <td className="num">{count(r.left)}</td>
      <td className="num">{count(r.right)}</td>
      <td className={`num${r.difference < 0 ? ' warn' : ''}`}>{signed(r.difference)}</td>
      {props.prices ? (
        <>
          <td className="num">{r.leftUnitPrice === null ? '' : money(r.leftUnitPrice, props.currency)}</td>
          <td className="num">{r.rightUnitPrice === null ? '' : money(r.rightUnitPrice, props.currency)}</td>
        </>
      ) : null}
    </tr>
  );
});

/** One group of a compare: its title and count, its rows so far, and the way to the rest. */
export function GroupTable(props: {
  group: CompareGroup;
  rows: readonly CompareRowView[];
  total: number;
  selected: number | null;
  prices: boolean;
  /** A small picture on each row: the item in its colour (the setting that puts one on each line of an order). */
  pictures: boolean;
  currency: string | null;
  onSelect(index: number): void;
  onOpen(index: number): void;
  onMore(): void;
}) {
  const { group, rows, total } = props;
  return (
    <section
      className="compare-group"
      data-testid={`group-${group}`}
      aria-label={`${GROUP_TITLES[group]}: ${count(total)}`}
    >
      <h3>
        {GROUP_TITLES[group]} <span className="tag">{count(total)}</span>
      </h3>
      <table className="table compact compare-table">
        <colgroup>
          {props.pictures ? <col className="w-pic" /> : null}
          <col className="w-no" />
          <col />
          <col className="w-colour" />
          <col className="w-cond" />
          <col className="w-qty" />
          <col className="w-qty" />
          <col className="w-qty" />
          {props.prices ? (
            <>
              <col className="w-price" />
              <col className="w-price" />
            </>
          ) : null}
        </colgroup>
        <thead>
          <tr>
            {props.pictures ? <th aria-label="Picture" /> : null}
            <th>Number</th>
            <th>Name</th>
            <th>Colour</th>
            <th>Condition</th>
            <th className="num">Left</th>
            <th className="num">Right</th>
            <th className="num">Difference</th>
            {props.prices ? (
              <>
                <th className="num">Left price</th>
                <th className="num">Right price</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <Row
              key={i}
              r={r}
              selected={props.selected === i}
              prices={props.prices}
              pictures={props.pictures}
              currency={props.currency}
              onSelect={() => props.onSelect(i)}
              onOpen={() => props.onOpen(i)}
            />
          ))}
        </tbody>
      </table>
      {rows.length < total ? (
        <button className="link more" onClick={props.onMore} data-testid={`more-${group}`}>
          Show {count(Math.min(200, total - rows.length))} more of {count(total - rows.length)}
        </button>
      ) : null}
    </section>
  );
}
