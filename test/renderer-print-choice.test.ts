import { describe, expect, it } from 'vitest';

// The picking screen's Print (issue 65): where the app has printed through its own printing the page prints
// nothing; only in the browser host (no such printing: `printed` null) does the page print the HTML itself.
// Named by a variable: the screens' modules are type-checked with the screens (tsconfig.web.json), not here.
const PRINTING = '../renderer/screens/stock/printing.ts';
const { printedWords } = (await import(PRINTING)) as {
  printedWords(
    page: { name: string; html: string; printed: 'printed' | 'cancelled' | null },
    print: (html: string) => void,
  ): string;
};

describe('Print on the picking screen', () => {
  it('the app printed it: said, and the page prints nothing', () => {
    const pagePrinted: string[] = [];
    const print = (html: string) => void pagePrinted.push(html);
    expect(printedWords({ name: 'pick list 1234.html', html: '', printed: 'printed' }, print)).toBe(
      'Sent the pick list 1234 to the printer.',
    );
    expect(printedWords({ name: 'pick list 1234.html', html: '', printed: 'cancelled' }, print)).toBe(
      'Printing cancelled: the pick list 1234 was not printed.',
    );
    expect(pagePrinted).toEqual([]);
  });

  it('the browser host: the page prints the HTML given back', () => {
    const pagePrinted: string[] = [];
    const words = printedWords({ name: 'pick list 1234.html', html: '<p>list</p>', printed: null }, (html) =>
      pagePrinted.push(html),
    );
    expect(words).toBe('Printing the pick list 1234.');
    expect(pagePrinted).toEqual(['<p>list</p>']);
  });
});
