/**
 * The PostgreSQL bridge's thread (ADR 0027): node-postgres is asynchronous, the core is not; this thread
 * holds the connection and answers one statement at a time, while its caller waits (`bridge.ts`).
 *
 * A connection lost inside a transaction leaves the server to roll it back; until the caller's own
 * ROLLBACK arrives, every statement is refused as the connection's fault, so nothing the caller meant to
 * be one transaction runs on a new connection piecemeal (`transaction-guard.ts`).
 */
import { workerData } from 'node:worker_threads';
import pg from 'pg';
import {
  NO_PASSWORD,
  type BridgeAnswer,
  type BridgeData,
  type BridgeFault,
  type BridgeStatement,
  type FromBridge,
  type ToBridge,
} from './bridge-messages.ts';
import { givePassword, type FoundPassword } from './password.ts';
import { TransactionGuard } from './transaction-guard.ts';

const data = workerData as BridgeData;
const port = data.port;
const signal = new Int32Array(data.signal);

// Values as SQLite gives them, so the core reads both stores alike: an int8 (a count, an id, microseconds
// since the epoch) and a sum (numeric) as numbers — they fit a double exactly at a shop's sizes — and a
// truth as 1 or 0.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.BOOL, (v) => (v === 't' ? 1 : 0));

/** Node's codes for a connection that could not be made or was cut. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // A socket folder's file that is not there (the folder is checked before: `address.ts`).
  'ENOENT',
]);

function faultOf(e: unknown): BridgeFault {
  const err = e as { code?: unknown; message?: unknown };
  const message = typeof err?.message === 'string' ? err.message : String(e);
  const code = typeof err?.code === 'string' ? err.code : null;
  const connection =
    (code !== null && (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code))) ||
    /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|does not support SSL/i.test(
      message,
    );
  // Where the password tried came from, for the words of a login refused (libpq names its file too).
  const found = passwordFound;
  const login = found !== null && (code === NO_PASSWORD || code?.startsWith('28') === true);
  const password = login ? { password: { from: found.from, file: found.file, ignored: found.ignored } } : {};
  return { code, message, connection, ...password };
}

/** The password of the connection made last, as found (`password.ts`). */
let passwordFound: FoundPassword | null = null;
/** libpq's warnings not yet said: given with the next answer, for the caller to print (this thread's stderr may be lost). */
let warnings: string[] = [];
const warned = new Set<string>();

/** Gives `c` the password libpq would, keeping what was found for the words of a refusal and its warning. */
function withPassword(c: pg.Client): void {
  const found = givePassword(data.url, c, process.env);
  passwordFound = found;
  if (found.warning !== null && !warned.has(found.warning)) {
    warned.add(found.warning);
    warnings.push(found.warning);
  }
}

let client: pg.Client | null = null;
/** The caller's transaction and the connection it is on (refused until its ROLLBACK once that is gone). */
const guard = new TransactionGuard();
/** How many connections this thread has made: the caller's way to tell a new session (`connection`). */
let connections = 0;

/** The connection being made, for every statement of a message that asks for it meanwhile. */
let connecting: Promise<pg.Client> | null = null;

function connected(): Promise<pg.Client> {
  if (client !== null) return Promise.resolve(client);
  connecting ??= connect().finally(() => (connecting = null));
  return connecting;
}

async function connect(): Promise<pg.Client> {
  const c = new pg.Client({
    connectionString: data.url,
    application_name: data.applicationName,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    // Several statements of one message are written at once and answered in order (`answer`).
    pipeline: true,
  });
  // A connection that breaks between statements: the next statement connects again — unless it broke
  // inside a transaction, which the server has rolled back: then the caller's ROLLBACK comes first.
  const lost = (e: unknown) => {
    if (client !== c) return;
    client = null;
    guard.lost({ ...faultOf(e), connection: true });
  };
  c.on('error', lost);
  c.on('end', () => lost(new Error('Connection terminated')));
  withPassword(c);
  await c.connect();
  // A desk cut off from the network is dead to the others within about 5 s (SPEC §14): the server probes
  // an idle session after 2 s, once a second, and ends it after 2 probes unanswered (a socket: ignored).
  await c.query('SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2');
  client = c;
  guard.connected();
  connections += 1;
  return c;
}

async function answer(m: ToBridge): Promise<FromBridge> {
  const done = (
    rows: readonly Record<string, unknown>[] = [],
    rowCount = 0,
    before: BridgeAnswer[] = [],
  ): FromBridge => ({
    ok: true,
    rows,
    rowCount,
    before,
    connection: connections,
  });
  if (m.kind === 'close') {
    await client?.end().catch(() => undefined);
    client = null;
    guard.closed();
    return done();
  }
  if (m.kind === 'connect') {
    await connected();
    return done();
  }
  // The statements the caller did not wait for, then its own, written to the server at once (one round
  // trip) and answered in order: the first to fail is the answer. What follows a failure inside a
  // transaction fails too (the server refuses all but its end), so it changes nothing.
  const statements = [...(m.before ?? []), m];
  const answers = await Promise.all(statements.map(run));
  const failed = answers.find((a): a is { fault: BridgeFault } => 'fault' in a);
  if (failed !== undefined) return { ok: false, fault: failed.fault };
  const own = answers[answers.length - 1] as BridgeAnswer;
  return done(own.rows, own.rowCount, answers.slice(0, -1) as BridgeAnswer[]);
}

/** Runs one statement through the transaction's guard. */
async function run(m: BridgeStatement): Promise<BridgeAnswer | { fault: BridgeFault }> {
  const nothing: BridgeAnswer = { rows: [], rowCount: 0 };
  const first = guard.before(m.sql);
  if (first === 'rolled-back') return nothing;
  if (first !== 'run') return { fault: first };
  try {
    const c = await connected();
    const answered: pg.QueryResult | pg.QueryResult[] = await c.query(
      m.name === undefined
        ? { text: m.sql, values: [...m.params] }
        : { name: m.name, text: m.sql, values: [...m.params] },
    );
    // Several statements in one text (no parameters): the last one's answer.
    const r = Array.isArray(answered) ? (answered[answered.length - 1] as pg.QueryResult) : answered;
    guard.answered(m.sql);
    return { rows: r.rows as Record<string, unknown>[], rowCount: r.rowCount ?? 0 };
  } catch (e) {
    const fault = faultOf(e);
    if (fault.connection) {
      const c = client;
      client = null;
      void c?.end().catch(() => undefined);
    }
    return guard.failed(m.sql, fault) === 'rolled-back' ? nothing : { fault };
  }
}

port.on('message', (m: ToBridge) => {
  void answer(m)
    .then(undefined, (e: unknown): FromBridge => ({ ok: false, fault: faultOf(e) }))
    .then((reply) => {
      const said = warnings;
      warnings = [];
      port.postMessage(said.length === 0 ? reply : { ...reply, warnings: said });
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
});
