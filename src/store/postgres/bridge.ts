/**
 * A synchronous connection to a PostgreSQL server (ADR 0027): the core's store calls are synchronous, as
 * better-sqlite3's are, and node-postgres is not. The connection lives on a thread of its own
 * (`bridge-thread.ts`); a statement is posted there and the caller waits on a shared cell until the
 * answer is on the port, then takes it with `receiveMessageOnPort`. About 0.1 ms a statement on loopback.
 *
 * Faults are values: a server that can't be reached, or goes away mid-call, is `store-unreachable`
 * (never a hang: a server that does not answer within the wait is given up on, and the thread started
 * again); the next statement connects again by itself.
 */
import { checkServerAddress } from './address.ts';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { BrickWorkError, storeUnreachable } from '../../vocabulary/errors.ts';
import { startWorker, threadUrl } from '../../platform/worker-start.ts';
import { applicationName } from './application-name.ts';
import {
  NO_PASSWORD,
  type BridgeAnswer,
  type BridgeData,
  type BridgeFault,
  type BridgeStatement,
  type FromBridge,
  type ToBridge,
} from './bridge-messages.ts';
import { serverRefusal } from './server-refusals.ts';
import { storeName } from '../../vocabulary/store-location.ts';

/** An error PostgreSQL answered a statement with (not a lost connection): its SQLSTATE, for callers that expect one. */
export class PostgresError extends Error {
  constructor(
    readonly sqlstate: string | null,
    message: string,
  ) {
    super(message);
  }
}

/** The server and database as staff would name them: never the user's password. */
export function serverName(url: string): string {
  return storeName(url);
}

export interface BridgeOptions {
  /** How long a statement may take before the server is given up on (the busy timeout and then some). */
  readonly timeoutMs?: number;
  /** The thread's script; the built app gives its bundled `.js`. */
  readonly threadUrl?: URL;
}

export class PostgresBridge {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly timeoutMs: number;
  private readonly threadUrl: URL;
  private threads = 0;
  private lastConnection = '';
  /** Messages this bridge has waited for an answer to: its round trips to the thread and the server. */
  private asked = 0;

  private constructor(
    readonly url: string,
    options: BridgeOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.threadUrl = options.threadUrl ?? threadUrl('postgres-bridge-thread');
  }

  /** Connects to `url` (`postgres://user@host:port/db`); `store-unreachable` when it can't. */
  static connect(url: string, options: BridgeOptions = {}): PostgresBridge {
    checkServerAddress(url);
    const bridge = new PostgresBridge(url, options);
    bridge.ask({ kind: 'connect' });
    return bridge;
  }

  /**
   * Runs one statement (`$1`, `$2`… for its parameters) and gives its rows and the count it touched.
   * `name`: the statement is prepared on the server under it (once a connection), for one asked again
   * and again; the same name always with the same text. Without parameters, `sql` may be several
   * statements; the last one's rows are given. `before`: statements run first in the same message (one
   * wait for all), their answers given in `before`; the first to fail is the refusal, and nothing after it runs.
   */
  query(
    sql: string,
    params: readonly unknown[] = [],
    name?: string,
    before: readonly BridgeStatement[] = [],
  ): BridgeAnswer & { readonly before: readonly BridgeAnswer[] } {
    const r = this.ask({
      kind: 'query',
      sql,
      params,
      ...(name === undefined ? {} : { name }),
      ...(before.length === 0 ? {} : { before }),
    });
    return { rows: r.rows, rowCount: r.rowCount, before: r.before };
  }

  /**
   * Which connection answered last (`thread.connection`): it changes exactly when the bridge connected
   * again, that is when this desk's server session changed.
   */
  get connection(): string {
    return this.lastConnection;
  }

  close(): void {
    if (this.worker === null) return;
    try {
      this.ask({ kind: 'close' });
    } catch {
      // gone already: nothing to close
    }
    void this.worker.terminate();
    this.worker = null;
    this.port = null;
  }

  private started(): MessagePort {
    if (this.port !== null) return this.port;
    const { port1, port2 } = new MessageChannel();
    this.signal = new Int32Array(new SharedArrayBuffer(4));
    const data: BridgeData = {
      url: this.url,
      applicationName: applicationName(),
      signal: this.signal.buffer as SharedArrayBuffer,
      port: port2,
    };
    this.worker = startWorker(this.threadUrl, data, [port2]);
    this.threads += 1;
    this.worker.unref();
    port1.unref();
    this.port = port1;
    return port1;
  }

  /** How many times this bridge has waited for an answer (one message each, whatever went in it). */
  get roundTrips(): number {
    return this.asked;
  }

  private ask(m: ToBridge): Extract<FromBridge, { ok: true }> {
    const port = this.started();
    this.asked += 1;
    Atomics.store(this.signal, 0, 0);
    port.postMessage(m);
    // The answer is on the port once the signal says so. A wake-up may also be the late notify of the
    // answer before (it stores its signal, this caller reads the answer and moves on, then it notifies):
    // then there is no answer yet, and the wait goes on for the time left.
    const until = performance.now() + this.timeoutMs;
    let reply: FromBridge | undefined;
    for (;;) {
      reply = receiveMessageOnPort(port)?.message as FromBridge | undefined;
      if (reply !== undefined) break;
      const left = until - performance.now();
      const waited = left <= 0 ? 'timed-out' : Atomics.wait(this.signal, 0, 0, left);
      if (waited === 'timed-out') {
        reply = receiveMessageOnPort(port)?.message as FromBridge | undefined;
        break;
      }
      // The late signal of the answer before: set it back (the port is read again before waiting).
      if (waited === 'not-equal') Atomics.store(this.signal, 0, 0);
    }
    if (reply === undefined) {
      // A server that does not answer: this thread and its connection go; the next call starts afresh.
      void this.worker?.terminate();
      this.worker = null;
      this.port = null;
      throw storeUnreachable(
        serverName(this.url),
        `it did not answer within ${Math.round(this.timeoutMs / 1000)} seconds`,
      );
    }
    // As libpq does, to stderr: written here, as the thread's own stderr may not be flushed before an exit.
    for (const warning of reply.warnings ?? []) process.stderr.write(`${warning}\n`);
    if (!reply.ok) throw this.refusal(reply.fault);
    this.lastConnection = `${this.threads}.${reply.connection}`;
    return reply;
  }

  private refusal(fault: BridgeFault): Error {
    if (fault.connection) return storeUnreachable(serverName(this.url), words(fault));
    if (fault.code === NO_PASSWORD) {
      const ignored = fault.password?.ignored ?? null;
      return new BrickWorkError(
        'store-unreachable',
        `The shop's server (${serverName(this.url)}) asks for this desk's password, and none was given${ignored === null ? '' : ` (${ignored})`}. Nothing was changed; give it in Settings → Shop server on the app, or in PGPASSWORD or ~/.pgpass (as psql reads them) for the command line — never in the address, where every user of the computer can see it.`,
      );
    }
    return (
      serverRefusal(fault.code, fault.message, serverName(this.url), fault.password) ??
      new PostgresError(fault.code, fault.message)
    );
  }
}

/** A lost or refused connection in words. */
function words(fault: BridgeFault): string {
  if (fault.code === 'ECONNREFUSED') return 'nothing answers at that address (is the server running?)';
  if (fault.code === 'ENOENT') return "no server's socket is in that folder (is the server running on this computer?)";
  if (fault.code === 'ENOTFOUND' || fault.code === 'EAI_AGAIN') return 'that server name is not known on this network';
  // 57P01 is both a server shutting down and an administrator ending this one connection.
  if (fault.code === '57P01') return 'the server ended the connection (it is restarting, or an administrator ended it)';
  if (fault.code === '57P02') return 'the server is restarting after a fault';
  if (fault.code === '57P03') return 'the server is starting up or shutting down';
  if (/does not support SSL/i.test(fault.message))
    return 'it does not take SSL connections, which the address asks for (sslmode): leave sslmode out, or have SSL turned on at the server';
  if (fault.code?.startsWith('08') || /terminated|reset/i.test(fault.message)) return 'the connection was cut';
  return fault.message.slice(0, 120);
}
