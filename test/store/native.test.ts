import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useNativeBinding } from '../../src/store/native.ts';
import { openStore } from '../../src/store/open.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

afterEach(() => useNativeBinding(null));

describe('one better-sqlite3 binary per ABI (nativeBinding)', () => {
  it('opens every store connection through the binary it is told to use', async () => {
    useNativeBinding(path.join(tempDir(), 'electron-v999', 'better_sqlite3.node'));
    await expect(openStore(path.join(tempDir(), 's.sqlite'))).rejects.toThrow(/electron-v999/);
    useNativeBinding(path.join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
    const store = await openStore(path.join(tempDir(), 's.sqlite'));
    expect(store.db.pragma('user_version', { simple: true })).toBe(402);
    store.close();
  });
});
