import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { count } from '../format.ts';
import { useExports } from '../state/exports.ts';
import { useOrders } from '../state/orders.ts';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';

export function Export() {
  const ex = useExports(useShallow((s) => ({ last: s.last, summary: s.summary, bricklink: s.bricklink })));
  const { orders, loadOrders } = useOrders(useShallow((s) => ({ orders: s.orders, loadOrders: s.loadOrders })));
  const [orderId, setOrderId] = useState<number | null>(null);
  useReloadOnChange(loadOrders);
  const withLines = orders.filter((o) => o.lines > 0);
  return (
    <section className="screen" aria-label="Export">
      <div className="toolbar">
        <h2>Export</h2>
      </div>
      <div className="cards">
        <div className="card">
          <h3>Summary (CSV)</h3>
          <p>
            One row per order with saved lines: reference, counterparty, currency, documents, lines, placed, unplaced,
            total quantity, total value.
          </p>
          <button className="primary" onClick={() => void ex.summary()}>
            Export the summary…
          </button>
        </div>
        <div className="card">
          <h3>BrickLink XML (mass upload)</h3>
          <p>The placed lines of one order, for the shop's BrickLink store.</p>
          <select
            value={orderId ?? ''}
            onChange={(e) => setOrderId(e.target.value ? Number(e.target.value) : null)}
            aria-label="Order to export"
          >
            <option value="">Choose an order</option>
            {withLines.map((o) => (
              <option key={o.id} value={o.id}>
                {o.reference} — {count(o.placed)} placed {o.placed === 1 ? 'line' : 'lines'}
              </option>
            ))}
          </select>{' '}
          <button disabled={orderId === null} onClick={() => orderId !== null && void ex.bricklink(orderId)}>
            Export BrickLink XML…
          </button>
        </div>
      </div>
      {ex.last ? (
        <div className="card">
          <h3>{ex.last.name}</h3>
          <pre className="export-preview" data-testid="export-preview">
            {ex.last.content.slice(0, 4000)}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
