import { Picture } from '../../components/Picture.tsx';
import { ItemNo } from '../../components/ItemNo.tsx';
import type { KeyboardEvent, RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LineRowView, SuggestionView } from '../../../src/api/contract.ts';
import { markedPieces } from '../../desk.ts';
import { useOrders, type ShownOptions } from '../../state/orders.ts';
import { nextUnplacedKey } from './line-keys.ts';
import { READ_ONLY_TITLE } from '../../store-banner.ts';

/** How a related part is related to the line's number, in a worker's words. */
const RELATED_WORDS: Readonly<Record<NonNullable<SuggestionView['related']>, string>> = {
  element: 'the part this LEGO element is',
  numbering: 'the same part in another numbering',
  alternate: 'an alternate',
  mould: 'another mould',
  plain: 'the plain part of this print',
  print: 'a print of it',
};

const RULE_NAMES: Readonly<Record<SuggestionView['rule'], string>> = {
  related: 'Related to its number',
  prefix: 'Longest prefix',
  words: 'All words',
  close: 'Closest names',
  number: 'By number',
};

/** While there are no suggestions yet: being prepared, or, when the core could not prepare them, why. */
function preparingWords(unavailable: string | null): string {
  return unavailable === null ? 'Preparing suggestions…' : `No suggestions for now: ${unavailable}`;
}

/** What the list says when it has nothing to show. */
function emptyWords(
  line: LineRowView,
  shown: ShownOptions,
  o: { query: string; preparing: boolean; unavailable: string | null; suggesting: boolean },
): string {
  if (shown.mode === 'search')
    return shown.current
      ? `Nothing in the catalogue matches “${o.query.trim()}”.`
      : o.preparing
        ? preparingWords(o.unavailable)
        : 'Searching the catalogue…';
  if (o.preparing && !line.placed) return preparingWords(o.unavailable);
  if (o.suggesting) return 'Looking for suggestions…';
  return line.placed
    ? 'Search the catalogue to place it elsewhere.'
    : 'No suggestions: search the catalogue by name or number.';
}

/**
 * The suggestions of the selected line, by rule, or the search's results (SPEC §7, §9): ↑/↓ move, Enter
 * (or a click) places the line on the highlighted one, Esc or ← go back to the line table.
 */
export function SuggestionList(props: {
  line: LineRowView;
  shown: ShownOptions;
  hidden: boolean;
  /** The store can't be written: the list is there to look at; Enter and clicks place nothing. */
  readOnly: boolean;
  list: RefObject<HTMLOListElement | null>;
  place: (s: SuggestionView) => void;
  placeHighlighted: () => void;
  back: () => void;
  /** The lines as the table shows them: N / Shift+N go to the next or previous unplaced one from here too. */
  lines: readonly LineRowView[];
}) {
  const { line, shown } = props;
  const o = useOrders(
    useShallow((s) => ({
      highlighted: s.highlighted,
      highlight: s.highlight,
      query: s.search.query,
      preparing: s.preparing,
      unavailable: s.unavailable,
      suggesting: s.suggesting,
    })),
  );
  const onKey = (e: KeyboardEvent<HTMLOListElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      o.highlight(Math.max(0, Math.min(shown.items.length - 1, o.highlighted + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      props.placeHighlighted();
    } else if (e.key === 'Escape' || e.key === 'ArrowLeft') {
      e.preventDefault();
      props.back();
    } else if (nextUnplacedKey(e, props.lines)) {
      // The next line's suggestions come into this list, which keeps the focus.
      o.highlight(0);
    }
  };
  return (
    <ol
      hidden={props.hidden}
      className="suggestions"
      tabIndex={0}
      ref={props.list}
      onKeyDown={onKey}
      aria-label={shown.mode === 'search' ? 'Search results' : 'Suggestions'}
      data-testid="suggestions"
      data-current={shown.current}
    >
      {shown.items.map((s, i) => (
        <li
          key={`${s.type}${s.no}`}
          className={i === o.highlighted ? 'highlighted' : ''}
          aria-selected={i === o.highlighted}
          aria-disabled={props.readOnly || undefined}
          title={props.readOnly ? READ_ONLY_TITLE : undefined}
          onClick={() => {
            o.highlight(i);
            props.place(s);
          }}
        >
          {(i === 0 || shown.items[i - 1]?.rule !== s.rule) && shown.mode === 'suggestions' ? (
            <span className="group">{RULE_NAMES[s.rule]}</span>
          ) : null}
          <Picture
            of={{ item: { type: s.type, no: s.no, colour: s.pictureColour ?? null } }}
            size={36}
            label={`${s.type} ${s.no}`}
            {...(s.notMadeIn === undefined ? {} : { usual: `its usual picture: it is not made in ${s.notMadeIn}` })}
          />
          <ItemNo type={s.type} no={s.no} shown={s.shown} sharedWith={s.sharedWith} compact />{' '}
          {markedPieces(s.name, s.marks).map((p, k) =>
            p.marked ? <mark key={k}>{p.text}</mark> : <span key={k}>{p.text}</span>,
          )}
          {s.related !== undefined ? <span className="via"> — {RELATED_WORDS[s.related]}</span> : null}
          {s.via === 'taught' ? <span className="via"> — by the name “{s.taughtName}” you taught it</span> : null}
        </li>
      ))}
      {shown.items.length === 0 ? (
        <li className="empty" data-testid="no-options">
          {emptyWords(line, shown, o)}
        </li>
      ) : null}
    </ol>
  );
}
