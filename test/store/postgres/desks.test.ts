/**
 * Issue 29, SPEC §14: several desks on one store on a PostgreSQL server. Each desk is the app's core as
 * the app starts it (`startCore`: its writer, suggestion and job runner threads, each with its own
 * connection); a write on one reaches the other's screens within a second (`LISTEN`/`NOTIFY`), and an
 * Undo from a stale screen is refused with `step-moved`.
 */
import { describe, expect, it, onTestFinished, beforeAll, afterAll } from 'vitest';
import type { ApiEvents, EventName } from '../../../src/api/contract.ts';
import { startCore } from '../../../src/app/core.ts';
import { csv, file } from '../../helpers/documents.ts';
import { needs } from '../../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../../helpers/postgres.ts';

type Event = { [E in EventName]: { name: E; payload: ApiEvents[E]; at: number } }[EventName];

async function desk(url: string) {
  const events: Event[] = [];
  const core = await startCore({
    storePath: url,
    workerUrl: new URL('../../../src/app/runner-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: (name, payload) => void events.push({ name, payload, at: performance.now() } as Event),
    log: () => {},
  });
  onTestFinished(() => core.close());
  return {
    events,
    call: (name: string, args: unknown) => core.service.call(name as never, args as never) as Promise<any>,
    /** Waits (up to `ms`) for a `store.changed` after `since`; its time, or null. */
    async changedAfter(since: number, ms: number): Promise<number | null> {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        const seen = events.find((e) => e.name === 'store.changed' && e.at > since);
        if (seen) return seen.at;
        await new Promise((r) => setTimeout(r, 10));
      }
      return null;
    },
  };
}

const order = (name: string) =>
  file(
    name,
    csv(
      ['number', 'name', 'quantity'],
      [
        ['3001', 'Brick 2 x 4', 2],
        ['', 'Mystery', 1],
      ],
    ),
  );

describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'several desks on a PostgreSQL server'))(
  'several desks on one store on a PostgreSQL server',
  () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres();
    }, 60_000);
    afterAll(() => server?.close());

    it("a write on one desk reaches the other desk's screens within a second; a stale Undo is step-moved", async () => {
      server.createDatabase('desks');
      const url = server.url('desks');
      const a = await desk(url);
      const b = await desk(url);
      await new Promise((r) => setTimeout(r, 300)); // both listening

      const before = performance.now();
      expect((await a.call('import.confirm', { file: order('first.csv') })).ok).toBe(true);
      const wrote = performance.now();
      const heard = await b.changedAfter(before, 2_000);
      expect(heard, 'desk B heard desk A’s import').not.toBeNull();
      expect((heard ?? Infinity) - wrote).toBeLessThan(1_000);
      expect((await b.call('orders.list', {})).value).toHaveLength(1);

      // Desk B's screen names A's import as the step Undo would take back; A then imports again.
      const shown = (await b.call('history.state', {})).value.undo;
      expect(shown.label).toBe('Import of first.csv');
      expect((await a.call('import.confirm', { file: order('second.csv') })).ok).toBe(true);
      const refused = await b.call('history.undo', { expectedStep: shown.id });
      expect(refused).toMatchObject({ ok: false, error: { code: 'step-moved' } });
      expect((await b.call('orders.list', {})).value).toHaveLength(2);
    }, 60_000);
  },
);
