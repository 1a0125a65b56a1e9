import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { inspectStore } from '../../src/store/info.ts';
import { openStore } from '../../src/store/open.ts';
import { cliJson } from '../helpers/cli.ts';
import { buildFileWithHeader } from '../helpers/store-builder.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

async function refusal(file: string, readOnly: boolean): Promise<BrickWorkError> {
  try {
    const store = await openStore(file, { readOnly });
    store.close();
  } catch (e) {
    if (e instanceof BrickWorkError) return e;
    throw e;
  }
  throw new Error(`${file} was opened`);
}

const cases = [
  { name: 'a 4.3 store', userVersion: 403, code: 'store-too-new', names: ['4.3', '4.2'] },
  { name: 'a 5.1 store', userVersion: 501, code: 'store-too-new', names: ['5.1', '4.2'] },
  { name: 'a 4.0 store', userVersion: 400, code: 'store-too-old', names: ['4.0', '4.1', '4.2'] },
  { name: 'a 3.7 store', userVersion: 307, code: 'store-too-old', names: ['3.7', '4.1'] },
  {
    name: "another application's SQLite file",
    userVersion: 7,
    applicationId: 0x4d504258,
    code: 'not-a-store',
    names: ['0x4D504258', '0x42524B57'],
  },
] as const;

describe('files this build must not open', () => {
  for (const c of cases) {
    it(`refuses ${c.name} read-write and read-only, naming the versions, and leaves it byte-for-byte the same`, async () => {
      const dir = tempDir();
      const file = path.join(dir, 'brick-work.sqlite');
      buildFileWithHeader(file, {
        userVersion: c.userVersion,
        ...('applicationId' in c ? { applicationId: c.applicationId } : {}),
      });
      const hash = sha256(file);

      for (const readOnly of [false, true]) {
        const e = await refusal(file, readOnly);
        expect(e.code).toBe(c.code);
        for (const n of c.names) expect(e.message).toContain(n);
        expect(e.message).toContain('left untouched');
      }
      const r = await cliJson(['--db', file, 'store', 'upgrade']);
      expect(r.code).toBe(1);
      expect(r.json.error.code).toBe(c.code);
      expect(r.stderr).toContain(c.names[0]);

      expect(sha256(file)).toBe(hash);
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.bak'))).toEqual([]);
    });
  }

  it('reports the version of a newer or older store with store info, read-only', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    buildFileWithHeader(file, { userVersion: 403 });
    const hash = sha256(file);
    expect(inspectStore(file)).toMatchObject({ schema: '4.3', status: 'too-new', appSchema: '4.2' });
    const r = await cliJson(['--db', file, 'store', 'info']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ schema: '4.3', applicationId: 0x42524b57, path: file });
    expect(sha256(file)).toBe(hash);
  });

  it('never makes a store of a small file that is not SQLite: one byte is not a store, and stays (issue 26, point 4)', async () => {
    for (const content of ['\n', 'x', 'hello']) {
      const dir = tempDir();
      const file = path.join(dir, 'brick-work.sqlite');
      fs.writeFileSync(file, content);
      for (const readOnly of [false, true]) expect((await refusal(file, readOnly)).code).toBe('not-a-store');
      const r = await cliJson(['--db', file, 'settings', 'currency', 'EUR']);
      expect(r.code, JSON.stringify(content)).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'not-a-store' });
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
      expect(fs.readdirSync(dir)).toEqual(['brick-work.sqlite']);
    }
  });

  it('refuses a file that is not SQLite at all, and leaves it alone', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'notes.sqlite');
    fs.writeFileSync(file, 'These are my notes, not a database.\n'.repeat(200));
    const hash = sha256(file);
    for (const readOnly of [false, true]) expect((await refusal(file, readOnly)).code).toBe('not-a-store');
    const r = await cliJson(['--db', file, 'store', 'info']);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'not-a-store' });
    expect(sha256(file)).toBe(hash);
  });
});
