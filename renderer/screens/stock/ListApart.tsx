import { count } from '../../format.ts';

/** Lines a pick or put-away list sets apart (unplaced, missing, nothing asked), each with why. */
export function ListApart(props: {
  readonly title: string;
  readonly testId: string;
  readonly lines: readonly {
    readonly line: number;
    readonly where: string;
    readonly what: string;
    readonly quantity: number;
    readonly why: string;
  }[];
}) {
  if (props.lines.length === 0) return null;
  return (
    <div className="list-apart" data-testid={props.testId}>
      <h3>
        {props.title} ({count(props.lines.length)})
      </h3>
      <ul>
        {props.lines.map((l) => (
          <li key={l.line}>
            <span className="muted">{l.where}</span> {l.what} × {count(l.quantity)} —{' '}
            <span className="reason">{l.why}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
