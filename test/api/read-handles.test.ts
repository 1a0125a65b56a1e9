import { describe, expect, it } from 'vitest';
import {
  fileOnReader,
  onReader,
  outsideStore,
  reads,
  startsWork,
  suggests,
  writes,
} from '../../src/api/handlers/define.ts';
import { setSetting, getSetting } from '../../src/store/settings.ts';

/**
 * A call that only reads holds the store only to read (issue 50 §2, Signal's ReadableDB/WritableDB). The
 * proof is the compiler's: each `@ts-expect-error` below is a write that must not compile — should a
 * reader's handle ever allow it, the directive is unused and `npm run typecheck` fails. The handlers are
 * only made here, never called: no store is needed.
 */
describe("a read-only call's handler is given the store to read, typed", () => {
  it('no exec, no write statement, no write transaction, no writing store function — nor through its context', () => {
    const entry = reads<'orders.list'>((d) => () => {
      // @ts-expect-error a reader's store has no exec
      d.db.exec('DELETE FROM shop_order');
      // @ts-expect-error a statement a reader prepares has no run
      d.db.prepare('DELETE FROM shop_order').run();
      // @ts-expect-error nor a write transaction
      d.db.transaction(() => 1);
      // @ts-expect-error a store function that writes takes the writer's store
      setSetting(d.db, 'numbering', 'bricklink');
      // @ts-expect-error the service's context does not hand the writer's store over
      d.ctx.db.exec('DELETE FROM shop_order');
      // Reading is what it may do.
      getSetting(d.db, 'numbering');
      d.db.prepare('SELECT 1').get();
      return [];
    });
    expect(entry.writes).toBe(false);
  });

  it('the same for the other traits that do not write: on the reader thread, on the suggestion thread', () => {
    const preview = onReader<'compare.run'>((d) => () => {
      // @ts-expect-error a compare writes nothing
      d.db.exec('DELETE FROM document_line');
      throw new Error('never called');
    });
    const suggest = suggests<'lines.suggest'>((d) => () => {
      // @ts-expect-error suggestions write nothing
      setSetting(d.db, 'numbering', 'bricklink');
      throw new Error('never called');
    });
    expect([preview.writes, suggest.writes]).toEqual([false, false]);
  });

  it("a call that writes is given the writer's store", () => {
    const entry = writes<'settings.set'>((d) => () => {
      setSetting(d.db, 'numbering', 'bricklink');
      d.db.transaction(() => d.db.prepare('DELETE FROM shop_order').run());
      throw new Error('never called');
    });
    expect(entry.writes).toBe(true);
  });

  it('so do the traits of the file made on the reader thread and of calls outside the store; work that writes gets the writer', () => {
    const file = fileOnReader<'compare.export'>((d) => () => {
      // @ts-expect-error a compare's export writes nothing to the store
      d.db.exec('DELETE FROM shop_order');
      throw new Error('never called');
    });
    const outside = outsideStore<'shopServer.get'>((d) => () => {
      // @ts-expect-error a call outside the store has no writer's store either
      setSetting(d.db, 'numbering', 'bricklink');
      throw new Error('never called');
    });
    const work = startsWork<'catalogue.load'>((d) => () => {
      setSetting(d.db, 'numbering', 'bricklink');
      throw new Error('never called');
    });
    expect([file.writes, outside.writes, work.writes]).toEqual([false, false, true]);
  });
});
