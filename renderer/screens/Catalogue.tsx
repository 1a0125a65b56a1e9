import { useEffect } from 'react';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';
import { useCatalogue } from '../state/catalogue.ts';
import { CatalogueCard } from './catalogue/CatalogueCard.tsx';
import { JobsTable } from './catalogue/JobsTable.tsx';
import { LookupCard } from './catalogue/LookupCard.tsx';
import { StockCard, StockPreview } from './catalogue/StockCard.tsx';
import { useStock } from '../state/stock.ts';

/** Catalogue and jobs (SPEC §9.5), and the stock (SPEC §16): what every order is read against. */
export function Catalogue() {
  const reload = useCatalogue((s) => s.reload);
  useReloadOnChange(reload);
  const reloadStock = useStock((s) => s.reload);
  useReloadOnChange(reloadStock);
  // Another desk's (or process's) load: its progress is written to the store as it goes, told to no one
  // until it ends (SPEC §14) — read again every second while it runs.
  const elsewhere = useCatalogue((s) => s.status?.job?.state === 'running' && s.status.job.alive && s.live === null);
  useEffect(() => {
    if (!elsewhere) return;
    const timer = setInterval(() => void reload(), 1_000);
    return () => clearInterval(timer);
  }, [elsewhere, reload]);
  return (
    <section className="screen" aria-label="Catalogue and jobs">
      <div className="toolbar">
        <h2>Catalogue and jobs</h2>
      </div>
      <div className="cards">
        <CatalogueCard />
        <StockCard />
        <LookupCard />
      </div>
      <StockPreview />
      <JobsTable />
    </section>
  );
}
