import { useEffect, useState } from 'react';
import { count, plural } from '../../format.ts';
import { attempt, useApp } from '../../state/app.ts';
import { call } from '../../state/call.ts';
import { useCatalogue } from '../../state/catalogue.ts';
import { useSettings } from '../../state/settings.ts';
import { useStock } from '../../state/stock.ts';

/**
 * The stock taken straight from BrickLink's API (`stock.lookup`): shown only where the shop's credentials
 * are stored; one call, counted against the day's budget that the look-up card shows. What BrickLink gives
 * is previewed as a stock file is (the card's preview), and replaces the stock only on Import.
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
      void useCatalogue.getState().reload();
      if (r === null) return;
      useApp
        .getState()
        .say(
          `BrickLink’s store inventory (${r.file.name}): ${plural(r.fetched, 'lot')} fetched; look it over, then ` +
            `Import as the stock. ${count(r.budget.left)} BrickLink calls left today.`,
        );
      // Its locations are the lots' remarks: BrickLink's own inventory has no other column.
      useStock.setState({ file: r.file, locationFrom: null, acknowledged: [], colourNumbering: null, preview: null });
      await useStock.getState().refresh();
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
        inventory is shown first, and replaces the stock on Import (Undo takes it back).
      </span>
    </div>
  );
}
