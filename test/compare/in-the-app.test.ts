import { describe, expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { ApiEvents, CompareRowView, CompareView, Result } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { COMPARE_GROUPS } from '../../src/vocabulary/compare-kinds.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { csv, file } from '../helpers/documents.ts';
import { insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';

const HEADER = ['number', 'name', 'color id', 'quantity', 'price'];

/** `n` lots of parts the catalogue has (`10000` + i), in Red, and one in seven of a number it lacks. */
function list(name: string, n: number, change: (i: number) => number = () => 0) {
  return file(
    name,
    csv(
      HEADER,
      Array.from({ length: n }, (_, i) => [
        i % 7 === 0 ? `x${i}` : `${10000 + i}`,
        'Brick',
        5,
        Math.max(0, 1 + (i % 13) + change(i)),
        '0.10',
      ]),
    ),
  );
}

// Issue 28 in the app's own shape (real worker threads): the screen's first page and the rest page by
// page, progress while a file side is read, and an export offered through the app's save dialog.
describe('compare in the app', () => {
  it('answers counts with the first rows, gives the rest by page, tells progress, and saves an export through the dialog', async () => {
    const { db, dbPath } = await storeWithCatalogue();
    for (let i = 0; i < 3000; i++) insertItem(db, { no: `${10000 + i}`, name: `Part ${i}` });
    const [imported] = confirmImport(writeSession(db), { file: list('ordered.csv', 3000) }, SYSTEM_CLOCK);
    if (!imported) throw new Error('not imported');
    const progress: ApiEvents['compare.progress'][] = [];
    const saved: { name: string; content: string }[] = [];
    const core = await startCore({
      storePath: dbPath,
      workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
      credentials: { encrypted: false, get: () => null, set: () => {} },
      files: {
        pick: () => Promise.resolve(null),
        save: (name, content) => {
          saved.push({ name, content });
          return Promise.resolve(`/saved/${name}`);
        },
      },
      emit: (name, payload) => {
        if (name === 'compare.progress') progress.push(payload as ApiEvents['compare.progress']);
      },
      log: () => {},
    });
    onTestFinished(() => core.close());
    const call = <T>(name: string, args: unknown) => core.service.call(name, args) as Promise<Result<T>>;
    const ok = async <T>(r: Promise<Result<T>>): Promise<T> => {
      const a = await r;
      if (!a.ok) throw new Error(`${a.error.code}: ${a.error.message}`);
      return a.value;
    };

    const sides = {
      left: { kind: 'order', orderId: imported.order.id },
      right: { kind: 'file', file: list('arrived.csv', 3000, (i) => (i % 4 === 0 ? -1 : i % 9 === 0 ? 2 : 0)) },
    };
    const all = await ok(call<CompareView>('compare.run', sides));
    const first = await ok(call<CompareView>('compare.run', { ...sides, first: 25 }));
    // The screen hides the lines that agree at first: their rows come when asked, their count at once.
    const hidden = await ok(call<CompareView>('compare.run', { ...sides, first: 25, sameFirst: 0 }));
    expect(hidden.same).toEqual([]);
    expect(hidden.counts.same).toBe(all.same.length);
    expect(hidden.quantityDiffers).toEqual(all.quantityDiffers.slice(0, 25));
    // The file side was read and placed with progress, side by side, each phase to its end.
    expect(progress.some((p) => p.side === 'right' && p.phase === 'placing' && p.done === p.total)).toBe(true);
    expect(progress.every((p) => p.side === 'right')).toBe(true);

    // Counts come whole; each group holds its first 25 rows; the rest come page by page, the same rows.
    expect(first.counts).toEqual(Object.fromEntries(COMPARE_GROUPS.map((g) => [g, all[g].length])));
    expect(first.totals).toEqual(all.totals);
    expect(all.quantityDiffers.length).toBeGreaterThan(100);
    for (const g of COMPARE_GROUPS) {
      expect(first[g]).toEqual(all[g].slice(0, 25));
      const rest: CompareRowView[] = [...first[g]];
      while (rest.length < first.counts[g]) {
        const page = await ok(
          call<CompareRowView[]>('compare.rows', {
            compareId: first.compareId,
            group: g,
            from: rest.length,
            count: 100,
          }),
        );
        expect(page.length).toBeGreaterThan(0);
        rest.push(...page);
      }
      expect(rest).toEqual(all[g]);
    }

    // An export is made on the reader thread and offered through the save dialog here, with what it leaves out.
    const wanted = await ok(
      call<{ name: string; savedTo: string | null; note?: string }>('compare.export', {
        compareId: first.compareId,
        as: 'wanted',
      }),
    );
    expect(wanted.savedTo).toBe(`/saved/${wanted.name}`);
    expect(wanted.name).toMatch(/ vs arrived – wanted list\.xml$/);
    expect(saved.map((s) => s.name)).toEqual([wanted.name]);
    expect(saved[0]?.content).toContain('<MINQTY>');
    expect(wanted.note).toMatch(/left out/);

    // Only the last compares are kept: an old one's pages are refused in words.
    await ok(call('compare.run', sides));
    await ok(call('compare.run', sides));
    expect(await call('compare.rows', { compareId: first.compareId, group: 'same', from: 0, count: 1 })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'That compare is no longer kept: compare the two sides again.' },
    });
  });
});
