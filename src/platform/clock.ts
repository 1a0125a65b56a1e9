/**
 * The wall clock, injectable. It stamps rows (claimed_at, imported_at …) and names the UTC day of the
 * BrickLink budget; it never decides whether a job's owner is alive (SPEC §3).
 */
export interface Clock {
  now(): Date;
}

export const SYSTEM_CLOCK: Clock = { now: () => new Date() };

/** A clock shifted by `ms` from another: for tests that move time. */
export function shiftedClock(ms: number, base: Clock = SYSTEM_CLOCK): Clock {
  return { now: () => new Date(base.now().getTime() + ms) };
}

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** The UTC date, `yyyy-mm-dd`: BrickLink's budget day. */
export function utcDay(clock: Clock): string {
  return clock.now().toISOString().slice(0, 10);
}

/** The UTC day after today: when a used-up BrickLink budget starts again. */
export function nextUtcDay(clock: Clock): string {
  const d = new Date(`${utcDay(clock)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A stored time as messages show it: UTC, to the minute (`2026-11-30 18:25`). */
export function shownTime(iso: string | null): string {
  return iso === null ? 'an unknown time' : iso.slice(0, 16).replace('T', ' ');
}
