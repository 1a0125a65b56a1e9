/** Short names of the numberings, for the tables' narrow columns (the full name is in the title). */
const SHORT: Readonly<Record<string, string>> = { Rebrickable: 'RB', BrickLink: 'BL', LDraw: 'LD' };

/** `4073 (Rebrickable 6141)` → the shop's number, whose the catalogue's is, and the catalogue's number. */
function parts(shown: string): { main: string; numbering: string; other: string | null } | null {
  const m = /^(.*) \((\w+)(?: (.+))?\)$/.exec(shown);
  if (m === null || m[1] === undefined || m[2] === undefined) return null;
  return { main: m[1], numbering: m[2], other: m[3] ?? null };
}

/**
 * An item's number as staff read it (SPEC §5): the shop numbering first, in bold, and beside it, muted,
 * the catalogue's where that differs (`4073 (Rebrickable 6141)`) or whose number it is when the shop
 * numbering has none (`3794b (Rebrickable)`). `compact`, for tables and lists: the numbering abbreviated
 * (`4073 RB 6141`, `3794b RB`), its full words on hover. `hideType` leaves out the type P, as lists of parts do.
 */
export function ItemNo(props: {
  type: string;
  no: string;
  shown?: string | undefined;
  hideType?: boolean;
  compact?: boolean;
}) {
  const shown = props.shown ?? props.no;
  const type = props.hideType && props.type === 'P' ? '' : `${props.type} `;
  const p = parts(shown);
  if (p === null)
    return (
      <b>
        {type}
        {shown}
      </b>
    );
  const title =
    p.other === null
      ? `${p.numbering}'s number: no number in the shop's numbering is known for it`
      : `${p.numbering}'s number for it: ${p.other}`;
  const tag = props.compact
    ? `${SHORT[p.numbering] ?? p.numbering}${p.other === null ? '' : ` ${p.other}`}`
    : `(${p.numbering}${p.other === null ? '' : ` ${p.other}`})`;
  return (
    <>
      <b>
        {type}
        {p.main}
      </b>{' '}
      <span className="other-numbering" title={title}>
        {tag}
      </span>
    </>
  );
}

/** The same, as plain text (titles, search keys, notices). */
export function itemNoText(type: string, no: string, shown?: string): string {
  return `${type} ${shown ?? no}`;
}
