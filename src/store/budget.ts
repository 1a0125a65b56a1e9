/** The BrickLink calls counted per UTC day (`call_budget`, SPEC §5); the limit is a setting. */
import type { ReadableDb, StoreDb } from './db.ts';

/** The calls counted on `day` (a UTC date). */
export function callsMadeOn(db: ReadableDb, day: string): number {
  return (db.prepare('SELECT calls FROM call_budget WHERE day = ?').pluck().get(day) as number | undefined) ?? 0;
}

/** Counts one call more on `day`. */
export function countCallOn(db: StoreDb, day: string): void {
  db.prepare(
    'INSERT INTO call_budget (day, calls) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET calls = call_budget.calls + 1',
  ).run(day);
}
