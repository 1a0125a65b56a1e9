/** Short names of the numberings, for the tables' narrow columns (the full name is in the title). */
const SHORT: Readonly<Record<string, string>> = { Rebrickable: 'RB', BrickLink: 'BL', LDraw: 'LD' };

/** `4073 (Rebrickable 6141)` → the shop's number, whose the catalogue's is, and the catalogue's number. */
function parts(shown: string): { main: string; numbering: string; other: string | null } | null {
  const m = /^(.*) \((\w+)(?: (.+))?\)$/.exec(shown);
  if (m === null || m[1] === undefined || m[2] === undefined) return null;
  return { main: m[1], numbering: m[2], other: m[3] ?? null };
}

/** Names, at most `max` of them and how many more (`RB 970c03 +38`). */
function fewOf(names: readonly string[], max: number): string {
  return names.length > max ? `${names.slice(0, max).join(', ')} +${names.length - max}` : names.join(', ');
}

/** `Rebrickable 3048c` → `RB 3048c`, for the narrow columns. */
function abbreviated(item: string): string {
  const at = item.indexOf(' ');
  const numbering = at < 0 ? '' : item.slice(0, at);
  return SHORT[numbering] === undefined ? item : `${SHORT[numbering]}${item.slice(at)}`;
}

/**
 * Where the shop's number names other catalogue items too (issue 60 §4): a mark that says so, in warning
 * colour, the items named on hover and to screen readers (`same number as Rebrickable 3048c`; compact:
 * `also RB 3048c`).
 */
function Shared(props: { main: string; sharedWith: readonly string[] | undefined; compact: boolean | undefined }) {
  const others = props.sharedWith ?? [];
  if (others.length === 0) return null;
  const title = `${props.main} is also ${fewOf(others, 10)}: the shop's numbering does not tell them apart`;
  return (
    <>
      {' '}
      <span className="shared-number" title={title} aria-label={title}>
        {props.compact ? `also ${fewOf(others.map(abbreviated), 1)}` : `same number as ${fewOf(others, 3)}`}
      </span>
    </>
  );
}

/**
 * An item's number as staff read it (SPEC §5): the shop numbering first, in bold, and beside it, muted,
 * the catalogue's where that differs (`4073 (Rebrickable 6141)`) or whose number it is when the shop
 * numbering has none (`3794b (Rebrickable)`). `compact`, for tables and lists: the numbering abbreviated
 * (`4073 RB 6141`, `3794b RB`), its full words on hover. `hideType` leaves out the type P, as lists of parts do.
 * `sharedWith`: the other catalogue items the shop's number names too, marked beside it.
 */
export function ItemNo(props: {
  type: string;
  no: string;
  shown?: string | undefined;
  sharedWith?: readonly string[] | undefined;
  hideType?: boolean;
  compact?: boolean;
}) {
  const shown = props.shown ?? props.no;
  const type = props.hideType && props.type === 'P' ? '' : `${props.type} `;
  const p = parts(shown);
  if (p === null)
    return (
      <>
        <b>
          {type}
          {shown}
        </b>
        <Shared main={shown} sharedWith={props.sharedWith} compact={props.compact} />
      </>
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
      <Shared main={p.main} sharedWith={props.sharedWith} compact={props.compact} />
    </>
  );
}

/** The same, as plain text (titles, search keys, notices). */
export function itemNoText(type: string, no: string, shown?: string, sharedWith?: readonly string[]): string {
  const others = sharedWith ?? [];
  return `${type} ${shown ?? no}${others.length === 0 ? '' : ` [same number as ${fewOf(others, 3)}]`}`;
}
