import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ImportPreviewView } from '../../../src/api/contract.ts';
import { useApp } from '../../state/app.ts';
import { importBlocked, useImport } from '../../state/import.ts';
import { useOrders } from '../../state/orders.ts';
import { READ_ONLY_TITLE } from '../../store-banner.ts';

/** Where the preview's documents go (a new order, or one staff choose; a revival into its own), and Import. */
export function TargetBar({ preview }: { preview: ImportPreviewView }) {
  const im = useImport(
    useShallow((s) => ({
      busy: s.busy,
      asNew: s.asNew,
      orderId: s.orderId,
      setTarget: s.setTarget,
      setAsNew: s.setAsNew,
      confirm: s.confirm,
      reset: s.reset,
      acknowledged: s.acknowledged,
    })),
  );
  const { orders, loadOrders, open } = useOrders(
    useShallow((s) => ({ orders: s.orders, loadOrders: s.loadOrders, open: s.open })),
  );
  const go = useApp((s) => s.go);
  // A document is read and previewed on a store that can't be written; importing it is off there, as Undo is.
  const readOnly = useApp((s) => s.store?.readOnly != null);
  useEffect(() => void loadOrders(), [loadOrders]);
  // A file chosen and read: the next thing to do is Import (issue 47), where the focus goes — unless the
  // worker is typing into a field meanwhile.
  const importButton = useRef<HTMLButtonElement>(null);
  const previewed = preview.previewId;
  useEffect(() => {
    const at = document.activeElement;
    const typing =
      at instanceof HTMLInputElement || at instanceof HTMLSelectElement || at instanceof HTMLTextAreaElement;
    if (previewed !== '' && !(typing && at.type !== 'file')) importButton.current?.focus();
  }, [previewed]);
  const revives = preview.documents.some((d) => d.revival !== null);
  const blocked = importBlocked(preview, im.acknowledged);
  const confirm = () =>
    void im.confirm().then((results) => {
      // The first order that needs work: a file of many orders opens where the unplaced lines are (issue 64 §3).
      const first = results?.find((r) => r.lines.unplaced > 0) ?? results?.[0];
      // Only an import waited on here opens its order: one that ends while the worker is at work elsewhere
      // moves nothing under their hands (its notice offers to open it).
      if (first && useApp.getState().screen === 'import') {
        go('orders', 'app');
        void open(first.order.id, 'app');
      }
    });
  return (
    <div className="toolbar">
      {revives && !im.asNew ? (
        <span>
          Into its order <b>{preview.documents.find((d) => d.revival)?.target?.reference}</b>
        </span>
      ) : (
        <label>
          Into{' '}
          <select
            value={im.orderId ?? ''}
            onChange={(e) => void im.setTarget(e.target.value ? Number(e.target.value) : null)}
            aria-label="Target order"
          >
            <option value="">a new order (from the file)</option>
            {orders.map((o) => (
              <option key={o.id} value={o.id}>
                order {o.reference} ({o.currency})
              </option>
            ))}
          </select>
        </label>
      )}
      {revives || im.asNew ? (
        <label className="check">
          <input type="checkbox" checked={im.asNew} onChange={(e) => void im.setAsNew(e.target.checked)} /> Import as a
          new document (the undone one stays undone)
        </label>
      ) : null}
      <button
        ref={importButton}
        className="primary"
        data-testid="confirm-import"
        disabled={blocked || im.busy || readOnly}
        title={readOnly ? READ_ONLY_TITLE : undefined}
        onClick={confirm}
      >
        {revives && !im.asNew ? 'Revive' : 'Import'}
      </button>
      <button onClick={() => im.reset()}>Clear</button>
      {blocked && preview.refusal?.code === 'needs-acknowledgement' ? (
        <span className="hint">Tick each box below once you have checked it, then import.</span>
      ) : null}
    </div>
  );
}
