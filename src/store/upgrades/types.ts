import type { StoreDb } from '../db.ts';

/** One schema upgrade: additive only (new tables, new columns, data filled in). */
export interface UpgradeStep {
  readonly from: string;
  readonly to: string;
  up(db: StoreDb, progress: (message: string) => void): void;
}
