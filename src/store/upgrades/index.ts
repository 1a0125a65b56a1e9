import { parseVersion, type SchemaVersion } from '../schema-version.ts';
import { createBaseline41 } from './baseline-4.1.ts';
import { STEP_4_1_TO_4_2 } from './step-4.1-to-4.2.ts';
import type { UpgradeStep } from './types.ts';

export type { UpgradeStep } from './types.ts';

/** The schema every store starts from: what 0.8.x wrote. */
export const BASELINE = { version: '4.1', create: createBaseline41 } as const;

/** Ordered upgrade steps, each from the `to` of the one before. Append only. */
export const UPGRADES: readonly UpgradeStep[] = [STEP_4_1_TO_4_2];

/** The schema this build reads and writes: the last step's `to`. */
export const CURRENT_SCHEMA: SchemaVersion = parseVersion(UPGRADES.at(-1)?.to ?? BASELINE.version);
export const BASELINE_SCHEMA: SchemaVersion = parseVersion(BASELINE.version);
