import type { CompareView } from '../../../src/api/contract.ts';
import { count, money, plural } from '../../format.ts';

/** Lots and pieces on each side, and what the right lacks and has beyond the left, with its value (SPEC §13). */
export function Totals({ view }: { view: CompareView }) {
  const t = view.totals;
  const currency = view.left.currency ?? view.right.currency;
  return (
    <dl className="compare-totals" data-testid="compare-totals">
      <div>
        <dt>Left: {view.left.label}</dt>
        <dd>
          {plural(t.left.lots, 'lot')}, {plural(t.left.pieces, 'piece')}
        </dd>
      </div>
      <div>
        <dt>Right: {view.right.label}</dt>
        <dd>
          {plural(t.right.lots, 'lot')}, {plural(t.right.pieces, 'piece')}
        </dd>
      </div>
      <div>
        <dt>Missing on the right</dt>
        <dd className={t.missing > 0 ? 'warn' : ''}>
          {count(t.missing)} pieces · {money(t.missingValue, currency)}
        </dd>
      </div>
      <div>
        <dt>Extra on the right</dt>
        <dd>
          {count(t.extra)} pieces · {money(t.extraValue, currency)}
        </dd>
      </div>
    </dl>
  );
}
