import { needsAcknowledging } from '../../../src/vocabulary/export-kinds.ts';
import type { LeftOutView } from '../../../src/api/contract.ts';
import { count, plural } from '../../format.ts';
import { TARGET_NAMES, useExports, type ExportReview as Review } from '../../state/exports.ts';

/**
 * Where a left-out line is, split into its document and its place there (`Market Street.bsx #12`); a
 * compare's lot names its side alone.
 */
export function placeOf(where: string): { document: string | null; at: string } {
  const cut = where.lastIndexOf(' #');
  return cut < 0 ? { document: null, at: where } : { document: where.slice(0, cut), at: where.slice(cut + 1) };
}

/**
 * Lines an export leaves out, each with where it is and why (SPEC §8: none left out without a word). A
 * document is named once above its lines, not on each (issue 64 §4).
 */
export function LeftOutTable(props: { leftOut: readonly LeftOutView[]; label: string; testId: string }) {
  const rows = props.leftOut.map((l) => ({ l, ...placeOf(l.where) }));
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
        {rows.flatMap(({ l, document, at }, i) => {
          const row = (
            <tr key={`${l.line ?? ''}-${i}`}>
              <td>{at}</td>
              <td>{l.what}</td>
              <td className="num">{count(l.quantity)}</td>
              <td>{l.text}</td>
            </tr>
          );
          const heading =
            document !== null && document !== rows[i - 1]?.document ? (
              <tr key={`doc-${i}`} className="group" data-testid="left-out-document">
                <th colSpan={4} scope="rowgroup" style={{ textAlign: 'left' }}>
                  {document}
                </th>
              </tr>
            ) : null;
          return heading === null ? [row] : [heading, row];
        })}
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
  const order = props.orderName ?? `order #${review.orderId}`;
  const them = unnumbered.length === 1 ? 'it' : 'them';
  // Nothing would be written: said, with why each line stays out, and no export offered (issue 64 §4).
  const nothing = review.preview.rows === 0;
  return (
    <div
      className="confirm"
      role="dialog"
      aria-label={`${TARGET_NAMES[review.preview.target]}: ${nothing ? 'nothing to write' : 'lines it can’t name'}`}
      data-testid="export-review"
    >
      {nothing ? (
        <p data-testid="export-review-nothing">
          Nothing to write: every line of {order} is left out of the {TARGET_NAMES[review.preview.target]}, each for the
          reason below.
        </p>
      ) : (
        <p>
          {plural(unnumbered.length, 'line')} of {order} {unnumbered.length === 1 ? 'has' : 'have'} no known{' '}
          {review.preview.target === 'bricklink' ? 'BrickLink' : 'Rebrickable'} number: no loaded table gives one, and
          brick-work never writes another numbering’s number in its place. Load a table that gives {them} or fix {them}{' '}
          by hand — or export without {them}.
        </p>
      )}
      <LeftOutTable leftOut={review.preview.leftOut} label="Lines the export leaves out" testId="export-review-lines" />
      <div className="row">
        {nothing ? null : (
          <button className="primary" onClick={() => void actions.confirm()} data-testid="export-review-confirm">
            Export {count(review.preview.rows)} {review.preview.rows === 1 ? 'lot' : 'lots'}, leaving these out
          </button>
        )}
        <button onClick={() => actions.cancel()} data-testid="export-review-cancel" autoFocus={nothing}>
          {nothing ? 'Close' : 'Cancel'}
        </button>
      </div>
    </div>
  );
}
