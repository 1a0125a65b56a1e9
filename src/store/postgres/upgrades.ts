/**
 * A PostgreSQL store's own upgrade chain (ADR 0027 §4), from 4.2 where such a store is born: ordered
 * steps, each additive, all pending steps run in one transaction under the writer lock, the schema
 * version kept in `brick_work_meta`. None yet: 4.2 is where it begins.
 */
import type { StoreDb } from '../db.ts';

export interface PostgresUpgrade {
  readonly from: string;
  readonly to: string;
  up(db: StoreDb): void;
}

export const POSTGRES_UPGRADES: readonly PostgresUpgrade[] = [];
