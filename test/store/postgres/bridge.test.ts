import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBridge, PostgresError } from '../../../src/store/postgres/bridge.ts';
import { needs } from '../../helpers/needs.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres, type PostgresServer } from '../../helpers/postgres.ts';

// A wake-up of the waiting caller is not an answer: only the message on the port is (no server needed).
it('a late wake-up from the previous answer is no answer: the caller waits for its own', () => {
  const db = PostgresBridge.connect('postgres://brick_work@127.0.0.1:1/none', {
    threadUrl: new URL('../../workers/late-wake-bridge-thread.ts', import.meta.url),
    timeoutMs: 10_000,
  });
  try {
    expect(db.query('SELECT 1').rows).toEqual([{ answer: 1 }]);
    expect(db.query('SELECT 2').rows).toEqual([{ answer: 2 }]);
  } finally {
    db.close();
  }
});

// Issue 29 (ADR 0027): the core's synchronous store calls over a real PostgreSQL server on loopback.
describe.runIf(needs(hasPostgres(), NEEDS_POSTGRES, 'the PostgreSQL bridge'))('the PostgreSQL bridge', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres({ own: true });
  }, 60_000);
  afterAll(() => server?.close());

  const fresh = (name: string) => {
    server.createDatabase(name);
    return PostgresBridge.connect(server.url(name));
  };

  it('answers statements synchronously, with parameters, and counts as numbers', () => {
    const db = fresh('plain');
    try {
      db.query('CREATE TABLE line (id bigserial PRIMARY KEY, no text NOT NULL, qty bigint NOT NULL)');
      for (const [no, qty] of [
        ['3001', 4],
        ['3003', 2],
      ] as const)
        expect(db.query('INSERT INTO line (no, qty) VALUES ($1, $2)', [no, qty]).rowCount).toBe(1);
      expect(db.query('SELECT count(*) AS n, sum(qty) AS pieces, 1 = 1 AS yes FROM line').rows).toEqual([
        { n: 2, pieces: 6, yes: 1 },
      ]);
      expect(db.query('SELECT no FROM line WHERE qty > $1 ORDER BY id', [3]).rows).toEqual([{ no: '3001' }]);
    } finally {
      db.close();
    }
  });

  // The soak's PostgreSQL kind met it once in some 300,000 statements on a loaded machine: the thread's
  // wake-up for one answer came late, during the wait for the next, and that wait gave up with no answer
  // there — "did not answer within 30 seconds" at once, and the connection thrown away. Here another
  // thread wakes the waits again and again.
  it('a wait woken before its answer is there goes on waiting: only the answer or the time limit ends it', async () => {
    const db = fresh('woken');
    const waker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const cell = new Int32Array(workerData.signal);
       const until = Date.now() + 1500;
       while (Date.now() < until) Atomics.notify(cell, 0);`,
      { eval: true, workerData: { signal: (db as unknown as { signal: Int32Array }).signal.buffer } },
    );
    try {
      const done = new Promise((resolve) => waker.once('exit', resolve));
      let answered = 0;
      const until = performance.now() + 1000;
      while (performance.now() < until) {
        expect(db.query('SELECT pg_sleep(0.001), $1::int8 AS n', [answered]).rows).toEqual([
          { pg_sleep: '', n: answered },
        ]);
        answered += 1;
      }
      expect(answered).toBeGreaterThan(20);
      await done;
    } finally {
      await waker.terminate();
      db.close();
    }
  });

  it('a statement PostgreSQL refuses is its error, with its SQLSTATE, not a lost server', () => {
    const db = fresh('refused');
    try {
      expect(() => db.query('SELEKT 1')).toThrow(expect.objectContaining({ sqlstate: '42601' }));
      expect(() => db.query('SELEKT 1')).toThrow(PostgresError);
      expect(db.query('SELECT 1 AS one').rows).toEqual([{ one: 1 }]);
    } finally {
      db.close();
    }
  });

  it('a session is named exactly: its backend pid and its start in whole microseconds, different for every session', () => {
    const a = fresh('sessions');
    const b = PostgresBridge.connect(server.url('sessions'));
    try {
      const me = (db: PostgresBridge) =>
        db.query(
          `SELECT pid, (extract(epoch FROM backend_start) * 1000000)::int8 AS start
             FROM pg_stat_activity WHERE pid = pg_backend_pid()`,
        ).rows[0] as { pid: number; start: number };
      const [sa, sb] = [me(a), me(b)];
      expect(Number.isSafeInteger(sa.start) && Number.isSafeInteger(sb.start)).toBe(true);
      expect(sa.start % 1000 !== 0 || sb.start % 1000 !== 0, 'microseconds, not milliseconds').toBe(true);
      expect([sa.pid, sa.start]).not.toEqual([sb.pid, sb.start]);
      expect(me(a)).toEqual(sa);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a connection cut inside a transaction: store-unreachable, nothing half-written, refused until the ROLLBACK, then connects again', () => {
    const db = fresh('cut');
    const other = PostgresBridge.connect(server.url('cut'));
    try {
      db.query('CREATE TABLE t (v text)');
      db.query('BEGIN');
      db.query("INSERT INTO t VALUES ('first half')");
      const pid = (db.query('SELECT pg_backend_pid() AS pid').rows[0] as { pid: number }).pid;
      other.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(() => db.query("INSERT INTO t VALUES ('second half')")).toThrow(
        expect.objectContaining({
          code: 'store-unreachable',
          message: expect.stringMatching(
            /can't be reached: the (connection was cut|server ended the connection \(it is restarting, or an administrator ended it\))\. Nothing was half-written/,
          ),
        }),
      );
      // The caller's transaction is over: a statement of it on a new connection would be half of it.
      expect(() => db.query("INSERT INTO t VALUES ('third')")).toThrow(
        expect.objectContaining({ code: 'store-unreachable' }),
      );
      db.query('ROLLBACK');
      expect(db.query('SELECT count(*) AS n FROM t').rows).toEqual([{ n: 0 }]);
      db.query("INSERT INTO t VALUES ('after')");
      expect(other.query('SELECT v FROM t').rows).toEqual([{ v: 'after' }]);
    } finally {
      db.close();
      other.close();
    }
  });

  it('a server that stops: store-unreachable in words; started again, the next statement connects by itself', () => {
    const db = fresh('restart');
    try {
      db.query('CREATE TABLE t (v int)');
      server.stop();
      expect(() => db.query('SELECT 1')).toThrow(
        expect.objectContaining({
          code: 'store-unreachable',
          message: expect.stringContaining(`The shop's server (127.0.0.1:${server.port}/restart) can't be reached`),
        }),
      );
      expect(() => db.query('SELECT 1')).toThrow(
        expect.objectContaining({ message: expect.stringContaining('nothing answers at that address') }),
      );
      server.start();
      expect(db.query('SELECT count(*) AS n FROM t').rows).toEqual([{ n: 0 }]);
    } finally {
      server.start();
      db.close();
    }
  }, 60_000);

  it('nothing listening at the address: refused at connect, in words, never a hang or a password shown', () => {
    const url = server.url('x').replace(`:${server.port}/`, ':1/').replace('brick_work@', 'brick_work:secret@');
    expect(() => PostgresBridge.connect(url)).toThrow(
      expect.objectContaining({ code: 'store-unreachable', message: expect.not.stringContaining('secret') }),
    );
  });
});
