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
  const importButton = useRef<HTMLButtonElement>(null);
  const asNewBox = useRef<HTMLInputElement>(null);
  const previewed = preview.previewId;
  const revives = preview.documents.some((d) => d.revival !== null);
  // An undone document whose lines no longer pair can't be revived: importing it as a new one is the way on.
  const unpaired = preview.documents.some((d) => d.refusal?.code === 'lines-do-not-pair');
  const blocked = importBlocked(preview, im.acknowledged);
  // A file chosen and read: the focus goes where the next keystroke is meant to go (issues 47, 64 §1) —
  // Import, or while Import is off, what turns it on: "as a new document", or the first warning to tick.
  // Not while the worker is typing into a field meanwhile.
  useEffect(() => {
    const at = document.activeElement;
    // (A box just ticked is no field being typed into: ticking "as a new document" moves on to Import.)
    const typing =
      (at instanceof HTMLInputElement && at.type !== 'file' && at.type !== 'checkbox') ||
      at instanceof HTMLSelectElement ||
      at instanceof HTMLTextAreaElement;
    if (previewed === '' || typing) return;
    const button = importButton.current;
    if (button !== null && !button.disabled) button.focus();
    else {
      const unticked = document.querySelector<HTMLInputElement>('.warnings input[type="checkbox"]:not(:checked)');
      (asNewBox.current ?? unticked)?.focus();
    }
  }, [previewed]);
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
      {revives || unpaired || im.asNew ? (
        <label className="check">
          <input
            ref={asNewBox}
            type="checkbox"
            data-testid="import-as-new"
            checked={im.asNew}
            onChange={(e) => void im.setAsNew(e.target.checked)}
          />{' '}
          Import as a new document (the undone one stays undone)
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
