import path from 'node:path';
import type { SafeStorage } from 'electron';
import type { CredentialStore, ShopServerConfig, ShopServerPort } from '../src/api/ports.ts';
import { encryptedFile } from './encrypted-file.ts';

type Credentials = NonNullable<ReturnType<CredentialStore['get']>>;

/** The BrickLink credentials, encrypted in `bricklink-credentials.bin` of the app's user-data folder. */
export function safeStorageCredentials(safeStorage: SafeStorage, userData: string): CredentialStore {
  const file = encryptedFile(
    safeStorage,
    path.join(userData, 'bricklink-credentials.bin'),
    'the BrickLink credentials',
    (v): v is Credentials => {
      const c = v as Partial<Credentials> | null;
      return Boolean(c?.consumerKey && c.consumerSecret && c.token && c.tokenSecret);
    },
  );
  return {
    get encrypted() {
      return file.encrypted;
    },
    get: () => file.get(),
    set: (credentials) => file.set(credentials),
  };
}

/** Settings → Shop server (SPEC §14): the server and its password, encrypted like the credentials. */
export function safeStorageShopServer(safeStorage: SafeStorage, userData: string): ShopServerPort {
  return encryptedFile(
    safeStorage,
    path.join(userData, 'shop-server.bin'),
    'the shop server’s password',
    (v): v is ShopServerConfig => {
      const c = v as Partial<ShopServerConfig> | null;
      return (
        typeof c?.host === 'string' &&
        Number.isSafeInteger(c.port) &&
        typeof c.database === 'string' &&
        typeof c.user === 'string' &&
        typeof c.password === 'string'
      );
    },
  );
}
