/**
 * What `brick-work store info` reads of any store file, whatever its version — even one this brick-work
 * refuses to open — through the composition root (the CLI reaches nothing below `src/app/`).
 */
import { formatVersion } from '../store/schema-version.ts';
import { CURRENT_SCHEMA } from '../store/upgrades/index.ts';

export { formatApplicationId } from '../store/application-id.ts';
export { inspectStore, type StoreInfo } from '../store/info.ts';

/** The schema this brick-work reads and writes, as "4.2". */
export const APP_SCHEMA = formatVersion(CURRENT_SCHEMA);
