import type { Database } from 'better-sqlite3';

/** One schema upgrade: additive only (new tables, new columns, data filled in). */
export interface UpgradeStep {
  readonly from: string;
  readonly to: string;
  up(db: Database, progress: (message: string) => void): void;
}
