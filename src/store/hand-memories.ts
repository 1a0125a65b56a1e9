import type { StoreDb } from './db.ts';

/** The tables of what staff taught by hand (SPEC §8): item memories, colour memories, taught names. */
export type MemoryTable = 'hand_placement' | 'colour_placement' | 'taught_name';

/** A memory's row as it is now, every column by name; undefined when it is gone. */
export function memoryRow(
  db: StoreDb,
  table: MemoryTable,
  id: number,
): Record<string, string | number | null> | undefined {
  return db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as
    Record<string, string | number | null> | undefined;
}
