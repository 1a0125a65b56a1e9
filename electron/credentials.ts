import fs from 'node:fs';
import path from 'node:path';
import type { SafeStorage } from 'electron';
import type { CredentialStore } from '../src/api/ports.ts';
import type { Credentials } from '../src/app/environment.ts';
import { BrickWorkError } from '../src/errors.ts';
import { writeFileAtomically } from '../src/files.ts';

/**
 * The BrickLink credentials, encrypted with Electron's safeStorage (the operating system's keychain)
 * in a file of the app's user-data folder; never logged, never sent to the screen.
 */
export function safeStorageCredentials(safeStorage: SafeStorage, userData: string): CredentialStore {
  const file = path.join(userData, 'bricklink-credentials.bin');
  return {
    get encrypted() {
      return safeStorage.isEncryptionAvailable();
    },
    get(): Credentials | null {
      if (!fs.existsSync(file)) return null;
      try {
        const data = JSON.parse(safeStorage.decryptString(fs.readFileSync(file))) as Credentials;
        return data.consumerKey && data.consumerSecret && data.token && data.tokenSecret ? data : null;
      } catch {
        return null;
      }
    },
    set(credentials: Credentials): void {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new BrickWorkError(
          'invalid-argument',
          'This computer offers no encrypted storage for the BrickLink credentials, so they were not stored.',
        );
      }
      const bytes = safeStorage.encryptString(JSON.stringify(credentials));
      writeFileAtomically(file, bytes);
    },
  };
}
