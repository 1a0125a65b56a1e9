/**
 * A real PostgreSQL server for a test file (issue 29, SPEC §14): a cluster made in a temporary folder with
 * `initdb` and started with `pg_ctl` on a free port of 127.0.0.1, its socket in that folder, every program
 * from the one folder `postgresBinDir` finds (Debian's, Homebrew's keg-only one: psql too).
 * PostgreSQL refuses to run as root, so as root both run as the unprivileged `postgres` user. Stopped
 * (immediately) and removed when the file's tests are done. Absent binaries: `hasPostgres()` is false and
 * the tests that need it say so (`needs`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PostgresBridge } from '../../src/store/postgres/bridge.ts';
import { NEEDS_POSTGRES } from './needs.ts';
import { postgresBinDir } from './postgres-programs.ts';

export { NEEDS_POSTGRES };

export function hasPostgres(): boolean {
  return postgresBinDir() !== null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs one of PostgreSQL's programs, as `postgres` when the tests run as root. */
function run(bin: string, args: readonly string[]): void {
  const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  if (asRoot) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  else execFileSync(bin, [...args], { stdio: 'pipe' });
}

export interface PostgresServer {
  /** `postgres://brick_work@127.0.0.1:PORT/` + a database name. */
  url(database: string): string;
  readonly port: number;
  /** Makes an empty database (a fresh store for one test). */
  createDatabase(name: string): void;
  /** Runs SQL as the superuser on `database` (the tests' way to cut sessions, look at rows). */
  sql(database: string, statement: string): string;
  stop(): void;
  /** Starts it again after `stop()` (the same cluster and port). */
  start(): void;
  /** Stops it and removes its folder (the test file's end). */
  close(): void;
  /**
   * An own cluster's logins over TCP ask for the role's password (`scram-sha-256`), it being `password`;
   * null: trusted again. The test's own SQL (`sql`) gives it.
   */
  askPasswords(password: string | null): void;
}

const USER = 'brick_work';

export interface StartOptions {
  /**
   * Flush each commit to disk as a shop's server does (PostgreSQL's default), for timings compared with
   * a SQLite store's `synchronous=FULL` (the bench). Tests leave it off: faster, and nothing to keep.
   */
  readonly durable?: boolean;
  /**
   * A cluster of this file's own, not the test run's shared one: for tests that stop and start the
   * server, or change what is the cluster's and not one database's (roles, their passwords).
   */
  readonly own?: boolean;
}

/** A cluster's place: its folder (data, socket, log), port and programs. */
interface Cluster {
  readonly dir: string;
  readonly port: number;
  readonly bin: string;
}

function dataOf(cluster: Cluster): string {
  return path.join(cluster.dir, 'data');
}

function pgCtlStart(cluster: Cluster, durable: boolean): void {
  const options = `-p ${cluster.port} -k ${cluster.dir} -c listen_addresses=127.0.0.1${durable ? '' : ' -c fsync=off'} -c max_connections=300`;
  run(path.join(cluster.bin, 'pg_ctl'), [
    '-D',
    dataOf(cluster),
    '-o',
    options,
    '-l',
    path.join(cluster.dir, 'log'),
    '-w',
    'start',
  ]);
}

function pgCtlStop(cluster: Cluster): void {
  run(path.join(cluster.bin, 'pg_ctl'), ['-D', dataOf(cluster), '-m', 'immediate', '-w', 'stop']);
}

/** A new cluster in a new folder of the temporary folder (short: its socket path has a length limit), started. */
async function newCluster(durable: boolean): Promise<Cluster> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error(`PostgreSQL is not installed: ${NEEDS_POSTGRES}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-pg-'));
  fs.chmodSync(dir, 0o777);
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const cluster = { dir, port: await freePort(), bin };
  run(path.join(bin, 'initdb'), ['-D', dataOf(cluster), '-A', 'trust', '-U', USER, '-E', 'UTF8', '--no-sync']);
  pgCtlStart(cluster, durable);
  return cluster;
}

function psql(cluster: Cluster, database: string, statement: string, password: string | null = null): string {
  return execFileSync(
    path.join(cluster.bin, 'psql'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(cluster.port),
      '-U',
      USER,
      '-d',
      database,
      '-At',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      statement,
    ],
    { encoding: 'utf8', env: password === null ? process.env : { ...process.env, PGPASSWORD: password } },
  ).trim();
}

/**
 * A server for a test file. In a test run (`BRICK_WORK_TEST_RUN`, test/setup/global.ts) one cluster
 * serves every file that asks, started by the first and stopped when the run ends; each file makes its
 * own databases and drops them when it is done. Elsewhere (the soak, the bench) and with `own`, a
 * cluster of the caller's own, removed at `close()`.
 */
export async function startPostgres({ durable = false, own = false }: StartOptions = {}): Promise<PostgresServer> {
  const runDir = process.env['BRICK_WORK_TEST_RUN'];
  if (!own && !durable && runDir !== undefined && runDir !== '') return sharedServer(await sharedCluster(runDir));
  const cluster = await newCluster(durable);
  let running = true;
  let password: string | null = null;
  const server: PostgresServer = {
    port: cluster.port,
    url: (database) => `postgres://${USER}@127.0.0.1:${cluster.port}/${database}`,
    createDatabase: (name) => void psql(cluster, 'postgres', `CREATE DATABASE "${name}"`, password),
    sql: (database, statement) => psql(cluster, database, statement, password),
    askPasswords(asked) {
      if (asked !== null) psql(cluster, 'postgres', `ALTER ROLE ${USER} PASSWORD '${asked}'`, password);
      const hba = path.join(dataOf(cluster), 'pg_hba.conf');
      const [from, to] = asked === null ? ['scram-sha-256', 'trust'] : ['trust', 'scram-sha-256'];
      const text = fs.readFileSync(hba, 'utf8');
      fs.writeFileSync(hba, text.replace(new RegExp(`^(host\\s+all\\s+all\\s+\\S+\\s+)${from}\\s*$`, 'gm'), `$1${to}`));
      run(path.join(cluster.bin, 'pg_ctl'), ['-D', dataOf(cluster), 'reload']);
      password = asked;
    },
    stop() {
      if (!running) return;
      running = false;
      pgCtlStop(cluster);
    },
    start() {
      if (running) return;
      pgCtlStart(cluster, durable);
      running = true;
    },
    close: () => undefined,
  };
  server.close = () => {
    try {
      server.stop();
    } catch {
      // already gone
    }
    fs.rmSync(cluster.dir, { recursive: true, force: true });
  };
  // A test run that ends early leaves no server behind.
  process.once('exit', server.close);
  return server;
}

/**
 * The run's shared cluster as one file uses it: its databases are its own, and go when it closes. They are
 * made and dropped over one connection the file keeps (the store's own synchronous bridge), not a psql
 * process each: a test of both stores makes hundreds.
 */
function sharedServer(cluster: Cluster): PostgresServer {
  const made: string[] = [];
  let admin: PostgresBridge | null = null;
  const asAdmin = (statement: string) => {
    admin ??= PostgresBridge.connect(`postgres://${USER}@127.0.0.1:${cluster.port}/postgres`);
    admin.query(statement);
  };
  const shared = (what: string) => () => {
    throw new Error(`the test run's shared PostgreSQL server can't be ${what}: ask startPostgres({ own: true })`);
  };
  return {
    port: cluster.port,
    url: (database) => `postgres://${USER}@127.0.0.1:${cluster.port}/${database}`,
    createDatabase(name) {
      asAdmin(`CREATE DATABASE "${name}"`);
      made.push(name);
    },
    sql: (database, statement) => psql(cluster, database, statement),
    stop: shared('stopped'),
    start: shared('started again'),
    askPasswords: shared('made to ask for passwords'),
    close() {
      for (const name of made.splice(0))
        try {
          asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } catch {
          // the run's end removes the cluster anyway
        }
      admin?.close();
      admin = null;
    },
  };
}

const SHARED = 'postgres.json';

/**
 * The run's cluster: made by the first file that asks, under a lock (a folder made atomically, holding the
 * maker's pid), while the others wait for its description. A maker that died half-way leaves the lock to
 * the next.
 */
async function sharedCluster(runDir: string): Promise<Cluster> {
  const ready = path.join(runDir, SHARED);
  const lock = path.join(runDir, 'postgres.lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (fs.existsSync(ready)) return JSON.parse(fs.readFileSync(ready, 'utf8')) as Cluster;
    try {
      fs.mkdirSync(lock);
    } catch {
      const holder = Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
      if (holder > 0 && !pidAlive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`the test run's PostgreSQL server did not start within 2 minutes`);
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    const cluster = await newCluster(false);
    fs.writeFileSync(`${ready}.tmp`, JSON.stringify(cluster));
    fs.renameSync(`${ready}.tmp`, ready);
    return cluster;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run's end (test/setup/global.ts): stops the shared cluster if a file started one. */
export function stopSharedPostgres(runDir: string): void {
  const ready = path.join(runDir, SHARED);
  if (!fs.existsSync(ready)) return;
  const cluster = JSON.parse(fs.readFileSync(ready, 'utf8')) as Cluster;
  try {
    pgCtlStop(cluster);
  } catch {
    // already gone
  }
  fs.rmSync(cluster.dir, { recursive: true, force: true });
}
