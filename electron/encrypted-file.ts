import fs from 'node:fs';
import type { SafeStorage } from 'electron';
import { BrickWorkError } from '../src/vocabulary/errors.ts';
import { writeFileAtomically } from '../src/platform/files.ts';

/**
 * A secret of the desk's (the BrickLink credentials, the shop server's password) in a file of the app's
 * user-data folder, encrypted with Electron's safeStorage (the operating system's keychain); never logged,
 * never sent to the screen. `valid` tells a whole value from a damaged or foreign one (read as none).
 *
 * A keychain that won't give the key back — Deny pressed, the keychain locked, or (macOS) a build signed
 * differently from the one that stored it — is not "nothing stored": `get` throws `keychain-refused` in
 * words that say what to do, so a desk set up for the shop's server never opens another store silently.
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
      let sealed: Buffer;
      try {
        sealed = fs.readFileSync(file);
      } catch {
        return null; // none stored (or the folder can't be read: nothing to give either way)
      }
      let text: string;
      try {
        if (!safeStorage.isEncryptionAvailable()) throw new Error('no encryption available now');
        text = safeStorage.decryptString(sealed);
      } catch {
        throw keychainRefused(what, 'read');
      }
      try {
        const value: unknown = JSON.parse(text);
        return valid(value) ? value : null;
      } catch {
        return null; // opened, but not a value of ours (damaged, or an older shape): as none stored
      }
    },
    set(value: T): void {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new BrickWorkError(
          'invalid-argument',
          `This computer offers no encrypted storage for ${what}, so ${what === 'the BrickLink credentials' ? 'they were' : 'it was'} not stored.`,
        );
      }
      let sealed: Buffer;
      try {
        sealed = safeStorage.encryptString(JSON.stringify(value));
      } catch {
        throw keychainRefused(what, 'store');
      }
      writeFileAtomically(file, sealed);
    },
    clear(): void {
      fs.rmSync(file, { force: true });
    },
  };
}

/** The keychain's refusal, in staff's words: what it kept back, why that happens, and what to do. */
export function keychainRefused(what: string, doing: 'read' | 'store'): BrickWorkError {
  return new BrickWorkError(
    'keychain-refused',
    `This computer’s keychain did not let brick-work ${doing} ${what}: access was denied, the keychain is ` +
      'locked' +
      (doing === 'read' ? ', or another copy of brick-work stored it (a new version or a developer build)' : '') +
      '. Try again and choose Allow (or Always Allow) when the keychain asks, or unlock the keychain first.',
  );
}
