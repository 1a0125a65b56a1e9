import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { UndoneTag } from '../../components/Documents.tsx';
import { FirstStart } from '../../components/FirstStart.tsx';
import { count, moneyTotal } from '../../format.ts';
import { useReloadOnChange } from '../../hooks/reload-on-change.ts';
import { useOrders } from '../../state/orders.ts';

/** The orders, searchable by reference or counterparty; the first-start guide on an empty store (SPEC §9). */
export function OrderList() {
  const { orders, query, setQuery, loadOrders, open, returnTo } = useOrders(
    useShallow((s) => ({
      orders: s.orders,
      query: s.query,
      setQuery: s.setQuery,
      loadOrders: s.loadOrders,
      open: s.open,
      returnTo: s.returnTo,
    })),
  );
  useReloadOnChange(loadOrders);
  // One Tab stop for the whole list (issue 47), as the line table is: ↑/↓, Home/End move between its rows.
  const [at, setAt] = useState(0);
  const current = Math.min(at, Math.max(0, orders.length - 1));
  const body = useRef<HTMLTableSectionElement>(null);
  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(orders.length - 1, index));
    setAt(next);
    body.current?.querySelectorAll<HTMLTableRowElement>('tr')[next]?.focus();
  };
  // Back from an order: the focus on its row, where the worker came from (issue 64 §1).
  useEffect(() => {
    if (returnTo === null) return;
    const index = orders.findIndex((o) => o.id === returnTo);
    if (index < 0) return;
    useOrders.getState().returned();
    moveTo(index);
  });
  return (
    <section className="screen" aria-label="Orders">
      <div className="toolbar">
        <h2>Orders</h2>
        <input
          className="search"
          type="search"
          placeholder="Search orders by reference or counterparty"
          value={query}
          onChange={(e) => void setQuery(e.target.value)}
          aria-label="Search orders"
        />
      </div>
      {query.trim() === '' ? <FirstStart orders={orders.length} /> : null}
      {orders.length === 0 ? (
        <p className="empty" data-testid="orders-empty">
          {query.trim() !== ''
            ? `No order matches “${query.trim()}”.`
            : 'No orders yet. Import a document to make one.'}
        </p>
      ) : (
        <table className="table" aria-label="Order list">
          <thead>
            <tr>
              <th>Reference</th>
              <th>Counterparty</th>
              <th>Currency</th>
              <th className="num">Lines</th>
              <th className="num">Unplaced</th>
              <th className="num">Value</th>
            </tr>
          </thead>
          <tbody ref={body}>
            {orders.map((o, i) => (
              <tr
                key={o.id}
                className="clickable"
                onClick={() => void open(o.id)}
                tabIndex={i === current ? 0 : -1}
                onFocus={() => setAt(i)}
                onKeyDown={(e) => {
                  const to: Record<string, number> = {
                    ArrowDown: i + 1,
                    ArrowUp: i - 1,
                    Home: 0,
                    End: orders.length - 1,
                  };
                  if (e.key === 'Enter') void open(o.id);
                  else if (e.key in to) {
                    e.preventDefault();
                    moveTo(to[e.key] ?? i);
                  }
                }}
              >
                <td>
                  {o.reference}
                  <UndoneTag order={o} />
                </td>
                <td>{o.counterparty ?? '—'}</td>
                <td>{o.currency}</td>
                <td className="num">{count(o.lines)}</td>
                <td className={`num${o.unplaced ? ' warn' : ''}`}>{count(o.unplaced)}</td>
                <td className="num" title={`${o.totalValue} ${o.currency} exactly`}>
                  {moneyTotal(o.totalValue, o.currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
