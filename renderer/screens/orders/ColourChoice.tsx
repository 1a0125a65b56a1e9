import type { KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LineRowView } from '../../../src/api/contract.ts';
import { useOrders } from '../../state/orders.ts';
import { READ_ONLY_TITLE } from '../../store-banner.ts';

/** The catalogue's colours to choose a line's colour from; `none` names the choice of no colour of its own. */
function ColourSelect(props: {
  label: string;
  testId: string;
  none: string;
  colours: readonly { id: number; name: string }[];
  value: number | null;
  onChange: (id: number | null) => void;
  onKeyDown?: (e: KeyboardEvent<HTMLSelectElement>) => void;
}) {
  return (
    <label className="field colour-choice">
      <span>Colour</span>
      <select
        aria-label={props.label}
        data-testid={props.testId}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value === '' ? null : Number(e.target.value))}
        {...(props.onKeyDown ? { onKeyDown: props.onKeyDown } : {})}
      >
        <option value="">{props.none}</option>
        {props.colours.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The colour to place the selected line in. A line unplaced only for its colour keeps the item the rule
 * found (`ownItem`): staff choose its colour and press Enter; otherwise an optional colour for the placement.
 */
export function ColourChoice(props: {
  line: LineRowView;
  ownItem: NonNullable<LineRowView['itemFound']> | null;
  placeInColour: () => void;
  leave: () => void;
  /** The store can't be written: the colour can be looked at, not placed. */
  readOnly: boolean;
}) {
  const { line, ownItem } = props;
  const { colours, colourChoice, chooseColour, changeItem } = useOrders(
    useShallow((s) => ({
      colours: s.colours,
      colourChoice: s.colourChoice,
      chooseColour: s.chooseColour,
      changeItem: s.changeItem,
    })),
  );
  const unknownColour = `Choose a colour for ${line.given.colourName ?? `colour ${line.given.colourId ?? ''}`}`;
  if (ownItem !== null)
    return (
      <div className="own-item" data-testid="own-item">
        <p>
          Its item:{' '}
          <b>
            {ownItem.type} {ownItem.no}
          </b>{' '}
          {ownItem.name ?? ''}. Choose the colour it is in, then press Enter.
        </p>
        <ColourSelect
          label={`Colour of line ${line.position}`}
          testId="colour-for-item"
          none={unknownColour}
          colours={colours}
          value={colourChoice}
          onChange={chooseColour}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              props.placeInColour();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              props.leave();
            }
          }}
        />
        <div className="row">
          <button
            data-testid="place-in-colour"
            disabled={colourChoice === null || props.readOnly}
            title={props.readOnly ? READ_ONLY_TITLE : undefined}
            onClick={props.placeInColour}
          >
            Place on {ownItem.type} {ownItem.no} in this colour
          </button>
          <button data-testid="change-item" onClick={() => changeItem(true)}>
            Place on another item…
          </button>
        </div>
      </div>
    );
  if (colours.length === 0) return null;
  return (
    <ColourSelect
      label="Colour to place it in"
      testId="colour-choice"
      none={
        line.reason?.code === 'colour-not-in-catalogue'
          ? unknownColour
          : `Its own colour (${line.given.colourName ?? line.givenColour?.name ?? (line.given.colourId ? `colour ${line.given.colourId}` : 'none')})`
      }
      colours={colours}
      value={colourChoice}
      onChange={chooseColour}
    />
  );
}
