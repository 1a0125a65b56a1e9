/**
 * The BrickLink credentials as a desk holds them: stored, none, or kept back by the computer's keychain
 * (issue 44). A refusal is never read as "none stored": the screens say it, with what to do.
 */
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
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

/** None stored: what to do, in this host's words (the app: its Settings; the CLI: its environment). */
export function missingCredentials(whereToEnter?: string): BrickWorkError {
  return new BrickWorkError(
    'no-credentials',
    `The look-up asks BrickLink with the shop’s API credentials, and none are stored yet: ${whereToEnter ?? 'enter them in Settings → BrickLink credentials first'}.`,
  );
}

/**
 * Why a call that needs the credentials would be refused for want of them, or null: asked before the
 * call waits for anything (the writer thread, the store's lock), so it is refused at once (issue 45).
 */
export function credentialsRefusal(store: Pick<CredentialStore, 'get' | 'whereToEnter'>): BrickWorkError | null {
  const { credentials, refused } = readCredentials(store);
  if (refused !== null) return new BrickWorkError('keychain-refused', refused);
  return credentials === null ? missingCredentials(store.whereToEnter) : null;
}
