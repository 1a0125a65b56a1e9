import { memo, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Picture } from '../../components/Picture.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { count } from '../../format.ts';
import { useReloadOnChange } from '../../hooks/reload-on-change.ts';
import { usePick } from '../../state/pick.ts';
import { ListApart } from './ListApart.tsx';
import { PrintPanel } from './PrintPanel.tsx';
import { conditionWords, pictureOf, StockItem } from './StockItem.tsx';

const rowId = (key: string) => `pick-${key.replace(/[^\w-]/g, '_')}`;

/** One stop of the walk: where, what, how many to take, what is marked, what is short. Only the stops
 * whose selection or typing changed draw again on a key (each follows its own), so a key answers at once
 * on a walk of hundreds. */
const StopRow = memo(function StopRow({ k }: { k: string }) {
  const e = usePick((s) => s.byKey.get(k));
  const selected = usePick((s) => s.selected === k);
  const typing = usePick((s) => (s.selected === k ? s.typing : null));
  if (e === undefined) return null;
  const done = e.picked >= e.take;
  const state = done ? 'picked' : e.picked > 0 ? 'part' : 'open';
  return (
    <div
      id={rowId(e.key)}
      role="option"
      aria-selected={selected}
      className={`pick-row ${state}${selected ? ' selected' : ''}`}
      data-testid="pick-row"
      data-key={e.key}
      data-state={state}
      onClick={() => usePick.getState().select(e.key)}
    >
      <span className="pick-tick" aria-hidden="true">
        {done ? '✓' : e.picked > 0 ? '◐' : ''}
      </span>
      <b className="pick-location">{e.location ?? '(no location)'}</b>
      <span className="pick-what">
        <StockItem item={e.item} compact />
        {e.condition ? <span className="muted"> · {conditionWords(e.condition)}</span> : null}
      </span>
      <span className="pick-take num">take {count(e.take)}</span>
      <span className="pick-picked num" data-testid="pick-picked">
        {typing !== null ? (
          <span className="pick-typing" data-testid="pick-typing">
            {typing}▏ of {count(e.take)}
          </span>
        ) : e.picked > 0 ? (
          `${count(e.picked)} picked`
        ) : (
          ''
        )}
      </span>
      <span className="pick-short">{e.short ? <span className="warn">{e.short.text}</span> : null}</span>
      <span className="pick-by muted">{e.pickedBy && e.picked > 0 ? e.pickedBy : ''}</span>
    </div>
  );
});

/** The selected stop, large: its picture, its location, the item and how many to take; the progress beside. */
function StopPanel() {
  const progress = usePick((s) => s.list?.progress ?? null);
  const e = usePick((s) => (s.selected === null ? null : (s.byKey.get(s.selected) ?? null)));
  return (
    <aside className="pick-stop" aria-label="The selected lot" data-testid="pick-stop">
      {progress ? (
        <div className="pick-progress">
          <p data-testid="pick-progress" aria-live="polite">
            {progress.text}
          </p>
          <ProgressBar done={progress.piecesDone} total={progress.pieces} label="Pieces picked" unit="pieces" />
        </div>
      ) : null}
      {e ? (
        <>
          <div className="pick-stop-location" data-testid="pick-stop-location">
            {e.location ?? '(no location)'}
          </div>
          <Picture of={pictureOf(e.item)} size={240} label={e.item.shown} />
          <div className="pick-stop-item">
            <StockItem item={e.item} />
            {e.condition ? <span className="muted"> · {conditionWords(e.condition)}</span> : null}
          </div>
          <div className="pick-stop-take" data-testid="pick-stop-take">
            Take <b>{count(e.take)}</b>
            <span className="muted">
              {' '}
              of {count(e.inLot)} in the lot{e.ordered !== e.take ? ` (the line asks ${count(e.ordered)})` : ''}
            </span>
          </div>
          {e.picked > 0 ? (
            <div className={e.picked >= e.take ? 'pick-stop-done' : 'warn'}>
              {count(e.picked)} picked{e.pickedBy ? ` by ${e.pickedBy}` : ''}
            </div>
          ) : null}
          {e.short ? <div className="warn">{e.short.text}</div> : null}
          <div className="muted">{e.where}</div>
        </>
      ) : null}
    </aside>
  );
}

/**
 * The picking screen (SPEC §16), keyboard first: the walk in walking order, one stop selected; ↑/↓ move,
 * Space marks its whole take (or takes the mark back), digits then Enter mark part of it. Other desks'
 * marks come as the store changes; Undo in the header takes a mark back.
 */
export function Picking({ reference, onBack }: { reference: string; onBack: () => void }) {
  const p = usePick(
    useShallow((s) => ({
      list: s.list,
      refusal: s.refusal,
      selected: s.selected,
      reloadSoon: s.reloadSoon,
    })),
  );
  useReloadOnChange(p.reloadSoon);
  const walk = useRef<HTMLDivElement>(null);
  const shown = p.list !== null;
  // Open: the walk has the focus, for the keys (never the page's body).
  useEffect(() => {
    if (shown) walk.current?.focus();
  }, [shown]);
  useEffect(() => {
    if (p.selected === null) return;
    document.getElementById(rowId(p.selected))?.scrollIntoView({ block: 'nearest' });
  }, [p.selected]);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const s = usePick.getState();
    const handled = (() => {
      if (/^[0-9]$/.test(e.key)) s.digit(e.key);
      else if (e.key === 'ArrowDown') s.move(1);
      else if (e.key === 'ArrowUp') s.move(-1);
      else if (e.key === 'PageDown') s.move(10);
      else if (e.key === 'PageUp') s.move(-10);
      else if (e.key === 'Home') s.move(-Infinity);
      else if (e.key === 'End') s.move(Infinity);
      else if (e.key === ' ') s.toggle();
      else if (e.key === 'Enter' && s.typing !== null) s.commitTyping();
      else if (e.key === 'Escape' && s.typing !== null) s.cancelTyping();
      else if (e.key === 'Backspace' && s.typing !== null) s.backspace();
      else return false;
      return true;
    })();
    if (handled) e.preventDefault();
  };
  const list = p.list;
  // The rows as elements, made again only when the walk's stops change: a key draws only the rows it changes.
  const keys = usePick((s) => s.keys);
  const rows = useMemo(() => keys.map((k) => <StopRow key={k} k={k} />), [keys]);
  return (
    <section className="screen picking" aria-label="Picking">
      <div className="toolbar">
        <button onClick={onBack} data-testid="pick-back">
          ← Order {reference}
        </button>
        <h2>Pick order {reference}</h2>
        {list ? <PrintPanel orderId={list.order.id} /> : null}
      </div>
      <p className="hint">
        ↑/↓ move · Space marks the lot picked (all of it), or takes the mark back · a number, then Enter, marks part of
        it (Esc cancels) · Undo takes a mark back
      </p>
      {p.refusal ? (
        <p className="refusal" role="alert" data-testid="pick-refusal">
          {p.refusal.message}
        </p>
      ) : null}
      {list ? (
        <>
          <div className="pick-body">
            <div
              className="pick-walk"
              ref={walk}
              tabIndex={0}
              role="listbox"
              aria-label="The walk, in walking order"
              aria-activedescendant={p.selected === null ? undefined : rowId(p.selected)}
              data-testid="pick-walk"
              onKeyDown={onKey}
            >
              {rows}
              {list.entries.length === 0 ? <p className="empty">Nothing in the stock to take for this order.</p> : null}
            </div>
            <StopPanel />
          </div>
          <ListApart
            title="Missing: nothing to take"
            testId="pick-missing"
            lines={list.missing.map((l) => ({ ...l, why: l.short.text }))}
          />
          <ListApart
            title="Unplaced lines: not in the walk until placed"
            testId="pick-unplaced"
            lines={list.unplaced.map((l) => ({ ...l, why: l.text }))}
          />
          <ListApart
            title="Nothing asked"
            testId="pick-nothing"
            lines={list.nothingAsked.map((l) => ({ ...l, why: 'a line of no pieces' }))}
          />
        </>
      ) : p.refusal === null ? (
        <p className="empty">Reading the pick list…</p>
      ) : null}
    </section>
  );
}
