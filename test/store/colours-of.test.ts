import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { coloursOf } from '../../src/store/colours.ts';
import { buildStore, insertColour } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

describe("a page's colours (issue 50 §3: the preview's handler reads them for its view)", () => {
  it('reads each colour once however many lines name it, and leaves out those the catalogue lacks', () => {
    const db = buildStore(path.join(tempDir(), 'brick-work.sqlite'), '4.2');
    insertColour(db, { id: 5, name: 'Red' });
    insertColour(db, { id: 11, name: 'Black' });
    db.prepare('INSERT INTO colour_swatch (colour_id, rgb) VALUES (?, ?)').run(5, 'C91A09');
    const prepare = vi.spyOn(db, 'prepare');

    // A page of 500 lines in two colours, and one colour no catalogue has.
    const ids = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? 5 : 11));
    const colours = coloursOf(db, [...ids, 999, 999]);

    expect([...colours.entries()]).toEqual([
      [5, { id: 5, name: 'Red', rgb: 'C91A09' }],
      [11, { id: 11, name: 'Black', rgb: null }],
    ]);
    expect(prepare).toHaveBeenCalledTimes(3);
    db.close();
  });
});
