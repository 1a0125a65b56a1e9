/** A colour as staff read it: a small swatch and its name; the BrickLink id on hover (SPEC §9, issue 10). */
export function Colour({ id, name, rgb }: { id: number | null; name: string | null; rgb: string | null }) {
  if (id === null && name === null) return null;
  const label = name ?? `colour ${id ?? ''}`;
  return (
    <span className="colour" title={id === null ? label : `BrickLink colour ${id}`}>
      <span
        className={`swatch${rgb ? '' : ' none'}`}
        style={rgb ? { background: `#${rgb}` } : undefined}
        aria-hidden="true"
      />
      {label}
    </span>
  );
}
