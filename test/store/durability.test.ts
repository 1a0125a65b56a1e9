import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * Issue 44, point 5: a commit reaches the disk on a Mac too. There a plain fsync leaves the data in the
 * drive's cache: the store's one open path asks SQLite for F_FULLFSYNC (`fullfsync`, and
 * `checkpoint_fullfsync` for the WAL's checkpoints). The platform is injected: SQLite takes the pragmas
 * everywhere and uses them where the system has F_FULLFSYNC.
 */
describe('what makes a commit reach the disk', () => {
  const pragmas = async (platform?: NodeJS.Platform) => {
    const store = await openStore(path.join(tempDir(), 'brick-work.sqlite'), platform ? { platform } : {});
    onTestFinished(() => store.close());
    const read = (name: string) => Number(store.db.pragma(name, { simple: true }));
    return { synchronous: read('synchronous'), fullfsync: read('fullfsync'), checkpoint: read('checkpoint_fullfsync') };
  };

  it('on macOS: synchronous FULL with F_FULLFSYNC for commits and checkpoints', async () => {
    expect(await pragmas('darwin')).toEqual({ synchronous: 2, fullfsync: 1, checkpoint: 1 });
  });

  it('elsewhere: synchronous FULL, whose fsync reaches the disk there', async () => {
    expect(await pragmas('linux')).toEqual({ synchronous: 2, fullfsync: 0, checkpoint: 0 });
    expect(await pragmas('win32')).toEqual({ synchronous: 2, fullfsync: 0, checkpoint: 0 });
    // This machine's own open, as the app and the CLI make it.
    const own = await pragmas();
    expect(own.fullfsync).toBe(process.platform === 'darwin' ? 1 : 0);
  });
});
