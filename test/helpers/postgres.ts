/**
 * A real PostgreSQL server for a test file (issue 29, SPEC §14): a cluster made in a temporary folder with
 * Debian's `initdb` and started with `pg_ctl` on a free port of 127.0.0.1, its socket in that folder.
 * PostgreSQL refuses to run as root, so as root both run as the unprivileged `postgres` user. Stopped
 * (immediately) and removed when the file's tests are done. Absent binaries: `hasPostgres()` is false and
 * the tests that need it say so (`needs`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The folder of PostgreSQL's server programs: Debian's versioned one, else whatever `initdb` is on the PATH. */
function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return path.join(root, versions[0], 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  return found === '' ? null : path.dirname(found);
}

/** What the PostgreSQL tests need, in the words a skipped one prints. */
export const NEEDS_POSTGRES = "Debian's PostgreSQL server (apt-get install -y postgresql)";

export function hasPostgres(): boolean {
  return binDir() !== null;
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
}

const USER = 'brick_work';

export interface StartOptions {
  /**
   * Flush each commit to disk as a shop's server does (PostgreSQL's default), for timings compared with
   * a SQLite store's `synchronous=FULL` (the bench). Tests leave it off: faster, and nothing to keep.
   */
  readonly durable?: boolean;
}

export async function startPostgres({ durable = false }: StartOptions = {}): Promise<PostgresServer> {
  const bin = binDir();
  if (bin === null) throw new Error(`PostgreSQL is not installed: ${NEEDS_POSTGRES}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-pg-'));
  fs.chmodSync(dir, 0o777);
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', USER, '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${durable ? '' : ' -c fsync=off'} -c max_connections=200`;
  const start = () =>
    run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const psql = (database: string, statement: string) =>
    execFileSync(
      'psql',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
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
      {
        encoding: 'utf8',
      },
    ).trim();
  start();
  let running = true;
  const server: PostgresServer = {
    port,
    url: (database) => `postgres://${USER}@127.0.0.1:${port}/${database}`,
    createDatabase: (name) => void psql('postgres', `CREATE DATABASE "${name}"`),
    sql: psql,
    stop() {
      if (!running) return;
      running = false;
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    start() {
      if (running) return;
      start();
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
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test run that ends early leaves no server behind.
  process.once('exit', server.close);
  return server;
}
