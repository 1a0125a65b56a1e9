/** The items of a pick or put-away list's lines as staff read them (SPEC §16): one way for both lists. */
import { numberedSavedLine, type NumberedLine } from '../../catalogue/item-numbers.ts';
import type { LineView } from '../../store/lines.ts';
import type { StockItemView } from '../contract.ts';
import type { ReadDeps } from './define.ts';

/**
 * Each placed line's item: its number in the shop numbering (one `numberShower` for all the lines), the
 * catalogue's name, and its colour named — the catalogue's name, the document's where the catalogue has
 * no colours, else its id.
 */
export function stockItemViews(d: ReadDeps, lines: ReadonlyMap<number, LineView>): (line: number) => StockItemView {
  const numbered = new Map<number, NumberedLine>();
  for (const l of lines.values()) {
    const n = numberedSavedLine(l);
    if (n !== null) numbered.set(l.id, n);
  }
  const shown = d.numberShower([...numbered.values()]);
  return (line) => {
    const l = lines.get(line);
    const n = numbered.get(line);
    const p = l?.placed;
    if (l === undefined || p == null || n === undefined)
      throw new Error(`line ${line} is not a placed line of the order`);
    const colourName =
      p.colourName ??
      (p.colour !== null && p.colour === l.given.colourId ? l.given.colourName : null) ??
      `colour ${p.colour}`;
    return {
      type: p.type,
      no: p.no,
      shown: shown(n).shown,
      name: p.name,
      colour: p.colour === null ? null : { id: p.colour, name: colourName },
    };
  };
}
