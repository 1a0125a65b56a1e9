import { usePictures } from './state/pictures.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ApiEvents } from '../src/api/contract.ts';
import { App } from './App.tsx';
import { api } from './bridge.ts';
import { dropAnywhere } from './drop-anywhere.ts';
import { followMenuCommand, isTextField } from './menu.ts';
import { useApp } from './state/app.ts';
import { useCatalogue } from './state/catalogue.ts';
import { useCompare } from './state/compare.ts';
import { useImport } from './state/import.ts';
import { useOrders } from './state/orders.ts';
import './styles.css';

// Events from the core: refresh what is on screen, show job progress, follow the app's menu.
api.onEvent((name, payload) => {
  if (name === 'store.changed') useApp.getState().changed((payload as ApiEvents['store.changed']).reason);
  else if (name === 'job.progress') useCatalogue.getState().progress(payload as ApiEvents['job.progress']);
  else if (name === 'import.progress') useImport.getState().onProgress(payload as ApiEvents['import.progress']);
  else if (name === 'compare.progress') useCompare.getState().onProgress(payload as ApiEvents['compare.progress']);
  else if (name === 'pictures.ready') usePictures.getState().onReady();
  else if (name === 'store.waiting') useApp.getState().waitingFor((payload as ApiEvents['store.waiting']).message);
  else if (name === 'suggestions.status') {
    const status = payload as ApiEvents['suggestions.status'];
    if (status.ready) useOrders.getState().suggestionsReady();
    else if (status.why) useOrders.getState().suggestionsUnavailable(status.why.message);
  } else if (name === 'document.opened') {
    const opened = payload as ApiEvents['document.opened'];
    useApp.getState().go('import');
    if (opened.content === null) useApp.getState().say(opened.problem ?? `${opened.name} could not be opened.`);
    else void useImport.getState().open({ name: opened.name, content: opened.content });
  } else if (name === 'menu.command') {
    followMenuCommand((payload as ApiEvents['menu.command']).command, {
      undo: () => useApp.getState().undo(),
      redo: () => useApp.getState().redo(),
      // ⌘O: the Import screen, and the app's own open dialog on it (SPEC §9).
      openDocument: () => {
        useApp.getState().go('import');
        void useImport.getState().pick();
      },
      compareScreen: () => useApp.getState().go('compare'),
      settingsScreen: () => useApp.getState().go('settings'),
      events: window,
      editingText: () => isTextField(document.activeElement as HTMLElement | null),
      // The focused field's own undo history, as the browser's Edit menu uses it (still Chromium's way for this).
      editText: (command) => document.execCommand(command),
    });
  }
});

// A file dropped anywhere on the window: the Import screen's preview (a zone that took the drop keeps it).
dropAnywhere(window, (file) => {
  useApp.getState().go('import');
  void useImport.getState().choose(file);
});

void useApp.getState().start();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
