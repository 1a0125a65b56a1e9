import { ItemNo, itemNoText } from './ItemNo.tsx';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LineRowView } from '../../src/api/contract.ts';
import { count, money } from '../format.ts';
import { Colour } from './Colour.tsx';
import { Picture } from './Picture.tsx';
import { DEFAULT_ITEM_TYPE } from '../../src/vocabulary/item-types.ts';

export const ROW_HEIGHT = 30;
/** A row's picture: within its height. */
const ROW_PICTURE = 26;
const OVERSCAN = 8;

interface Props {
  lines: readonly LineRowView[];
  /** The order's currency: prices are shown in it. */
  currency: string;
  selected: number | null;
  onSelect(lineId: number): void;
  onKey(e: KeyboardEvent<HTMLDivElement>): void;
  /** A small picture on each line (a setting, on by default): the placed item in its colour, else the given one. */
  pictures: boolean;
}

function givenText(l: LineRowView): string {
  return [l.given.type && l.given.type !== DEFAULT_ITEM_TYPE ? l.given.type : '', l.given.no ?? '', l.given.name ?? '']
    .filter(Boolean)
    .join(' · ');
}

/** A reason in a few words, for the table's narrow column; the full text is on hover and in the side panel. */
export const SHORT_REASONS: Readonly<Record<string, string>> = {
  'no-number-or-name': 'No number or name',
  'unknown-item-type': 'Type unknown',
  'name-matches-several': 'Name: several items',
  'element-not-known': 'Element unknown',
  'number-not-in-catalogue': 'Number unknown',
  'name-not-in-catalogue': 'Name unknown',
  'colour-not-in-catalogue': 'Colour unknown',
  'colour-not-the-elements': "Not the element's colour",
  'element-conflict': 'Element ≠ number',
  'remembered-not-in-colour': 'Memory: not in colour',
};

/** Another numbering's colour as a document gives it ("LDraw colour 4"): named by the catalogue once translated. */
const OTHER_NUMBERING = /^(Rebrickable|LDraw|LEGO) colour /;

/**
 * The colour the line gives: the document's name for it, else the catalogue's, else its id; a number in
 * another numbering by the catalogue's name for it, where the colour table translates it.
 */
function GivenColour({ l }: { l: LineRowView }) {
  const id = l.given.colourId === 0 ? null : l.given.colourId;
  if (id === null && l.given.colourName === null) return null;
  const given = l.given.colourName;
  const name = given !== null && OTHER_NUMBERING.test(given) && l.givenColour !== null ? l.givenColour.name : given;
  return <Colour id={id} name={name ?? l.givenColour?.name ?? null} rgb={l.givenColour?.rgb ?? null} />;
}

/** One row; memoised so that scrolling renders only the rows that come into view. */
const Row = memo(function Row({
  l,
  top,
  index,
  selected,
  currency,
  onSelect,
  pictures,
}: {
  l: LineRowView;
  top: number;
  index: number;
  selected: boolean;
  currency: string;
  onSelect(id: number): void;
  /** `later`: the picture's place is kept, and the picture comes with the next drawing. */
  pictures: 'on' | 'later' | 'off';
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      className={`line-row${selected ? ' selected' : ''}${l.placed ? '' : ' unplaced'}`}
      style={{ top, height: ROW_HEIGHT }}
      onClick={() => onSelect(l.id)}
      data-line-id={l.id}
    >
      <span className="c-pos">{l.position}</span>
      {pictures !== 'off' ? (
        <span className="c-pic">
          {pictures === 'on' ? (
            <Picture
              of={
                l.placed ? { item: { type: l.placed.type, no: l.placed.no, colour: l.placed.colour } } : { line: l.id }
              }
              size={ROW_PICTURE}
              label={l.placed ? `${l.placed.type} ${l.placed.no}` : `As given: ${l.given.no ?? l.given.name ?? ''}`}
            />
          ) : null}
        </span>
      ) : null}
      <span className="c-given" title={givenText(l)}>
        {givenText(l)}
      </span>
      <span className="c-colour">
        <GivenColour l={l} />
      </span>
      <span className="c-qty">{count(l.quantity)}</span>
      <span className="c-price">{l.unitPrice === null ? '' : money(l.unitPrice, currency)}</span>
      <span className="c-remarks" title={l.remarks ?? ''}>
        {l.remarks ?? ''}
      </span>
      <span
        className="c-placed"
        title={
          l.placed
            ? `${itemNoText(l.placed.type, l.placed.no, l.placed.shown, l.placed.sharedWith)} ${l.placed.name ?? ''}${l.placed.via ? ` (${l.placed.via})` : ''}`
            : (l.reason?.text ?? '')
        }
      >
        {l.placed ? (
          <>
            <ItemNo
              type={l.placed.type}
              no={l.placed.no}
              shown={l.placed.shown}
              sharedWith={l.placed.sharedWith}
              compact
            />{' '}
            {/* The colour before the name: a long name must never hide it (a wrong colour is seen at a glance). */}
            {l.placed.colour !== null ? (
              <>
                <Colour id={l.placed.colour} name={l.placed.colourName} rgb={l.placed.colourRgb} />{' '}
              </>
            ) : null}
            <span className="item-name">{l.placed.name}</span>
            {l.placed.by === 'hand' ? <em className="tag">by hand</em> : null}
            {l.placed.via ? (
              <em className="tag via" title={`How it was placed: ${l.placed.via}`}>
                {l.placed.via}
              </em>
            ) : null}
          </>
        ) : (
          <span className="reason">{SHORT_REASONS[l.reason?.code ?? ''] ?? l.reason?.text}</span>
        )}
      </span>
    </div>
  );
});

/**
 * The order's line table: only the rows in view (and a few around them) are in the page, so it stays
 * smooth at 10,000 lines and more; the scroll height is the whole list's.
 */
export function LineTable({ lines, currency, selected, onSelect, onKey, pictures }: Props) {
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

  // Keep the selected line in view when the selection moves — not when the lines are read again (another
  // process wrote): that would pull the table back from wherever staff scrolled it.
  const shown = useRef<number | null>(null);
  useEffect(() => {
    const el = viewport.current;
    const index = lines.findIndex((l) => l.id === selected);
    if (!el || index < 0 || shown.current === selected) return;
    shown.current = selected;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [selected, lines]);

  // The lines first, their pictures a moment later: an order opens as fast with pictures as without.
  const [picturesNow, setPicturesNow] = useState(false);
  useEffect(() => {
    if (!pictures || picturesNow) return;
    // After the lines' first frame is drawn.
    let t: ReturnType<typeof setTimeout> | undefined;
    const f = requestAnimationFrame(() => (t = setTimeout(() => setPicturesNow(true), 0)));
    return () => {
      cancelAnimationFrame(f);
      clearTimeout(t);
    };
  }, [pictures, picturesNow]);
  const rowPictures = !pictures ? 'off' : picturesNow ? 'on' : 'later';

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(lines.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const visible = lines.slice(first, last);

  return (
    <div
      className={pictures ? 'line-table with-pictures' : 'line-table'}
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
          <Row
            key={l.id}
            l={l}
            top={(first + i) * ROW_HEIGHT}
            index={first + i}
            selected={l.id === selected}
            currency={currency}
            onSelect={onSelect}
            pictures={rowPictures}
          />
        ))}
      </div>
    </div>
  );
}
