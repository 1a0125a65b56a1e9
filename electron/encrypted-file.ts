import fs from 'node:fs';
import type { SafeStorage } from 'electron';
import { BrickWorkError } from '../src/errors.ts';
import { writeFileAtomically } from '../src/files.ts';

/**
 * A secret of the desk's (the BrickLink credentials, the shop server's password) in a file of the app's
 * user-data folder, encrypted with Electron's safeStorage (the operating system's keychain); never logged,
 * never sent to the screen. `valid` tells a whole value from a damaged or foreign one (read as none).
 */
export function encryptedFile<T>(
  safeStorage: SafeStorage,
  file: string,
  what: string,
  valid: (value: unknown) => value is T,
) {
  return {
    get encrypted() {
      return safeStorage.isEncryptionAvailable();
    },
    get(): T | null {
      if (!fs.existsSync(file)) return null;
      try {
        const value: unknown = JSON.parse(safeStorage.decryptString(fs.readFileSync(file)));
        return valid(value) ? value : null;
      } catch {
        return null;
      }
    },
    set(value: T): void {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new BrickWorkError(
          'invalid-argument',
          `This computer offers no encrypted storage for ${what}, so ${what === 'the BrickLink credentials' ? 'they were' : 'it was'} not stored.`,
        );
      }
      writeFileAtomically(file, safeStorage.encryptString(JSON.stringify(value)));
    },
    clear(): void {
      fs.rmSync(file, { force: true });
    },
  };
}
