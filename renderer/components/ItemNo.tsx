/**
 * An item's number as staff read it (SPEC §5): the shop numbering first, and, muted beside it, the
 * catalogue's where that differs (`4073 (Rebrickable 6141)`) or whose number it is (`3794b (Rebrickable)`).
 * `hideType` leaves out the type P, as lists of parts do.
 */
export function ItemNo(props: { type: string; no: string; shown?: string | undefined; hideType?: boolean }) {
  const shown = props.shown ?? props.no;
  const at = shown.indexOf(' (');
  const type = props.hideType && props.type === 'P' ? '' : `${props.type} `;
  if (at < 0)
    return (
      <>
        {type}
        {shown}
      </>
    );
  return (
    <>
      {type}
      {shown.slice(0, at)} <span className="other-numbering">{shown.slice(at + 1)}</span>
    </>
  );
}

/** The same, as plain text (titles, search keys, notices). */
export function itemNoText(type: string, no: string, shown?: string): string {
  return `${type} ${shown ?? no}`;
}
