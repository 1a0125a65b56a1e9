import { FilePicker } from './FilePicker.tsx';
import { useCallback, useState } from 'react';
import type { CatalogueStatusView } from '../../src/api/contract.ts';
import { count } from '../format.ts';
import { attempt, useApp } from '../state/app.ts';
import { useCatalogue } from '../state/catalogue.ts';
import { call } from '../state/call.ts';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';

/** The translation tables (SPEC §5), each with what it adds to the placement rule, and the files that give it. */
const TABLES: readonly {
  readonly what: string;
  readonly count: (t: CatalogueStatusView['translations']) => number;
  readonly adds: string;
  readonly from: string;
}[] = [
  {
    what: 'element ids',
    count: (t) => t.elementIds,
    adds: 'place a line that gives a LEGO element id, on its item and colour',
    from: 'BrickLink’s codes (codes.txt) or Rebrickable’s elements.csv',
  },
  {
    what: 'part translations',
    count: (t) => t.partTranslations,
    adds: 'place BrickLink and LDraw numbers on a catalogue in another numbering',
    from: 'Rebrickable’s part cross-references',
  },
  {
    what: 'colour translations',
    count: (t) => t.colourTranslations,
    adds: 'read Rebrickable, LDraw and LEGO colours as BrickLink’s',
    from: 'Rebrickable’s colour list',
  },
  {
    what: 'relationships',
    count: (t) => t.relationships,
    adds: 'suggest alternates, other moulds and prints for a number the catalogue lacks',
    from: 'Rebrickable’s part_relationships.csv',
  },
];

/**
 * Once a catalogue is loaded, what else is: each translation table held, and what each one missing would
 * add (issue 64 §2) — not a done step that forgets them.
 */
function LoadedTables({ status }: { status: CatalogueStatusView }) {
  return (
    <ul className="tables" data-testid="first-start-loaded">
      {TABLES.map((t) => {
        const n = t.count(status.translations);
        return (
          <li key={t.what} className={n > 0 ? 'done' : ''}>
            {n > 0 ? `${count(n)} ${t.what}: they ${t.adds}.` : `No ${t.what} yet: ${t.from} would ${t.adds}.`}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The first start (SPEC §9): an empty store shows the two steps — load a catalogue, then import a
 * document — with a button for each, until both are done.
 */
export function FirstStart({ orders }: { orders: number }) {
  const go = useApp((s) => s.go);
  const load = useCatalogue((s) => s.load);
  const live = useCatalogue((s) => s.live);
  const [status, setStatus] = useState<CatalogueStatusView | null>(null);
  const reload = useCallback(() => void attempt(() => call('catalogue.status', {})).then((s) => s && setStatus(s)), []);
  useReloadOnChange(reload);
  if (status === null || (status.items > 0 && orders > 0)) return null;
  const catalogued = status.items > 0;
  return (
    <div className="first-start card" data-testid="first-start">
      <h3>Getting started</h3>
      <ol className="steps">
        <li className={catalogued ? 'done' : ''}>
          <b>Load the shop’s catalogue.</b>{' '}
          {catalogued ? (
            <>
              {`Done: ${count(status.items)} items and ${count(status.colours)} colours.`}
              {status.colours === 0 ? (
                <span data-testid="colours-not-checked">
                  {' '}
                  Colours are not checked until BrickLink’s colours are loaded: a line keeps the colour its document
                  gives.
                </span>
              ) : null}
              <LoadedTables status={status} />
              <div className="row">
                <FilePicker
                  label="Load more catalogue files…"
                  testId="first-start-more"
                  multiple
                  // Once a catalogue is loaded, Ctrl+O opens a document: the guide's next step.
                  shortcut={false}
                  disabled={live !== null}
                  onFiles={(files) => void load(files)}
                />
              </div>
            </>
          ) : (
            <>
              brick-work places each line against it. It takes BrickLink’s catalogue downloads (items, colours and
              categories, as XML or tab-delimited text) and Rebrickable’s <code>parts.csv</code>,{' '}
              <code>part_categories.csv</code> and <code>sets.csv</code> (also gzipped). Load BrickLink’s colours too,
              so that colours can be checked.
              <span data-testid="first-start-tables">
                {' '}
                The translation tables place a line whatever numbering its document speaks: BrickLink’s codes and
                Rebrickable’s <code>elements.csv</code> place LEGO element ids; Rebrickable’s part cross-references
                place BrickLink and LDraw numbers; its colour list translates Rebrickable, LDraw and LEGO colours into
                BrickLink’s; its <code>part_relationships.csv</code> suggests alternates, moulds and prints.
              </span>
              <div className="row">
                <FilePicker
                  label="Load catalogue files…"
                  testId="first-start-catalogue"
                  multiple
                  primary
                  disabled={live !== null}
                  onFiles={(files) => void load(files)}
                />
                <button onClick={() => go('catalogue')}>More on the catalogue screen</button>
              </div>
            </>
          )}
        </li>
        <li className={orders > 0 ? 'done' : ''}>
          <b>Import an order document.</b> A BrickLink order (XML), BrickLink XML, a BrickStore or BrickStock file
          (.bsx), a CSV part list or a BrickLink Studio parts list, or a model (LDraw, BrickLink Studio).
          <div className="row">
            <button className={catalogued ? 'primary' : ''} onClick={() => go('import')}>
              Import a document…
            </button>
          </div>
        </li>
      </ol>
      <p className="muted" data-testid="first-start-stock">
        And the shop’s stock, when you keep one: import the shop’s inventory (Catalogue & jobs → Stock) to pick orders
        and put purchases away.
      </p>
    </div>
  );
}
