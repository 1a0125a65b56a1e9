import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { HistoryStepView } from '../../src/api/contract.ts';
import { since } from '../jobs-words.ts';
import { attempt, useApp } from '../state/app.ts';
import { call } from '../state/call.ts';

/** How many steps the panel lists, newest first. */
const SHOWN = 200;

/** A step's desk in staff's words: this desk, another by its name, or none (made before desks were named). */
function deskOf(step: HistoryStepView, mine: string): string {
  if (step.desk === null) return 'before desks were named';
  return step.desk === mine ? 'this desk' : `the desk "${step.desk}"`;
}

/**
 * The history (SPEC §8): every desk's steps, newest first, each with its desk and whether it is undone —
 * what a desk's Undo and Redo take from (its own), and what a refused Undo names (another desk's step,
 * shown and focused when the panel is opened from that refusal). Read again whenever the store changes.
 */
export function HistoryPanel() {
  const { panel, revision, hide, said } = useApp(
    useShallow((s) => ({ panel: s.historyPanel, revision: s.revision, hide: s.hideHistory, said: s.said })),
  );
  const [read, setRead] = useState<{ steps: readonly HistoryStepView[]; desk: string } | null>(null);
  const named = useRef<HTMLTableRowElement | null>(null);
  const heading = useRef<HTMLHeadingElement | null>(null);
  const open = panel !== null;

  useEffect(() => {
    if (!open) return;
    void attempt(() => call('history.list', { limit: SHOWN })).then((r) => r !== null && setRead(r));
  }, [open, revision]);

  // Focus where the eyes go: the step it was opened to show, else its heading.
  const step = panel?.step ?? null;
  const loaded = read !== null;
  useEffect(() => {
    if (!open || !loaded) return;
    const target = named.current ?? heading.current;
    target?.scrollIntoView({ block: 'nearest' });
    target?.focus();
  }, [open, loaded, step]);

  if (!open) return null;
  return (
    <section
      className="history-panel"
      aria-label="History"
      data-testid="history-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') hide();
      }}
    >
      <div className="toolbar">
        <h2 tabIndex={-1} ref={heading}>
          History
        </h2>
        <span className="muted">
          Every desk's steps, newest first. This desk's Undo and Redo take back and put back its own.
        </span>
        <button onClick={hide} data-testid="history-close">
          Close <kbd>Esc</kbd>
        </button>
      </div>
      {read === null ? (
        <p className="muted">Reading the history…</p>
      ) : read.steps.length === 0 ? (
        <p className="muted">Nothing has been done yet.</p>
      ) : (
        <table className="table compact">
          <thead>
            <tr>
              <th>Step</th>
              <th>What</th>
              <th>Desk</th>
              <th>When</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {read.steps.map((s) => (
              <tr
                key={s.id}
                ref={s.id === step ? named : undefined}
                tabIndex={s.id === step ? -1 : undefined}
                className={s.id === step ? 'named' : undefined}
                data-testid="history-step"
                aria-current={s.id === step ? 'true' : undefined}
              >
                <td>{s.id}</td>
                <td>{s.label}</td>
                <td>{deskOf(s, read.desk)}</td>
                <td>{since(s.createdAt)}</td>
                <td>{s.state === 'undone' ? 'undone' : 'done'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <SaidLately said={said} />
    </section>
  );
}

/** What this window said lately, newest first: a notice gone from the top is still here (issue 64 §2). */
function SaidLately(props: { said: ReturnType<typeof useApp.getState>['said'] }) {
  if (props.said.length === 0) return null;
  return (
    <details className="said-lately" data-testid="said-lately" open>
      <summary>Said lately on this desk ({props.said.length})</summary>
      <ul>
        {props.said.map((s, i) => (
          <li key={`${s.at}-${i}`} className={s.kind === 'error' ? 'error-text' : undefined}>
            <span className="muted">{since(new Date(s.at).toISOString())}</span> {s.text}
          </li>
        ))}
      </ul>
    </details>
  );
}
