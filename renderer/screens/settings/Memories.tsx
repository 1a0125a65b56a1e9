import { ItemNo } from '../../components/ItemNo.tsx';
import type { ReactNode } from 'react';
import { Picture } from '../../components/Picture.tsx';
import { useSettings } from '../../state/settings.ts';

/** A remembered item: its picture, number and name. */
function ItemWithPicture({
  item,
}: {
  item: { type: string; no: string; name: string | null; shown?: string; sharedWith?: readonly string[] };
}) {
  return (
    <>
      <Picture
        of={{ item: { type: item.type, no: item.no, colour: null } }}
        size={28}
        label={`${item.type} ${item.no}`}
      />
      {/* In the shop numbering first, as every other screen shows a number (issue 64 §3). */}
      <ItemNo type={item.type} no={item.no} shown={item.shown} sharedWith={item.sharedWith} compact /> {item.name ?? ''}
    </>
  );
}

interface MemoryRow {
  readonly id: number;
  readonly given: ReactNode;
  readonly placed: ReactNode;
  readonly placedTitle?: string;
  readonly createdAt: string;
}

/** One kind of memory (SPEC §8): what it maps, since when, and a Forget for each. */
function MemoryTable(props: {
  title: string;
  hint: string;
  empty: string;
  label: string;
  headers: readonly [string, string];
  rows: readonly MemoryRow[];
  forget: (id: number) => void;
}) {
  return (
    <>
      <h3>{props.title}</h3>
      <p className="hint">{props.hint}</p>
      {props.rows.length === 0 ? (
        <p className="empty">{props.empty}</p>
      ) : (
        <table className="table" aria-label={props.label}>
          <thead>
            <tr>
              <th>{props.headers[0]}</th>
              <th>{props.headers[1]}</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {props.rows.map((r) => (
              <tr key={r.id}>
                <td>{r.given}</td>
                <td {...(r.placedTitle ? { title: r.placedTitle } : {})}>{r.placed}</td>
                <td>{r.createdAt.slice(0, 10)}</td>
                <td>
                  <button onClick={() => props.forget(r.id)}>Forget</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** What brick-work remembers from staff's hand placements: items, colours and names taught — each forgettable. */
export function Memories() {
  const placements = useSettings((s) => s.placements);
  const forget = useSettings((s) => s.forget);
  return (
    <>
      <MemoryTable
        title="Remembered hand placements"
        hint="Placing a line by hand remembers its item for the number (or name) it gives; each line keeps its own colour."
        empty="None yet: placing a line by hand remembers it for later imports."
        label="Remembered placements"
        headers={['Given', 'Placed on']}
        rows={placements.items.map((p) => ({
          id: p.id,
          given: `${p.given.type} ${p.given.no ?? `“${p.given.name ?? ''}”`}`,
          placed: <ItemWithPicture item={p.item} />,
          createdAt: p.createdAt,
        }))}
        forget={(id) => {
          const item = placements.items.find((p) => p.id === id)?.item;
          void forget('item', id, item && { type: item.type, no: item.no });
        }}
      />
      <MemoryTable
        title="Remembered colours"
        hint="When a line gives a colour the catalogue does not know and you choose one for it, lines giving that same colour get it too."
        empty="None yet."
        label="Remembered colours"
        headers={['Given colour', 'Placed as']}
        rows={placements.colours.map((p) => ({
          id: p.id,
          given:
            p.given.numbering === 'bricklink-id'
              ? `BrickLink colour ${p.given.colourId ?? ''}`
              : `“${p.given.name ?? ''}”`,
          placed: p.colour.name ?? `colour ${p.colour.id}`,
          placedTitle: `colour ${p.colour.id}`,
          createdAt: p.createdAt,
        }))}
        forget={(id) => {
          const colour = placements.colours.find((c) => c.id === id)?.colour;
          void forget('colour', id, colour && { colourId: colour.id });
        }}
      />
      <MemoryTable
        title="Names taught"
        hint="When a line placed by hand names its part differently from the catalogue, suggestions find the part by that name too."
        empty="None yet."
        label="Names taught"
        headers={['Name', 'Finds']}
        rows={placements.names.map((p) => ({
          id: p.id,
          given: `“${p.name}”`,
          placed: <ItemWithPicture item={p.item} />,
          createdAt: p.createdAt,
        }))}
        forget={(id) => {
          const item = placements.names.find((n) => n.id === id)?.item;
          void forget('name', id, item && { type: item.type, no: item.no });
        }}
      />
    </>
  );
}
