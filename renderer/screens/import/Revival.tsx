import type { PreviewDocumentView } from '../../../src/api/contract.ts';
import { count, plural, when } from '../../format.ts';

/** Importing the key of an undone document: when it was imported and undone, and how the lines pair (SPEC §9.3). */
export function Revival({ doc }: { doc: PreviewDocumentView }) {
  const r = doc.revival;
  if (!r) return null;
  const changed = r.pairs.filter((p) => p.changed.length > 0);
  return (
    <div className="revival" data-testid="revival">
      <h4>
        This document was imported on {when(r.importedAt)} and undone on {when(r.undoneAt)}.
      </h4>
      <p>
        Importing it again revives it in its order <b>{doc.target?.reference}</b>: its {plural(r.pairs.length, 'line')}{' '}
        pair by position and are updated in place;{' '}
        {changed.length === 0 ? 'none of them changed.' : `${count(changed.length)} changed:`}
      </p>
      {changed.length > 0 ? (
        <ul className="pairs">
          {changed.slice(0, 50).map((p) => (
            <li key={p.position}>
              line {p.position}: {p.changed.join(', ')}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
