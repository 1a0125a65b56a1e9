import { ItemNo } from '../../components/ItemNo.tsx';
import { Fragment } from 'react';
import type { LineRowView } from '../../../src/api/contract.ts';
import { Colour } from '../../components/Colour.tsx';
import { Picture } from '../../components/Picture.tsx';
import { useOrders } from '../../state/orders.ts';

/** What the line's document says of it, whole: what staff compare with the catalogue (SPEC §9). */
function LineDetails({ line }: { line: LineRowView }) {
  const rows: [string, string][] = [];
  const given = line.given;
  if (given.type && given.type !== 'P') rows.push(['Type', given.type]);
  if (given.colourName !== null || (given.colourId !== null && given.colourId !== 0)) {
    // The document's name for it, else the catalogue's (as the line table shows it), with its id.
    const name = given.colourName ?? line.givenColour?.name ?? null;
    rows.push([
      'Colour given',
      [name, given.colourId !== null && given.colourId !== 0 ? `BrickLink id ${given.colourId}` : null]
        .filter(Boolean)
        .join(' · '),
    ]);
  }
  if (line.remarks) rows.push(['Remarks', line.remarks]);
  if (line.placed?.via) rows.push(['Placed through', line.placed.via]);
  if (line.memory && !line.placed) rows.push(['Remembered', line.memory.taught]);
  if (rows.length === 0) return null;
  return (
    <dl className="line-details" data-testid="line-details">
      {rows.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The selected line: what it gives, and why it is unplaced or what it is placed on. */
export function LineSummary({ line }: { line: LineRowView }) {
  return (
    <>
      <h3>
        Line {line.position}: {line.given.no ?? ''} {line.given.name ?? ''}
      </h3>
      <div className="line-pictures" data-testid="line-pictures">
        <figure>
          <Picture of={{ line: line.id }} size={72} label={`As given: ${line.given.no ?? line.given.name ?? ''}`} />
          <figcaption>As given</figcaption>
        </figure>
        {line.placed ? (
          <figure>
            <Picture
              of={{ item: { type: line.placed.type, no: line.placed.no, colour: line.placed.colour } }}
              size={72}
              label={`${line.placed.type} ${line.placed.no}`}
            />
            <figcaption>Placed on</figcaption>
          </figure>
        ) : null}
      </div>
      <LineDetails line={line} />
      {line.reason ? (
        <p className="reason-box" data-testid="reason" data-reason={line.reason.code}>
          {line.reason.text}
        </p>
      ) : (
        <p data-testid="placed-on">
          Placed on{' '}
          {line.placed ? (
            <ItemNo
              type={line.placed.type}
              no={line.placed.no}
              shown={line.placed.shown}
              sharedWith={line.placed.sharedWith}
            />
          ) : null}{' '}
          {line.placed?.name}
          {line.placed?.colour != null ? (
            <>
              {' in '}
              <Colour id={line.placed.colour} name={line.placed.colourName} rgb={line.placed.colourRgb} />
            </>
          ) : null}
          {line.placed?.by === 'hand' ? ' (by hand).' : '.'}
        </p>
      )}
      {line.memory ? <ForgetMemory /> : null}
    </>
  );
}

/** A line placed (or refused) by a remembered hand placement: forgetting it is one key from here (F). */
function ForgetMemory() {
  const forget = useOrders((s) => s.forgetLinesMemory);
  return (
    <p className="memory-actions">
      <button data-testid="forget-memory" aria-keyshortcuts="F" onClick={() => void forget()}>
        Forget this remembered placement (F)
      </button>
    </p>
  );
}
