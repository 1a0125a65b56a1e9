import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LineRowView } from '../../src/api/contract.ts';

export const ROW_HEIGHT = 30;
const OVERSCAN = 8;

interface Props {
  lines: readonly LineRowView[];
  selected: number | null;
  onSelect(lineId: number): void;
  onKey(e: KeyboardEvent<HTMLDivElement>): void;
}

function givenText(l: LineRowView): string {
  return [l.given.type && l.given.type !== 'P' ? l.given.type : '', l.given.no ?? '', l.given.name ?? ''].filter(Boolean).join(' · ');
}

function colourText(l: LineRowView): string {
  return l.given.colourName ?? (l.given.colourId === null ? '' : `#${l.given.colourId}`);
}

/**
 * The order's line table: only the rows in view (and a few around them) are in the page, so it stays
 * smooth at 10,000 lines and more; the scroll height is the whole list's.
 */
export function LineTable({ lines, selected, onSelect, onKey }: Props) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Keep the selected line in view when the keyboard moves it.
  useEffect(() => {
    const el = viewport.current;
    const index = lines.findIndex((l) => l.id === selected);
    if (!el || index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [selected, lines]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(lines.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const visible = lines.slice(first, last);

  return (
    <div
      className="line-table"
      ref={viewport}
      tabIndex={0}
      role="grid"
      aria-label="Lines"
      aria-rowcount={lines.length}
      data-testid="line-table"
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKey}
    >
      <div style={{ height: lines.length * ROW_HEIGHT, position: 'relative' }}>
        {visible.map((l, i) => (
          <div
            key={l.id}
            role="row"
            aria-rowindex={first + i + 1}
            aria-selected={l.id === selected}
            className={`line-row${l.id === selected ? ' selected' : ''}${l.placed ? '' : ' unplaced'}`}
            style={{ top: (first + i) * ROW_HEIGHT, height: ROW_HEIGHT }}
            onClick={() => onSelect(l.id)}
            data-line-id={l.id}
          >
            <span className="c-pos">{l.position}</span>
            <span className="c-given" title={givenText(l)}>{givenText(l)}</span>
            <span className="c-colour">{colourText(l)}</span>
            <span className="c-qty">{l.quantity}</span>
            <span className="c-price">{l.unitPrice ?? ''}</span>
            <span className="c-placed" title={l.placed?.name ?? l.reason?.text ?? ''}>
              {l.placed ? (
                <>
                  <b>
                    {l.placed.type} {l.placed.no}
                  </b>{' '}
                  {l.placed.name}
                  {l.placed.colourName ? <span className="colour-name"> · {l.placed.colourName}</span> : null}
                  {l.placed.by === 'hand' ? <em className="tag">by hand</em> : null}
                </>
              ) : (
                <span className="reason">{l.reason?.text}</span>
              )}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
