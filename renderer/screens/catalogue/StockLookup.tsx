import { useEffect, useState } from 'react';
import { count, plural } from '../../format.ts';
import { attempt, useApp } from '../../state/app.ts';
import { call } from '../../state/call.ts';
import { useCatalogue } from '../../state/catalogue.ts';
import { useSettings } from '../../state/settings.ts';
import { useStock } from '../../state/stock.ts';

/**
 * The stock taken straight from BrickLink's API (`stock.lookup`): shown only where the shop's credentials
 * are stored; one call, counted against the day's budget that the look-up card shows.
 */
export function StockLookup() {
  const settings = useSettings((s) => s.settings);
  const load = useSettings((s) => s.load);
  const budget = useCatalogue((s) => s.status?.budget ?? null);
  const [busy, setBusy] = useState(false);
  useEffect(() => void load(), [load]);
  if (!settings?.credentialsStored) return null;
  const take = async () => {
    // Not disabled meanwhile (a disabled button drops the focus): a second press waits for the first.
    if (busy) return;
    setBusy(true);
    try {
      const r = await attempt(() => call('stock.lookup', {}));
      if (r === null) return;
      useStock.setState({ info: r.stock });
      useApp
        .getState()
        .say(
          `The stock is now BrickLink’s store inventory (${r.fileName}): ${plural(r.fetched, 'lot')} fetched, ` +
            `${r.stock.unplaced.toLocaleString()} unplaced. ${count(r.budget.left)} BrickLink calls left today.`,
        );
      void useCatalogue.getState().reload();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row">
      <button data-testid="stock-lookup" aria-busy={busy} disabled={budget?.left === 0} onClick={() => void take()}>
        Take it from BrickLink
      </button>
      <span className="muted" data-testid="stock-lookup-budget">
        One call of today’s {budget ? `${count(budget.left)} left of ${count(budget.limit)}` : 'budget'}; the store’s
        inventory replaces the stock (Undo takes it back).
      </span>
    </div>
  );
}
