/**
 * `npm run soak`'s harness: every kind of work that claims or writes, at once, each in stores of its
 * own, each under its share of the SIGKILLs — the `chaos` jobs of the job queue (about half of the
 * kills), catalogue loads, document imports and their undo, the look-up job against the BrickLink
 * stand-in, the 4.1 → 4.2 upgrade, the app's core working while another process holds the store's
 * lock for long spans, and desks sharing a store on a PostgreSQL server, SIGKILLed or cut off. Each
 * kind reports a row of the table (`soakTable`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chaosResult, runChaos } from './chaos.ts';
import type { KindResult } from './soak-checks.ts';
import { soakCatalogue } from './soak-catalogue.ts';
import { soakImports } from './soak-imports.ts';
import { soakLock } from './soak-lock.ts';
import { soakLookup } from './soak-lookup.ts';
import { soakPostgres } from './soak-postgres.ts';
import { hasPostgres, NEEDS_POSTGRES } from './postgres.ts';
import { soakUpgrade } from './soak-upgrade.ts';
import { REPO_ROOT } from './cli.ts';
import { buildWorkers, type Mutation, type WorkerBundles } from './soak-workers.ts';

export const SOAK_KINDS = ['chaos', 'catalogue', 'imports', 'look-up', 'upgrade', 'lock', 'postgres'] as const;
export type SoakKind = (typeof SOAK_KINDS)[number];

/** How the kills are shared out: chaos gets about a third, the PostgreSQL desks about a third. */
export const SOAK_WEIGHTS: Readonly<Record<SoakKind, number>> = {
  chaos: 0.5,
  catalogue: 0.14,
  imports: 0.14,
  'look-up': 0.14,
  upgrade: 0.08,
  // Each of its kills ends a span of a held lock of up to 15 s: few, and they take the longest.
  lock: 0.015,
  // Desks on a PostgreSQL server, SIGKILLed or cut: 307 of the default 1,000 (issue 29 asks for 300+).
  postgres: 0.45,
};

/** `kills` shared out by weight, in whole kills that add up to `kills`. */
export function shareKills(
  kills: number,
  weights: Readonly<Partial<Record<SoakKind, number>>> = SOAK_WEIGHTS,
): Record<SoakKind, number> {
  const kinds = SOAK_KINDS.filter((k) => (weights[k] ?? 0) > 0);
  const total = kinds.reduce((n, k) => n + (weights[k] ?? 0), 0);
  const share = Object.fromEntries(SOAK_KINDS.map((k) => [k, 0])) as Record<SoakKind, number>;
  let given = 0;
  if (kinds.length === 0) return share;
  for (const k of kinds) {
    share[k] = Math.floor((kills * (weights[k] ?? 0)) / total);
    given += share[k];
  }
  for (let i = 0; given < kills; i++, given++) share[kinds[i % kinds.length] as SoakKind] += 1;
  return share;
}

export interface SoakOptions {
  readonly dir: string;
  readonly kills: number;
  /** Only these kinds (all when not given), sharing the kills by their weights. */
  readonly kinds?: readonly SoakKind[];
  /** Put this fault into the workers (a mutation check): the soak must then fail. */
  readonly mutation?: Mutation;
  /** Workers bundled already (`buildWorkers`): `mutation` is then theirs. */
  readonly bundles?: WorkerBundles;
  /** Told after every kill, with the kills so far. */
  readonly onKill?: (total: number) => void;
  /** Told when a kind has finished. */
  readonly onKind?: (result: KindResult) => void;
  /** The lock kind's bar for the screens' reads (ms); absent, their slowest is only reported. */
  readonly slowestReadMs?: number;
  /** Told of a kind left out, and why (the PostgreSQL kind without PostgreSQL): its kills go to the others. */
  readonly onSkip?: (kind: SoakKind, why: string) => void;
  /** Each kind in a process of its own (`npm run soak`): no kind's work on its thread delays another's. */
  readonly processes?: boolean;
}

export async function runSoak(o: SoakOptions): Promise<KindResult[]> {
  const bundles = o.bundles ?? (await buildWorkers(path.join(o.dir, 'workers'), o.mutation ?? null));
  const kinds = (o.kinds ?? SOAK_KINDS).filter((k) => {
    if (k !== 'postgres' || hasPostgres()) return true;
    o.onSkip?.(k, `it needs ${NEEDS_POSTGRES}`);
    return false;
  });
  const share = shareKills(
    o.kills,
    Object.fromEntries(kinds.map((k) => [k, SOAK_WEIGHTS[k]])) as Partial<Record<SoakKind, number>>,
  );
  let total = 0;
  const onKill = () => o.onKill?.(++total);
  return Promise.all(
    kinds.map(async (k) => {
      const r = o.processes
        ? await kindInProcess(k, share[k], o, bundles, onKill)
        : await runKind(k, share[k], { dir: o.dir, bundles, onKill, slowestReadMs: o.slowestReadMs });
      o.onKind?.(r);
      return r;
    }),
  );
}

/** What one kind of work needs to run: its share of the kills is given beside it. */
export interface KindOptions {
  readonly dir: string;
  readonly bundles: WorkerBundles;
  readonly onKill: () => void;
  readonly slowestReadMs?: number | undefined;
}

/** One kind of work under its share of the kills, in this process. */
export async function runKind(kind: SoakKind, kills: number, o: KindOptions): Promise<KindResult> {
  const { bundles, onKill } = o;
  const dirOf = (k: string) => {
    const d = path.join(o.dir, k);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  switch (kind) {
    case 'chaos':
      return chaosResult(
        await runChaos({
          dir: dirOf('chaos'),
          jobs: 100,
          untilKilled: true,
          workers: 4,
          kills,
          cancels: Math.ceil(kills / 10),
          recoverEveryMs: 700,
          steps: 8,
          stepMs: 6,
          killEveryMs: [20, 80],
          bundles,
          onKill,
          deadlineMs: 900_000,
        }),
      );
    case 'catalogue':
      return soakCatalogue({ dir: o.dir, kills, bundles, onKill });
    case 'imports':
      return soakImports({ dir: o.dir, kills, bundles, onKill });
    case 'look-up':
      return soakLookup({ dir: o.dir, kills, bundles, onKill });
    case 'upgrade':
      return soakUpgrade({ dir: o.dir, kills, bundles, onKill });
    case 'lock':
      // Half its spans end with a SIGKILL of the process holding the lock, the other half with a COMMIT.
      return soakLock({
        dir: o.dir,
        spans: Math.max(2, kills * 2),
        onKill,
        ...(o.slowestReadMs === undefined ? {} : { slowestReadMs: o.slowestReadMs }),
      });
    case 'postgres':
      return soakPostgres({ dir: o.dir, kills, bundles, onKill });
  }
}

/**
 * One kind of work in a process of its own (test/workers/soak-kind.ts), so that what one kind does on
 * its thread — a store checked whole after a kill, a store opened that waits for a lock — never holds up
 * another kind's timers, its stand-in server or the reads it times. It says `kill` per kill, then its row.
 */
async function kindInProcess(
  kind: SoakKind,
  kills: number,
  o: SoakOptions,
  bundles: WorkerBundles,
  onKill: () => void,
): Promise<KindResult> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'test', 'workers', 'soak-kind.ts'),
      kind,
      String(kills),
      o.dir,
      bundles.dir,
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        BRICK_WORK_SOAK_MUTATION: bundles.mutation ?? '',
        BRICK_WORK_SOAK_SLOWEST_READ_MS: o.slowestReadMs === undefined ? '' : String(o.slowestReadMs),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let result: KindResult | null = null;
  let rest = '';
  child.stdout.on('data', (d: Buffer) => {
    rest += d.toString();
    for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
      const line = rest.slice(0, end);
      rest = rest.slice(end + 1);
      if (line === 'kill') onKill();
      else if (line.startsWith('result ')) result = JSON.parse(line.slice('result '.length)) as KindResult;
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  if (result !== null) return result;
  const failed: KindResult = {
    kind,
    kills: 0,
    runs: 0,
    doubleRuns: 0,
    lostWork: 0,
    staleReasons: null,
    ownerLost: 0,
    integrity: 'not checked',
    problems: [`its process ended (exit ${code}) without a result`],
    notes: '',
    ms: 0,
  };
  return failed;
}
