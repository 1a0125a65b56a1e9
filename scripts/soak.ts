/**
 * `npm run soak [-- KILLS]`: the fault injection at scale, over every kind of work that claims or
 * writes — `chaos` jobs, catalogue loads, document imports and their undo, the look-up job against the
 * BrickLink stand-in, the 4.1 → 4.2 upgrade, the host under a held lock, and desks on a PostgreSQL
 * server (SIGKILLed or cut off; skipped, and said so, without PostgreSQL) — all at once, with KILLS
 * kills in all (1,000 by default). Prints a table (kind, kills, runs, double runs, lost work, stale
 * reasons, owner lost, integrity), then everything that went wrong, then `soak: ok` or `soak: FAILED`
 * (exit 1). `test/helpers/soak.ts` is the harness; docs/jobs.md says what each kind checks.
 *
 * BRICK_WORK_SOAK_MUTATION=no-owner-check (or owners-look-dead, no-session-check) puts that fault into the workers:
 * the soak must then fail — the mutation check of test/jobs/fault-injection.test.ts, at full size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kindOk, soakTable } from '../test/helpers/soak-checks.ts';
import { runSoak, SOAK_KINDS, type SoakKind } from '../test/helpers/soak.ts';
import { MUTATIONS, type Mutation } from '../test/helpers/soak-workers.ts';
import { SLOWEST_READ_MS } from '../test/helpers/soak-lock.ts';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args.splice(onlyAt, 2)[1] ?? '').split(',') : null;
const kills = Number(args[0] ?? 1000);
if (
  !Number.isSafeInteger(kills) ||
  kills < 1 ||
  args.length > 1 ||
  (only !== null && !only.every((k) => (SOAK_KINDS as readonly string[]).includes(k)))
) {
  console.error(
    `usage: npm run soak [-- KILLS] [--only KIND,…]   (KILLS: kills in all — SIGKILLs, and cut connections on the PostgreSQL desks — 1,000 by default; KIND: ${SOAK_KINDS.join(', ')})`,
  );
  process.exit(2);
}
const mutation = process.env['BRICK_WORK_SOAK_MUTATION'] || null;
if (mutation !== null && !(mutation in MUTATIONS)) {
  console.error(`BRICK_WORK_SOAK_MUTATION: one of ${Object.keys(MUTATIONS).join(', ')}`);
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-soak-'));
console.log(
  `soak: ${kills} kills (SIGKILLs, and cut connections on the PostgreSQL desks) over every kind of work, in ${dir}${mutation ? ` — with mutation ${mutation}` : ''}`,
);
const t0 = performance.now();
try {
  const rows = await runSoak({
    dir,
    kills,
    ...(only ? { kinds: only as SoakKind[] } : {}),
    ...(mutation ? { mutation: mutation as Mutation } : {}),
    // The screens' reads never wait for another process's write lock: one slower than a second fails the soak.
    slowestReadMs: SLOWEST_READ_MS,
    // Each kind in its own process: a store one kind checks after a kill never holds up another kind.
    processes: true,
    onKill: (n) => {
      if (n % 100 === 0) console.log(`  ${n} kills, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    },
    onKind: (r) => console.log(`  ${r.kind} finished in ${(r.ms / 1000).toFixed(1)} s, ${r.kills} kills: ${r.notes}`),
    onSkip: (kind, why) => console.log(`  ${kind}: skipped — ${why}; its kills go to the other kinds`),
  });
  console.log('');
  console.log(soakTable(rows));
  console.log('');
  for (const r of rows) {
    if (r.problems.length === 0) continue;
    console.log(`${r.kind}: what went wrong (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 12)) console.log(`- ${p}`);
    if (r.problems.length > 12) console.log(`… and ${r.problems.length - 12} more`);
    console.log('');
  }
  const ok = rows.every(kindOk);
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(ok ? 'soak: ok' : 'soak: FAILED');
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
