/**
 * BrickLink's credentials where a shell has no keychain (SPEC §5): read from `BRICKLINK_*` of the
 * environment, kept in memory only.
 */
import { credentialsFromEnv } from '../catalogue/bricklink/oauth.ts';
import type { CredentialStore } from '../api/ports.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';

/** The browser host's: those of the environment at its start, replaced by what Settings enters, for this run. */
export function credentialsInMemory(env: NodeJS.ProcessEnv): CredentialStore {
  let credentials = credentialsFromEnv(env).credentials;
  return { encrypted: false, get: () => credentials, set: (c) => (credentials = c) };
}

/** The CLI's: those of the environment alone; a refusal for want of them names the variables to set. */
export function credentialsFromEnvironment(env: NodeJS.ProcessEnv): CredentialStore {
  const { credentials, missing } = credentialsFromEnv(env);
  return {
    encrypted: false,
    whereToEnter: `set ${missing.join(', ')} in the environment`,
    get: () => credentials,
    set: () => {
      throw new BrickWorkError('invalid-argument', 'The CLI reads the BrickLink credentials from BRICKLINK_*.');
    },
  };
}
