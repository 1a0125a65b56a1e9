import { useShallow } from 'zustand/react/shallow';
import type { LineRowView, OrderView } from '../../../src/api/contract.ts';
import { OrderHeading } from '../../components/Documents.tsx';
import { count, moneyTotal, plural } from '../../format.ts';
import { useCompare } from '../../state/compare.ts';
import { useExports } from '../../state/exports.ts';
import { useOrders } from '../../state/orders.ts';
import { useApp } from '../../state/app.ts';
import { usePick } from '../../state/pick.ts';
import { usePutAway } from '../../state/put-away.ts';
import { useStock } from '../../state/stock.ts';
import { useEffect } from 'react';

/** The order's header: back, its name and counts, the unplaced filter, its export, and "Find in lines". */
export function OrderToolbar(props: {
  order: OrderView;
  find: string;
  setFind: (find: string) => void;
  lines: readonly LineRowView[];
  toTable: () => void;
}) {
  const { order, lines } = props;
  const { close, select, unplacedOnly, setUnplacedOnly } = useOrders(
    useShallow((s) => ({
      close: s.close,
      select: s.select,
      unplacedOnly: s.unplacedOnly,
      setUnplacedOnly: s.setUnplacedOnly,
    })),
  );
  // The stock's own order has no pick or put-away list: its lines are the stock.
  const stock = useStock((s) => s.info);
  useEffect(() => {
    if (stock === undefined) void useStock.getState().reload();
  }, [stock]);
  const isStock = stock?.orderId === order.id;
  return (
    <div className="toolbar">
      <button onClick={() => close()}>← Orders</button>
      <OrderHeading order={order} />
      <span className="counts">
        {plural(order.lines, 'line')} · <b className={order.unplaced ? 'warn' : ''}>{count(order.unplaced)} unplaced</b>{' '}
        · value{' '}
        <span title={`${order.totalValue} ${order.currency} exactly`} data-testid="order-value">
          {moneyTotal(order.totalValue, order.currency)}
        </span>
      </span>
      <label className="check">
        <input type="checkbox" checked={unplacedOnly} onChange={(e) => void setUnplacedOnly(e.target.checked)} />{' '}
        Unplaced only
      </label>
      <button
        data-testid="order-export"
        onClick={() =>
          void useExports
            .getState()
            .order(order.id, 'bricklink')
            // Lines BrickLink does not number: the Export screen lists them and asks.
            .then((r) => r === 'review' && useApp.getState().go('export'))
        }
      >
        Export BrickLink XML…
      </button>
      {isStock ? null : (
        <>
          <button
            data-testid="order-pick"
            title="The pick list of this order going out: the stock's lots in walking order"
            onClick={() => void usePick.getState().open(order.id)}
          >
            Pick
          </button>
          <button
            data-testid="order-put-away"
            title="The put-away list of this order coming in: each line to its lot, or a new one"
            onClick={() => void usePutAway.getState().open(order.id)}
          >
            Put away
          </button>
        </>
      )}
      <button data-testid="order-compare" onClick={() => useCompare.getState().startFrom(order)}>
        Compare with…
      </button>
      <input
        type="search"
        className="find-lines"
        placeholder="Find in lines (number, name, colour, remarks)"
        aria-label="Find in lines"
        data-testid="find-lines"
        value={props.find}
        onChange={(e) => props.setFind(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'ArrowDown') {
            e.preventDefault();
            const first = lines[0];
            if (first) void select(first.id);
            props.toTable();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            props.setFind('');
            props.toTable();
          }
        }}
      />
    </div>
  );
}
