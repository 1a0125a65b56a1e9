import os from 'node:os';
import path from 'node:path';
import { APP_NAME } from '../platform/version.ts';
import { isServerAddress } from '../vocabulary/store-location.ts';
import { addressHoldsPassword } from './postgres/address.ts';

export const STORE_FILE_NAME = 'brick-work.sqlite';

/**
 * The app's user-data folder, the same one Electron's `app.getPath('userData')` gives for an app
 * named brick-work, so that the app and the CLI share one store (SPEC §2).
 */
export function userDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), APP_NAME);
  const xdg = env['XDG_CONFIG_HOME'];
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), APP_NAME);
}

/**
 * Why a `--db` given on a command line can't be used, or null: a server address holding a password
 * shows it to every user of the computer (`ps`). PostgreSQL's own ways keep it out of sight (SPEC §14).
 */
export function passwordOnCommandLine(dbOption: string): string | null {
  if (!isServerAddress(dbOption) || !addressHoldsPassword(dbOption)) return null;
  return '--db holds a password, which every user of this computer can see in its list of processes: leave it out of the address (its user part and its password= alike) and give it in PGPASSWORD or ~/.pgpass, as psql reads them (nothing was opened)';
}

/** `--db FILE`, else `BRICK_WORK_DB`, else the user-data folder's `brick-work.sqlite`. */
export function resolveStorePath(dbOption: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = dbOption ?? env['BRICK_WORK_DB'];
  if (chosen) return isServerAddress(chosen) ? chosen : path.resolve(chosen);
  return path.join(userDataDir(env), STORE_FILE_NAME);
}
