import { useEffect } from 'react';
import { Catalogue } from './screens/Catalogue.tsx';
import { Export } from './screens/Export.tsx';
import { Import } from './screens/Import.tsx';
import { Orders } from './screens/Orders.tsx';
import { Settings } from './screens/Settings.tsx';
import { redoShortcut, undoShortcut } from './shortcuts.ts';
import { readOnlyBanner, useApp, type Screen } from './state/app.ts';
import { useOrders } from './state/orders.ts';

const TABS: [Screen, string][] = [
  ['orders', 'Orders'],
  ['import', 'Import'],
  ['catalogue', 'Catalogue & jobs'],
  ['export', 'Export'],
  ['settings', 'Settings'],
];

export function App() {
  const app = useApp();
  const { screen, history, notice, platform } = app;
  const readOnly = readOnlyBanner(app.store);

  // ⌘Z / ⇧⌘Z (Ctrl on Windows and Linux); text fields keep their own undo.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = platform === 'mac' ? e.metaKey : e.ctrlKey;
      if (!mod || e.key.toLowerCase() !== 'z' || e.target instanceof HTMLInputElement) return;
      e.preventDefault();
      void (e.shiftKey ? useApp.getState().redo() : useApp.getState().undo());
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
                app.go(id);
                if (id === 'orders') useOrders.getState().close();
              }}
            >
              {label}
            </button>
          ))}
        </nav>
        <div className="history">
          <button disabled={!history.undo} onClick={() => void app.undo()} title={undoShortcut(platform)} data-testid="undo">
            {history.undo ? `Undo ${history.undo.label}` : 'Nothing to undo'} <kbd>{undoShortcut(platform)}</kbd>
          </button>
          <button disabled={!history.redo} onClick={() => void app.redo()} title={redoShortcut(platform)} data-testid="redo">
            {history.redo ? `Redo ${history.redo.label}` : 'Nothing to redo'} <kbd>{redoShortcut(platform)}</kbd>
          </button>
        </div>
      </header>
      {readOnly ? (
        <div className="banner read-only" role="status" data-testid="read-only-banner">
          {readOnly}
        </div>
      ) : null}
      {notice ? (
        <div className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="notice">
          {notice.text}
        </div>
      ) : null}
      <main>
        {screen === 'orders' ? <Orders /> : null}
        {screen === 'import' ? <Import /> : null}
        {screen === 'catalogue' ? <Catalogue /> : null}
        {screen === 'export' ? <Export /> : null}
        {screen === 'settings' ? <Settings /> : null}
      </main>
    </div>
  );
}
