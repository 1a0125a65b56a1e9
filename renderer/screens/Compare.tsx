import { useCallback, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DocumentView } from '../../src/api/contract.ts';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';
import { call } from '../state/call.ts';
import { useCompare } from '../state/compare.ts';
import { useOrders } from '../state/orders.ts';
import { CompareResult } from './compare/CompareResult.tsx';
import { SidePicker } from './compare/SidePicker.tsx';

/** Compare (SPEC §9.8, §13): two lists side by side by what their lines are; nothing is changed by it. */
export function Compare() {
  const c = useCompare(
    useShallow((s) => ({
      left: s.left,
      right: s.right,
      prices: s.prices,
      running: s.running,
      progress: s.progress,
      view: s.view,
    })),
  );
  const { orders, loadOrders } = useOrders(useShallow((s) => ({ orders: s.orders, loadOrders: s.loadOrders })));
  const [documents, setDocuments] = useState<readonly DocumentView[]>([]);
  const reload = useCallback(async () => {
    await loadOrders();
    setDocuments(await call('documents.list', {}).catch(() => []));
  }, [loadOrders]);
  useReloadOnChange(reload);
  const p = c.progress;
  return (
    <section className="screen compare" aria-label="Compare">
      <div className="toolbar">
        <h2>Compare</h2>
        <span className="hint">Two lists by what their lines are. Comparing changes nothing.</span>
      </div>
      <div className="compare-sides">
        <SidePicker side="left" title="Left" orders={orders} documents={documents} />
        <SidePicker side="right" title="Right" orders={orders} documents={documents} />
        <label className="check">
          <input
            type="checkbox"
            checked={c.prices}
            onChange={(e) => useCompare.getState().setPrices(e.target.checked)}
          />{' '}
          Prices too
        </label>
        <button
          className="primary"
          data-testid="compare-run"
          disabled={c.left === null || c.right === null || c.running}
          onClick={() => void useCompare.getState().run()}
        >
          Compare
        </button>
      </div>
      {c.running ? (
        <ProgressBar
          label={p ? `${p.phase === 'reading' ? 'Reading' : 'Placing'} the ${p.side} side` : 'Comparing'}
          done={p?.done ?? 0}
          total={p?.total ?? null}
          unit="lines"
        />
      ) : null}
      {c.view ? (
        <CompareResult />
      ) : c.running ? null : (
        <p className="hint">
          Choose the two sides — an order, one of its documents, or a file that is not imported — and press Compare.
        </p>
      )}
    </section>
  );
}
