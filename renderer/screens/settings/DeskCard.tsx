import { useEffect, useState } from 'react';
import type { DeskView } from '../../../src/api/contract.ts';
import { useSettings } from '../../state/settings.ts';

/**
 * This desk (SPEC §8): its name, which every step it makes records; Undo and Redo here take back and put
 * back this desk's steps. The computer's name until given another; where it was given at the start
 * (`--desk` of the browser host), it is shown, not changed here.
 */
export function DeskCard({ view }: { view: DeskView | null }) {
  const rename = useSettings((s) => s.renameDesk);
  const [text, setText] = useState(view?.name ?? '');
  useEffect(() => setText(view?.name ?? ''), [view?.name]);
  if (view === null) return null;
  return (
    <div className="card" data-testid="desk-card">
      <h3>This desk</h3>
      <p className="hint">
        Undo and Redo take back this desk’s own steps; the history shows each step’s desk. Desks on one shop server need
        names of their own.
      </p>
      {view.canChange ? (
        <form
          className="field"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() !== view.name) void rename(text.trim() === '' ? null : text);
          }}
        >
          <label htmlFor="desk-name">
            <span>Name</span>
          </label>
          <input id="desk-name" value={text} maxLength={60} onChange={(e) => setText(e.target.value)} />
          <button type="submit" disabled={text.trim() === view.name}>
            Save
          </button>
          {view.name !== view.computer ? (
            <button type="button" onClick={() => void rename(null)}>
              Use the computer’s name ({view.computer})
            </button>
          ) : null}
        </form>
      ) : (
        <p>
          <strong>{view.name}</strong> —{' '}
          {view.name === view.computer ? (
            <>
              the computer’s name; start the browser host with <code className="nowrap">--desk&nbsp;NAME</code> to give
              it another.
            </>
          ) : (
            <>
              named when it started (<code className="nowrap">--desk</code>).
            </>
          )}
        </p>
      )}
    </div>
  );
}
