import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { count } from '../../format.ts';
import { useCatalogue } from '../../state/catalogue.ts';

/** The look-up job (SPEC §5): today's BrickLink calls used and left, and a run with an optional call limit. */
export function LookupCard() {
  const c = useCatalogue(useShallow((s) => ({ status: s.status, lookup: s.lookup })));
  const [limit, setLimit] = useState('');
  const s = c.status;
  return (
    <div className="card">
      <h3>BrickLink look-up</h3>
      <p>Asks BrickLink for the numbers that unplaced lines name and the catalogue lacks; each number is asked once.</p>
      <p data-testid="budget">
        Today ({s?.budget.day ?? '…'}, UTC): <b>{s ? count(s.budget.used) : '…'}</b> calls used,{' '}
        <b>{s ? count(s.budget.left) : '…'}</b> left of {s ? count(s.budget.limit) : '…'}.
      </p>
      <div className="row">
        <label>
          At most{' '}
          <input
            className="short"
            inputMode="numeric"
            value={limit}
            placeholder="all"
            onChange={(e) => setLimit(e.target.value.replace(/\D/g, ''))}
            aria-label="Call limit"
          />{' '}
          calls
        </label>
        <button onClick={() => void c.lookup(limit ? Number(limit) : null)}>Look up missing numbers</button>
      </div>
    </div>
  );
}
