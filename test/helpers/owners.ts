import type { OwnerIdentity } from '../../src/identity/owner.ts';

/**
 * The same pid in another life — the process that had it before, or will have it after — which the rule
 * of SPEC §3 calls dead: where /proc answers, another start time (`by` ticks away); where only the pid
 * and the boot can be told (macOS), the same pid in another boot. So the tests of a reused pid hold on
 * a developer's Mac as on Linux.
 */
export function anotherLife(owner: OwnerIdentity, by = 1): OwnerIdentity {
  if (owner.startTicks !== null) return { ...owner, startTicks: owner.startTicks + by };
  if (owner.bootId?.startsWith('pid-only:') === true) {
    return { ...owner, bootId: 'pid-only:00000000-0000-4000-8000-000000000000' };
  }
  throw new Error(`this platform tells one life of pid ${owner.pid} from another by neither start time nor boot`);
}
