import { describe, expect, it } from 'vitest';

// Imported by name at run time: web code (DOM types), outside the Node type-check.
const DROP = '../renderer/drop-anywhere.ts';
const { dropAnywhere } = (await import(DROP)) as {
  dropAnywhere(target: EventTarget, open: (file: unknown) => void): () => void;
};

/** A drag event as the browser makes it: its types, its files, and a default that a zone may have prevented. */
function dragEvent(type: string, files: unknown[], takenByZone = false) {
  const event = new Event(type, { cancelable: true });
  Object.assign(event, {
    dataTransfer: { types: files.length > 0 ? ['Files'] : ['text/plain'], files, dropEffect: 'none' },
  });
  if (takenByZone) event.preventDefault();
  return event as Event & { dataTransfer: { dropEffect: string } };
}

describe('a document dropped anywhere on the window (issue 44)', () => {
  it('goes to the import preview; a drop a zone took, or of no file, is left alone; the window never shows the file', () => {
    const window = new EventTarget();
    const opened: unknown[] = [];
    const stop = dropAnywhere(window, (f) => opened.push(f));
    const file = { name: 'Falcon.bsx' };

    const over = dragEvent('dragover', [file]);
    window.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true); // the page takes the drop: the window does not open the file
    expect(over.dataTransfer.dropEffect).toBe('copy');
    const drop = dragEvent('drop', [file, { name: 'second.csv' }]);
    window.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(opened).toEqual([file]);

    window.dispatchEvent(dragEvent('drop', [{ name: 'zone.bsx' }], true)); // the Import screen's zone had it
    window.dispatchEvent(dragEvent('drop', [])); // dragged text
    const text = dragEvent('dragover', []);
    window.dispatchEvent(text);
    expect(text.defaultPrevented).toBe(false);
    expect(opened).toEqual([file]);

    stop();
    window.dispatchEvent(dragEvent('drop', [file]));
    expect(opened).toHaveLength(1);
  });
});
