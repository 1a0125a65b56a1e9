import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Catalogue } from './screens/Catalogue.tsx';
import { Compare } from './screens/Compare.tsx';
import { Export } from './screens/Export.tsx';
import { Import } from './screens/Import.tsx';
import { Orders } from './screens/Orders.tsx';
import { Settings } from './screens/Settings.tsx';
import { HistoryPanel } from './components/HistoryPanel.tsx';
import { historyCommand, isOpenShortcut, redoShortcut, undoShortcut } from './shortcuts.ts';
import { openFilePicker } from './components/FilePicker.tsx';
import { useApp, type Screen } from './state/app.ts';
import { READ_ONLY_TITLE, readOnlyBanner } from './store-banner.ts';
import { useOrders } from './state/orders.ts';
import { usePick } from './state/pick.ts';
import { usePutAway } from './state/put-away.ts';
import { count } from './format.ts';
import type { JobOrderLines } from '../src/api/contract.ts';

/** Opens an order from a note about its lines: on its unplaced lines when some were unplaced. */
async function openOrderLines(orderId: number, unplacedOnly: boolean): Promise<void> {
  useApp.getState().go('orders', 'app');
  const orders = useOrders.getState();
  useOrders.setState({ unplacedOnly });
  await orders.open(orderId, 'app');
}

/**
 * The orders a notice speaks of, each a link to its lines. Many (a file of a year's orders) fold into one
 * "Open an order" list, so that the notice stays one line.
 */
function NoticeOrders(props: { orders: readonly JobOrderLines[] }) {
  const links = props.orders.map((o) => (
    <button
      key={o.orderId}
      className="link"
      data-testid="notice-order"
      onClick={() => void openOrderLines(o.orderId, o.unplaced > 0)}
    >
      {`Order ${o.reference}: ${[
        o.placed > 0 ? `${count(o.placed)} placed` : '',
        o.unplaced > 0 ? `${count(o.unplaced)} unplaced` : '',
      ]
        .filter(Boolean)
        .join(', ')}`}
    </button>
  ));
  if (links.length <= 3) return <>{links}</>;
  return (
    <details className="notice-orders" data-testid="notice-orders">
      <summary>Open an order ({count(links.length)})</summary>
      <div className="notice-orders-list">{links}</div>
    </details>
  );
}

/** The last thing said, with a way to close it (it also goes a few seconds after staff's next action). */
function Notice({
  notice,
  showHistory,
}: {
  notice: NonNullable<ReturnType<typeof useApp.getState>['notice']>;
  showHistory: (step?: number) => void;
}) {
  return (
    <div className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="notice">
      {notice.text}
      {notice.step !== undefined ? (
        // A refusal naming another desk's step (SPEC §8): shown where it is, in the history.
        <button className="link" onClick={() => showHistory(notice.step)} data-testid="notice-show-step">
          Show step {notice.step} in the history
        </button>
      ) : null}
      <NoticeOrders orders={notice.orders ?? []} />
      <button
        className="link notice-dismiss"
        onClick={() => useApp.getState().dismissNotice()}
        aria-label="Dismiss this notice"
        data-testid="notice-dismiss"
      />
    </div>
  );
}

const TABS: [Screen, string][] = [
  ['orders', 'Orders'],
  ['import', 'Import'],
  ['compare', 'Compare'],
  ['catalogue', 'Catalogue & jobs'],
  ['export', 'Export'],
  ['settings', 'Settings'],
];

/**
 * Undo or Redo in the header, naming the step it takes (SPEC §9). Both write: on a store that can't be
 * written they are off, and say why when pointed at.
 */
function HistoryButton(props: {
  readonly verb: 'Undo' | 'Redo';
  readonly step: { readonly label: string; readonly desk?: string | null } | null | undefined;
  readonly shortcut: string;
  readonly readOnly: boolean;
  readonly onClick: () => void;
}) {
  const { verb, step, shortcut } = props;
  const text = step ? `${verb} ${step.label}` : `Nothing to ${verb.toLowerCase()}`;
  // Each desk undoes its own steps (SPEC §8): the step's desk is named where the label has no room.
  const desk = step?.desk ? ` — a step of this desk, "${step.desk}"` : '';
  return (
    <button
      disabled={!step || props.readOnly}
      onClick={props.onClick}
      title={props.readOnly ? READ_ONLY_TITLE : step ? `${text}${desk} (${shortcut})` : shortcut}
      aria-label={text}
      data-testid={verb.toLowerCase()}
    >
      {text} <kbd>{shortcut}</kbd>
    </button>
  );
}

/** What a write waits for (issue 61 §3): said until its answer comes; the screen changes nothing meanwhile. */
function WaitingLine() {
  const waiting = useApp((s) => s.waiting);
  if (waiting === null) return null;
  return (
    <div className="notice info" role="status" aria-live="polite" data-testid="waiting">
      {waiting.message}
    </div>
  );
}

export function App() {
  const { screen, history, notice, platform, store, go, undo, redo, historyPanel, showHistory, hideHistory } = useApp(
    useShallow((s) => ({
      screen: s.screen,
      history: s.history,
      notice: s.notice,
      historyPanel: s.historyPanel,
      showHistory: s.showHistory,
      hideHistory: s.hideHistory,
      platform: s.platform,
      store: s.store,
      go: s.go,
      undo: s.undo,
      redo: s.redo,
    })),
  );
  const readOnly = readOnlyBanner(store);

  // ⌘Z / ⇧⌘Z (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y on Windows and Linux); text fields keep their own undo.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Ctrl+O (⌘O) in the browser host; the app's menu has its own, with the app's file dialog.
      if (!window.brickWork && isOpenShortcut(e, platform)) {
        e.preventDefault();
        openFilePicker(() => useApp.getState().go('import'));
        return;
      }
      const command = historyCommand(e, platform);
      if (command === null || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      e.preventDefault();
      void (command === 'redo' ? useApp.getState().redo() : useApp.getState().undo());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [platform]);

  return (
    <div className="app">
      <header className="top">
        <h1>brick-work</h1>
        <nav aria-label="Screens">
          {TABS.map(([id, label]) => (
            <button
              key={id}
              className={screen === id ? 'tab active' : 'tab'}
              aria-current={screen === id ? 'page' : undefined}
              onClick={() => {
                go(id);
                if (id === 'orders') {
                  useOrders.getState().close();
                  usePick.getState().close();
                  usePutAway.getState().close();
                }
              }}
            >
              {label}
            </button>
          ))}
        </nav>
        <div className="history">
          <HistoryButton
            verb="Undo"
            step={history.undo}
            shortcut={undoShortcut(platform)}
            readOnly={readOnly !== null}
            onClick={() => void undo()}
          />
          <HistoryButton
            verb="Redo"
            step={history.redo}
            shortcut={redoShortcut(platform)}
            readOnly={readOnly !== null}
            onClick={() => void redo()}
          />
          <button
            onClick={() => (historyPanel === null ? showHistory() : hideHistory())}
            aria-expanded={historyPanel !== null}
            className="history-open"
            data-testid="history-open"
            title="Every desk's steps, newest first"
          >
            History
          </button>
        </div>
      </header>
      {readOnly ? (
        <div className="banner read-only" role="status" data-testid="read-only-banner">
          {readOnly}
        </div>
      ) : null}
      <WaitingLine />
      {notice ? <Notice notice={notice} showHistory={showHistory} /> : null}
      <HistoryPanel />
      <main tabIndex={-1}>
        {screen === 'orders' ? <Orders /> : null}
        {screen === 'import' ? <Import /> : null}
        {screen === 'compare' ? <Compare /> : null}
        {screen === 'catalogue' ? <Catalogue /> : null}
        {screen === 'export' ? <Export /> : null}
        {screen === 'settings' ? <Settings /> : null}
      </main>
    </div>
  );
}
