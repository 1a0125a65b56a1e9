import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PutAwayEntryView } from '../../../src/api/contract.ts';
import { Picture } from '../../components/Picture.tsx';
import { count, plural } from '../../format.ts';
import { useReloadOnChange } from '../../hooks/reload-on-change.ts';
import { usePutAway } from '../../state/put-away.ts';
import { ListApart } from './ListApart.tsx';
import { conditionWords, pictureOf, StockItem } from './StockItem.tsx';

const FROM_WORDS: Readonly<Record<NonNullable<PutAwayEntryView['from']>, string>> = {
  typed: 'as typed',
  item: 'suggested: where its other colours are',
  category: 'suggested: where its category’s parts are',
};

/** A new lot's location: the suggestion or what staff typed, typed over (Enter or leaving the field keeps it). */
function NewLocation({ entry }: { entry: PutAwayEntryView }) {
  const type = usePutAway((s) => s.type);
  const [draft, setDraft] = useState(entry.location ?? '');
  // The list answered again (a suggestion, another's typing): the field shows it unless being typed in.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (document.activeElement !== field.current) setDraft(entry.location ?? '');
  }, [entry.location]);
  const keep = () => {
    if (draft.trim() !== (entry.location ?? '')) void type(entry.line, draft);
  };
  return (
    <span className="put-new">
      <input
        ref={field}
        className="location-input"
        data-testid="put-away-location"
        aria-label={`Location for the new lot of line ${entry.position}`}
        placeholder="type a location"
        value={draft}
        maxLength={100}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={keep}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            keep();
            // On to the next new lot's field, as a form goes on.
            const all = [...document.querySelectorAll<HTMLInputElement>('[data-testid="put-away-location"]')];
            all[all.indexOf(e.currentTarget) + 1]?.focus();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setDraft(entry.location ?? '');
          }
        }}
      />{' '}
      <small className="muted">{entry.from ? FROM_WORDS[entry.from] : 'no lot to go by: type one'}</small>
    </span>
  );
}

/** One received line: to its lot (location, before → after) or a new lot. */
function EntryRow({ e }: { e: PutAwayEntryView }) {
  return (
    <tr data-testid="put-away-entry" data-kind={e.kind}>
      <td className="num">{e.position}</td>
      <td className="put-pic">
        <Picture of={pictureOf(e.item)} size={40} label={e.item.shown} />
      </td>
      <td>
        <StockItem item={e.item} />
      </td>
      <td>{conditionWords(e.condition)}</td>
      <td className="num">{count(e.quantity)}</td>
      <td>
        {e.kind === 'existing' ? (
          <span data-testid="put-away-to-lot">
            <b className="location">{e.location ?? '—'}</b>{' '}
            <span className="muted">
              {count(e.before ?? 0)} → {count(e.after ?? 0)}
              {e.lotId ? ` (lot ${e.lotId})` : ' (no BrickLink lot id)'}
            </span>
          </span>
        ) : (
          <>
            <span className="tag">new lot</span> <NewLocation entry={e} />
          </>
        )}
      </td>
    </tr>
  );
}

/**
 * An incoming order's put-away list (SPEC §16): each line into the drawer of its lot or a new one, and the
 * two BrickLink files (Mass Update, Mass Upload). Nothing goes to BrickLink by itself.
 */
export function PutAway({ reference, onBack }: { reference: string; onBack: () => void }) {
  const p = usePutAway(
    useShallow((s) => ({
      list: s.list,
      refusal: s.refusal,
      exported: s.exported,
      needs: s.needs,
      reload: s.reload,
      export: s.export,
    })),
  );
  useReloadOnChange(p.reload);
  const exportButton = useRef<HTMLButtonElement>(null);
  const shown = p.list !== null;
  // Open: the first new lot without a location takes the typing; with none, Export is the next key.
  useEffect(() => {
    if (!shown) return;
    const blank = [...document.querySelectorAll<HTMLInputElement>('[data-testid="put-away-location"]')].find(
      (i) => i.value === '',
    );
    (blank ?? exportButton.current)?.focus();
  }, [shown]);
  const back = useCallback(() => onBack(), [onBack]);
  const list = p.list;
  const news = list?.entries.filter((e) => e.kind === 'new').length ?? 0;
  return (
    <section className="screen put-away" aria-label="Put away">
      <div className="toolbar">
        <button onClick={back} data-testid="put-away-back">
          ← Order {reference}
        </button>
        <h2>Put away order {reference}</h2>
        {list ? (
          <span className="counts" data-testid="put-away-counts">
            {list.entries.length - news === 1
              ? '1 line to its lot'
              : `${count(list.entries.length - news)} lines to their lots`}
            , {plural(news, 'new lot')}
          </span>
        ) : null}
        <button
          ref={exportButton}
          className="primary"
          data-testid="put-away-export"
          disabled={list === null || list.entries.length === 0}
          onClick={() => void p.export()}
        >
          Export for BrickLink
        </button>
      </div>
      {p.refusal ? (
        <p className="refusal" role="alert" data-testid="put-away-refusal">
          {p.refusal.message}
        </p>
      ) : null}
      {list ? (
        <>
          <p className="hint" data-testid="put-away-note">
            {list.note} The files are BrickLink’s Mass Update (more of lots it has) and Mass Upload (new lots); nothing
            is sent to BrickLink by itself.
          </p>
          {p.needs ? (
            <div className="card warn-card" role="alert" data-testid="put-away-needs">
              <p>{p.needs.message}</p>
              <div className="row">
                <button className="primary" onClick={() => void p.export(true)} data-testid="put-away-export-anyway">
                  Export without them
                </button>
              </div>
            </div>
          ) : null}
          {p.exported && p.exported.leftOut.length > 0 ? (
            <div className="card left-out" data-testid="put-away-left-out">
              <p>Left out of the files:</p>
              <ul>
                {p.exported.leftOut.map((l) => (
                  <li key={`${l.where}:${l.what}`}>
                    {l.where}: {l.what} × {count(l.quantity)} — {l.text}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <table className="table compact put-away-table">
            <thead>
              <tr>
                <th className="num">#</th>
                <th aria-label="Picture" />
                <th>Item</th>
                <th>Condition</th>
                <th className="num">Qty</th>
                <th>Where it goes</th>
              </tr>
            </thead>
            <tbody>
              {list.entries.map((e) => (
                <EntryRow key={e.line} e={e} />
              ))}
            </tbody>
          </table>
          {list.entries.length === 0 ? <p className="empty">Nothing in this order to put away.</p> : null}
          <ListApart
            title="Unplaced lines: not put away until placed"
            testId="put-away-unplaced"
            lines={list.unplaced.map((l) => ({ ...l, why: l.text }))}
          />
          <ListApart
            title="Nothing received"
            testId="put-away-nothing"
            lines={list.nothingReceived.map((l) => ({ ...l, why: 'none received' }))}
          />
        </>
      ) : p.refusal === null ? (
        <p className="empty">Reading the put-away list…</p>
      ) : null}
    </section>
  );
}
