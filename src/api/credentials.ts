/**
 * The BrickLink credentials as a desk holds them: stored, none, or kept back by the computer's keychain
 * (issue 44). A refusal is never read as "none stored": the screens say it, with what to do.
 */
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { BrickWorkError } from '../errors.ts';
import type { CredentialStore } from './ports.ts';

export interface CredentialsRead {
  readonly credentials: Credentials | null;
  /** The keychain's refusal in staff's words, or null. */
  readonly refused: string | null;
}

export function readCredentials(store: Pick<CredentialStore, 'get'>): CredentialsRead {
  try {
    return { credentials: store.get(), refused: null };
  } catch (e) {
    if (e instanceof BrickWorkError && e.code === 'keychain-refused') return { credentials: null, refused: e.message };
    throw e;
  }
}

/** A read as a store again (a thread's copy of the main thread's): its refusal is thrown again, as the keychain's was. */
export function credentialsAsRead(read: () => CredentialsRead): () => Credentials | null {
  return () => {
    const { credentials, refused } = read();
    if (refused !== null) throw new BrickWorkError('keychain-refused', refused);
    return credentials;
  };
}
