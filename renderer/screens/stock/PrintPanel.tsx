import { useState } from 'react';
import { attempt, useApp } from '../../state/app.ts';
import { call } from '../../state/call.ts';
import { deliver } from '../../state/exports.ts';
import { printedWords } from './printing.ts';

/** A4 where the desktop's language is not US English; Letter there. */
const DEFAULT_PAPER = /^en-US$/i.test(navigator.language) ? 'letter' : 'a4';

/** Print: paper, orientation and pictures chosen, then the pick list on paper in walking order. */
export function PrintPanel({ orderId }: { orderId: number }) {
  const [paper, setPaper] = useState<'a4' | 'letter'>(DEFAULT_PAPER);
  const [orientation, setOrientation] = useState<'portrait' | 'landscape'>('portrait');
  const [pictures, setPictures] = useState(true);
  const [busy, setBusy] = useState(false);
  const print = async () => {
    // Not disabled meanwhile (a disabled button drops the focus): a second press waits for the first.
    if (busy) return;
    setBusy(true);
    try {
      const page = await attempt(() => call('pick.printable', { orderId, paper, orientation, pictures }));
      if (page === null) return;
      useApp.getState().say(printedWords(page));
    } finally {
      setBusy(false);
    }
  };
  // The same list as CSV, as every export goes: the app's save dialog, or the page's download.
  const saveCsv = async () => {
    const file = await attempt(() => call('pick.file', { orderId, as: 'csv' }));
    if (file !== null) deliver(file);
  };
  return (
    <span className="print-panel" data-testid="print-panel">
      <select aria-label="Paper" value={paper} onChange={(e) => setPaper(e.target.value as 'a4' | 'letter')}>
        <option value="a4">A4</option>
        <option value="letter">Letter</option>
      </select>
      <select
        aria-label="Orientation"
        value={orientation}
        onChange={(e) => setOrientation(e.target.value as 'portrait' | 'landscape')}
      >
        <option value="portrait">portrait</option>
        <option value="landscape">landscape</option>
      </select>
      <label className="check">
        <input type="checkbox" checked={pictures} onChange={(e) => setPictures(e.target.checked)} /> pictures
      </label>
      <button
        data-testid="pick-print"
        aria-busy={busy}
        title="The pick list on paper, in walking order, with a box to tick for each lot"
        onClick={() => void print()}
      >
        Print the pick list…
      </button>
      <button data-testid="pick-csv" onClick={() => void saveCsv()}>
        Save as CSV
      </button>
    </span>
  );
}
