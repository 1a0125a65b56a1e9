import { useReloadOnChange } from '../hooks/reload-on-change.ts';
import { useCatalogue } from '../state/catalogue.ts';
import { CatalogueCard } from './catalogue/CatalogueCard.tsx';
import { JobsTable } from './catalogue/JobsTable.tsx';
import { LookupCard } from './catalogue/LookupCard.tsx';

/** Catalogue and jobs (SPEC §9.5). */
export function Catalogue() {
  const reload = useCatalogue((s) => s.reload);
  useReloadOnChange(reload);
  return (
    <section className="screen" aria-label="Catalogue and jobs">
      <div className="toolbar">
        <h2>Catalogue and jobs</h2>
      </div>
      <div className="cards">
        <CatalogueCard />
        <LookupCard />
      </div>
      <JobsTable />
    </section>
  );
}
