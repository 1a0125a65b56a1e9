/**
 * The worker processes of the fault-injection soak (`test/workers/*.ts`), bundled once per run with
 * esbuild (tsx's own) into plain ES modules: a worker then starts in a fifth of the time `--import tsx`
 * takes, and a soak of a thousand kills starts over a thousand of them. The bundle holds this build's
 * own `src/`, unchanged — or, for a mutation check, with one named fault put in (see MUTATIONS), so a
 * test can prove the soak notices it. Production code carries no switch for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from './cli.ts';

export const WORKER_NAMES = [
  'job-worker',
  'catalogue-load-worker',
  'import-worker',
  'lookup-worker',
  'upgrade-worker',
  'desk-worker',
  'small-writes-worker',
] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

/**
 * Faults a mutation check puts into the workers' copy of `src/`: the text to find (it must be there,
 * exactly once, or the build fails — so a refactoring can't make a mutation check pass silently) and
 * what it becomes.
 */
export const MUTATIONS = {
  /** `whileOwner` commits a job's work whether or not this process still owns the job. */
  'no-owner-check': {
    file: 'src/jobs/queue.ts',
    find: 'if (!ownsRunningJob(db, id, actingOwner(db, me))) return false;',
    replace: '/* mutation no-owner-check: the owner check is gone */',
  },
  /**
   * On a server, a runner whose connection was cut and made again acts as the owner it was: its new
   * session passes the owner check in the old session's name (SPEC §14's "it stops" is gone).
   */
  'no-session-check': {
    file: 'src/store/owners.ts',
    find: 'return db instanceof PostgresDatabase && isSession(me) ? db.sessionOwner() : me;',
    replace: '/* mutation no-session-check */ return me;',
  },
  /** Every owner looks dead, so claims take jobs from live owners. */
  'owners-look-dead': {
    file: 'src/identity/owner.ts',
    find: 'export function isAlive(owner: OwnerIdentity, proc: ProcView = SYSTEM_PROC): boolean {',
    replace:
      'export function isAlive(owner: OwnerIdentity, proc: ProcView = SYSTEM_PROC): boolean {\n  /* mutation owners-look-dead */ if (owner) return false;',
  },
} as const;
export type Mutation = keyof typeof MUTATIONS;

export interface WorkerBundles {
  readonly dir: string;
  readonly mutation: Mutation | null;
  path(name: WorkerName): string;
}

/** Bundles every soak worker into `dir` (made if missing). */
export async function buildWorkers(dir: string, mutation: Mutation | null = null): Promise<WorkerBundles> {
  fs.mkdirSync(dir, { recursive: true });
  // better-sqlite3 stays outside (a native module), imported by its absolute path so the bundles may live
  // anywhere; so does pg (it names pg-native, which is not installed, for a mode the store never uses).
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const pg = createRequire(import.meta.url).resolve('pg');
  // adm-zip (Studio models) is CommonJS that requires Node's modules: bundled into an ES module it can't.
  const admZip = createRequire(import.meta.url).resolve('adm-zip');
  const fault = mutation === null ? null : MUTATIONS[mutation];
  const faultFile = fault === null ? null : path.join(REPO_ROOT, fault.file);
  await build({
    entryPoints: {
      ...Object.fromEntries(WORKER_NAMES.map((w) => [w, path.join(REPO_ROOT, 'test', 'workers', `${w}.ts`)])),
      // The PostgreSQL store's connection thread, beside the workers, where a bundle looks for it
      // (src/platform/worker-start.ts: `threadUrl`, relative to the module, which in a bundle is the worker's).
      'postgres-bridge-thread': path.join(REPO_ROOT, 'src', 'store', 'postgres', 'bridge-thread.ts'),
    },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'soak-workers',
        setup(b) {
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true }));
          b.onResolve({ filter: /^pg$/ }, () => ({ path: pg, external: true }));
          b.onResolve({ filter: /^adm-zip$/ }, () => ({ path: admZip, external: true }));
          b.onLoad({ filter: /\.ts$/ }, (args) => {
            const file = path.resolve(args.path);
            if (fault === null || file !== faultFile) return undefined;
            const text = fs.readFileSync(file, 'utf8');
            if (text.split(fault.find).length !== 2)
              throw new Error(`soak workers: "${fault.find}" is not in ${fault.file} exactly once`);
            return { contents: text.replace(fault.find, () => fault.replace), loader: 'ts' };
          });
        },
      },
    ],
  });
  // The bundles are ES modules named `.js`, as the thread's name is.
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  return workersIn(dir, mutation);
}

/** Workers bundled already in `dir` (by `buildWorkers`, in another process of the soak). */
export function workersIn(dir: string, mutation: Mutation | null): WorkerBundles {
  return { dir, mutation, path: (name) => path.join(dir, `${name}.js`) };
}

/** A worker process of the soak, known by the order it was started in (pids are reused over a long soak). */
export interface SoakProcess {
  readonly n: number;
  readonly name: WorkerName;
  readonly child: ChildProcess;
  /** Every line it printed on stdout, as they came. */
  readonly lines: string[];
  readonly started: bigint;
  /** When it was killed, or ended on its own (CLOCK_MONOTONIC ns): recorded once, at the first of the two. */
  death: bigint | null;
  /**
   * When its exit was seen here (CLOCK_MONOTONIC ns). A SIGKILL takes effect a little after it is sent
   * (more so on a loaded machine), so a killed worker died somewhere between `death` and `gone`: checks
   * that a worker was surely dead by some moment use `gone`, checks that it was surely still at work use
   * `death`.
   */
  gone: bigint | null;
  /** Killed by the harness with SIGKILL (at most once, and only while it was alive). */
  killed: boolean;
  /** The wall-clock time of the kill (job_event rows are stamped with the wall clock). */
  killedAtWall: number | null;
  /** Its exit code when it ended on its own. */
  code: number | null;
  /** The signal it died of, when that was not the harness's SIGKILL (a native crash, the OOM killer). */
  signal: NodeJS.Signals | null;
  readonly stderr: () => string;
  /** Resolves once it has ended and its output is read. */
  readonly closed: Promise<void>;
  alive(): boolean;
  /** SIGKILL, once, only while alive; true when this call killed it. */
  kill(): boolean;
  /** The first line (from now on, or already printed) matching `re`; null if it ends first. */
  waitFor(re: RegExp): Promise<string | null>;
  /** Called with each new line. */
  onLine(fn: (line: string) => void): void;
}

let started = 0;

/** Starts one bundled worker. `CLOCK_MONOTONIC` times in its lines compare with `process.hrtime.bigint()` here. */
export function startWorker(
  bundles: WorkerBundles,
  name: WorkerName,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): SoakProcess {
  const child = spawn(process.execPath, [bundles.path(name), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const listeners: ((line: string) => void)[] = [];
  let stderr = '';
  let buffer = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (d: string) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const l of [...listeners]) l(line);
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    if (stderr.length < 20_000) stderr += d;
  });
  const p: SoakProcess = {
    n: started++,
    name,
    child,
    lines,
    started: process.hrtime.bigint(),
    death: null,
    gone: null,
    killed: false,
    killedAtWall: null,
    code: null,
    signal: null,
    stderr: () => stderr,
    closed: new Promise<void>((resolve) => {
      child.once('close', (code, signal) => {
        if (!p.killed) {
          p.code = code;
          p.signal = signal;
        }
        resolve();
      });
    }),
    alive: () => p.death === null && child.exitCode === null && child.signalCode === null,
    kill: () => {
      if (!p.alive()) return false;
      const wall = Date.now();
      const at = process.hrtime.bigint();
      if (!child.kill('SIGKILL')) return false;
      p.killed = true;
      p.death = at;
      p.killedAtWall = wall;
      return true;
    },
    waitFor: (re) => {
      const seen = lines.find((l) => re.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => {
        const check = (l: string) => {
          if (!re.test(l)) return;
          listeners.splice(listeners.indexOf(check), 1);
          resolve(l);
        };
        listeners.push(check);
        void p.closed.then(() => resolve(lines.find((l) => re.test(l)) ?? null));
      });
    },
    onLine: (fn) => listeners.push(fn),
  };
  child.once('exit', () => {
    p.gone = process.hrtime.bigint();
    if (p.death === null) p.death = p.gone;
  });
  return p;
}

/** The last of its lines that starts with one of `prefixes`. */
export function lastLine(p: SoakProcess, ...prefixes: string[]): string | undefined {
  for (let i = p.lines.length - 1; i >= 0; i--) {
    const l = p.lines[i] as string;
    if (prefixes.some((x) => l.startsWith(x))) return l;
  }
  return undefined;
}

/**
 * A worker that ended on its own with a non-zero code, or died of a signal the harness did not send
 * (a native crash ends in SIGSEGV or SIGABRT, with no exit code): its end and what it said on stderr.
 */
export function crashOf(p: SoakProcess): string | null {
  if (p.killed || p.code === 0 || (p.code === null && p.signal === null)) return null;
  const end = p.code !== null ? `exited with code ${p.code}` : `died of ${p.signal}`;
  return `${p.name} #${p.n} (pid ${p.child.pid}) ${end}: ${p.stderr().trim().slice(-2000)}`;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sleeps until `process.hrtime.bigint()` (CLOCK_MONOTONIC, as the workers' times) reaches `at`. */
export function sleepUntil(at: bigint): Promise<void> {
  return sleep(Math.max(0, Number(at - process.hrtime.bigint()) / 1e6));
}

export function rand([lo, hi]: readonly [number, number]): number {
  return lo + Math.random() * (hi - lo);
}

export function pick<T>(list: readonly T[]): T | undefined {
  return list[Math.floor(Math.random() * list.length)];
}
