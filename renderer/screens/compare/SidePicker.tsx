import { useEffect, useRef } from 'react';
import type { DocumentView, OrderView } from '../../../src/api/contract.ts';
import { FilePicker } from '../../components/FilePicker.tsx';
import { plural } from '../../format.ts';
import { fileArg } from '../../state/call.ts';
import { useCompare, type SideChoice } from '../../state/compare.ts';

const valueOf = (c: SideChoice | null): string =>
  c === null
    ? ''
    : c.arg.kind === 'order'
      ? `order:${c.arg.orderId}`
      : c.arg.kind === 'document'
        ? `document:${c.arg.documentId}`
        : 'file';

/**
 * One side of a compare (SPEC §13): an order, one of its documents, or a file that is not imported —
 * chosen from the list, or picked with the file button (read and placed as a preview is, written nowhere).
 */
export function SidePicker(props: {
  side: 'left' | 'right';
  title: string;
  orders: readonly OrderView[];
  documents: readonly DocumentView[];
}) {
  const { side, orders, documents } = props;
  const choice = useCompare((s) => s[side]);
  const select = useRef<HTMLSelectElement>(null);
  const focusHere = useCompare((s) => s.focusSide === side);
  useEffect(() => {
    if (!focusHere) return;
    select.current?.focus();
    useCompare.getState().focused();
  }, [focusHere]);
  const choose = useCompare((s) => s.choose);
  const pick = (value: string) => {
    const [kind, id] = value.split(':');
    const order = orders.find((o) => kind === 'order' && o.id === Number(id));
    const doc = documents.find((d) => kind === 'document' && d.id === Number(id));
    if (order)
      choose(side, { arg: { kind: 'order', orderId: order.id }, label: `order ${order.reference}`, orderId: order.id });
    else if (doc)
      choose(side, {
        arg: { kind: 'document', documentId: doc.id },
        label: `document ${doc.key} (order ${doc.orderReference})`,
        orderId: doc.orderId,
      });
    else if (value === '') choose(side, null);
  };
  return (
    <fieldset className="side-picker" data-testid={`compare-${side}`}>
      <legend>{props.title}</legend>
      <select
        ref={select}
        aria-label={`${props.title}: an order or a document`}
        value={valueOf(choice)}
        onChange={(e) => pick(e.target.value)}
      >
        <option value="">Choose an order or a document…</option>
        <optgroup label="Orders">
          {orders.map((o) => (
            <option key={o.id} value={`order:${o.id}`}>
              {o.reference} — {plural(o.lines, 'line')}
              {o.state === 'undone' ? ' (undone)' : ''}
            </option>
          ))}
        </optgroup>
        <optgroup label="Documents">
          {documents
            .filter((d) => d.state === 'imported')
            .map((d) => (
              <option key={d.id} value={`document:${d.id}`}>
                {d.key} — in {d.orderReference}
              </option>
            ))}
        </optgroup>
        {choice?.arg.kind === 'file' ? <option value="file">{choice.label} (not imported)</option> : null}
      </select>{' '}
      <FilePicker
        label="A file…"
        testId={`compare-${side}-file`}
        onFiles={(files) => {
          const f = files[0];
          if (f)
            void fileArg(f).then((file) => {
              choose(side, { arg: { kind: 'file', file }, label: `file ${file.name}`, orderId: null });
              // Chosen: on to the next step (issue 64 §1), the other side while it is empty, else Compare.
              const other = side === 'left' ? 'right' : 'left';
              const next =
                useCompare.getState()[other] === null
                  ? `[data-testid="compare-${other}"] select`
                  : '[data-testid="compare-run"]';
              setTimeout(() => document.querySelector<HTMLElement>(next)?.focus(), 0);
            });
        }}
      />
    </fieldset>
  );
}
