/**
 * Settings → This desk (issue 46, point 1; SPEC §8): the app keeps the desk's name beside its other
 * choices of this computer; renamed, the app's writer thread writes the next steps as the new name, and
 * the desk's Undo names them; a desk named at its start (`--desk`) is shown, not renamed.
 */
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { DeskNamePort } from '../../src/api/ports.ts';
import { startCore } from '../../src/app/core.ts';
import { openStore } from '../../src/store/open.ts';
import { csv, file } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

async function appWith(options: { deskName?: DeskNamePort; desk?: string }) {
  const storePath = path.join(tempDir(), 'brick-work.sqlite');
  (await openStore(storePath)).close();
  const core = await startCore({
    storePath,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    serviceWorkerUrl: new URL('../../src/app/service-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: () => {},
    log: () => {},
    ...options,
  });
  onTestFinished(() => core.close());
  const call = async (name: string, args: unknown) => {
    const a = await core.service.call(name, args);
    if (!a.ok) throw new Error(`${a.error.code}: ${a.error.message}`);
    return a.value as any;
  };
  return { core, call };
}

const doc = (name: string) => file(name, csv(['number', 'name', 'quantity'], [['x-1', 'Unknown', 1]]));

it('a desk renamed in Settings: its writer thread writes the next steps as the new name, kept for the next start', async () => {
  let kept: string | null = 'Counter 1';
  const { call } = await appWith({ deskName: { get: () => kept, set: (n) => void (kept = n) } });
  expect(await call('desk.get', {})).toMatchObject({ name: 'Counter 1', canChange: true });
  await call('import.confirm', { file: doc('first.csv') });
  expect(await call('desk.set', { name: '  Counter 2 ' })).toMatchObject({ name: 'Counter 2' });
  expect(kept).toBe('Counter 2');
  await call('import.confirm', { file: doc('second.csv') });
  const history = await call('history.list', {});
  expect(history.steps.map((s: { desk: string }) => s.desk)).toEqual(['Counter 2', 'Counter 1']);
  expect((await call('history.state', {})).undo).toMatchObject({
    desk: 'Counter 2',
    label: expect.stringContaining('second.csv'),
  });
  // A name no desk can have is refused in words.
  await expect(call('desk.set', { name: '   ' })).rejects.toThrow(
    /invalid-argument: That name can't be used: a desk needs a name/,
  );
});

it('a desk named at its start (--desk) is shown, not renamed here', async () => {
  const { call } = await appWith({ desk: 'Host desk' });
  expect(await call('desk.get', {})).toMatchObject({ name: 'Host desk', canChange: false });
  await expect(call('desk.set', { name: 'Other' })).rejects.toThrow(/--desk NAME/);
});
