import { needsAcknowledging } from '../../../src/export-kinds.ts';
import type { LeftOutView } from '../../../src/api/contract.ts';
import { count, plural } from '../../format.ts';
import { TARGET_NAMES, useExports, type ExportReview as Review } from '../../state/exports.ts';

/** Lines an export leaves out, each with where it is and why (SPEC §8: none left out without a word). */
export function LeftOutTable(props: { leftOut: readonly LeftOutView[]; label: string; testId: string }) {
  return (
    <table className="table compact left-out" aria-label={props.label} data-testid={props.testId}>
      <thead>
        <tr>
          <th>Line</th>
          <th>Item</th>
          <th>Qty</th>
          <th>Why it is left out</th>
        </tr>
      </thead>
      <tbody>
        {props.leftOut.map((l, i) => (
          <tr key={`${l.line ?? ''}-${i}`}>
            <td>{l.where}</td>
            <td>{l.what}</td>
            <td className="num">{count(l.quantity)}</td>
            <td>{l.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * An order's export that would leave out lines its target does not number: each listed, and nothing
 * written until staff export without them (SPEC §8: never another numbering's number in their place).
 */
export function ExportReview(props: { review: Review; orderName: string | null }) {
  const review = props.review;
  const actions = useExports.getState();
  const unnumbered = review.preview.leftOut.filter((l) => needsAcknowledging(l.reason));
  return (
    <div
      className="confirm"
      role="dialog"
      aria-label={`${TARGET_NAMES[review.preview.target]}: lines it can't name`}
      data-testid="export-review"
    >
      <p>
        {plural(unnumbered.length, 'line')} of {props.orderName ?? `order #${review.orderId}`}{' '}
        {unnumbered.length === 1 ? 'has' : 'have'} no known{' '}
        {review.preview.target === 'bricklink' ? 'BrickLink' : 'Rebrickable'} number: no loaded table gives one, and
        brick-work never writes another numbering’s number in its place. Load a table that gives{' '}
        {unnumbered.length === 1 ? 'it' : 'them'} or fix {unnumbered.length === 1 ? 'it' : 'them'} by hand — or export
        without {unnumbered.length === 1 ? 'it' : 'them'}.
      </p>
      <LeftOutTable leftOut={review.preview.leftOut} label="Lines the export leaves out" testId="export-review-lines" />
      <div className="row">
        <button className="primary" onClick={() => void actions.confirm()} data-testid="export-review-confirm">
          Export {count(review.preview.rows)} {review.preview.rows === 1 ? 'lot' : 'lots'}, leaving these out
        </button>
        <button onClick={() => actions.cancel()} data-testid="export-review-cancel">
          Cancel
        </button>
      </div>
    </div>
  );
}
