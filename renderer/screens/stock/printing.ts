import type { PrintableView } from '../../../src/api/contract.ts';

/**
 * Prints `html` from a hidden frame (its `srcdoc`, then its window's print()): the browser host's way,
 * the browser's own printing. (The app prints through its own printing instead: the core answers `printed`.)
 * The frame goes once the print dialog has closed.
 */
export function printHtml(html: string): void {
  const frame = document.createElement('iframe');
  frame.className = 'print-frame';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.dataset['testid'] = 'print-frame';
  // Where the worker was (the Print button): the focus goes back there once the dialog has closed.
  const back = document.activeElement;
  frame.onload = () => {
    const w = frame.contentWindow;
    if (w === null) return;
    w.focus();
    w.print();
    if (back instanceof HTMLElement && back.isConnected) back.focus();
    // print() returns once the dialog is closed (or at once where printing is done elsewhere): kept a
    // while for the latter, then gone.
    setTimeout(() => frame.remove(), 60_000);
  };
  frame.srcdoc = html;
  document.body.append(frame);
}

/**
 * What the screen says of a print, and in the browser host the page's printing of it: the app has printed
 * it already through its own printing (answered once its dialog closed), and gives no page back.
 */
export function printedWords(page: PrintableView, print: (html: string) => void = printHtml): string {
  const what = page.name.replace(/\.html$/, '');
  if (page.printed === 'printed') return `Sent the ${what} to the printer.`;
  if (page.printed === 'cancelled') return `Printing cancelled: the ${what} was not printed.`;
  print(page.html);
  return `Printing the ${what}.`;
}
