/**
 * One kind of `npm run soak`'s work in a process of its own (test/helpers/soak.ts `kindInProcess`):
 * `soak-kind.ts KIND KILLS DIR WORKERS_DIR`. Prints `kill` at each kill, then `result {…}`, its row.
 */
import { runKind, SOAK_KINDS, type SoakKind } from '../helpers/soak.ts';
import { MUTATIONS, workersIn, type Mutation } from '../helpers/soak-workers.ts';

const [kind, kills, dir, workers] = process.argv.slice(2);
const mutation = process.env['BRICK_WORK_SOAK_MUTATION'] || null;
const slowest = process.env['BRICK_WORK_SOAK_SLOWEST_READ_MS'] || null;
if (
  !(SOAK_KINDS as readonly string[]).includes(kind ?? '') ||
  !Number.isSafeInteger(Number(kills)) ||
  dir === undefined ||
  workers === undefined ||
  (mutation !== null && !(mutation in MUTATIONS))
) {
  console.error('usage: soak-kind.ts KIND KILLS DIR WORKERS_DIR');
  process.exit(2);
}
const result = await runKind(kind as SoakKind, Number(kills), {
  dir,
  bundles: workersIn(workers, mutation as Mutation | null),
  onKill: () => process.stdout.write('kill\n'),
  slowestReadMs: slowest === null ? undefined : Number(slowest),
});
// Whatever a kind left open (a pool, a timer) does not keep its row from the parent: out once it is written.
process.stdout.write(`result ${JSON.stringify(result)}\n`, () => process.exit(0));
