import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { headerFromBytes, walPage1 } from '../../src/store/header-bytes.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { sha256, tempDir } from '../helpers/temp.ts';

/** Sets the header values in a process killed before it closes: the commits stay in the WAL only. */
function commitToWalAndDie(file: string, statements: string[]): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('wal_autocheckpoint = 0');
    for (const s of JSON.parse(process.argv[2])) db.exec(s);
    process.kill(process.pid, 'SIGKILL');`;
  spawnSync(process.execPath, ['-e', script, file, JSON.stringify(statements)], { cwd: REPO_ROOT });
}

describe('a store’s header read from its bytes, SQLite never opened (issue 45)', () => {
  it('reads page 1 as the last commit left it: the WAL’s newest committed copy, else the file’s', () => {
    const file = path.join(tempDir(), 'store.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x); PRAGMA application_id = 1112689495; PRAGMA user_version = 401;');
    db.close(); // checkpointed: all in the file
    expect(walPage1(`${file}-wal`)).toBeNull();
    expect(headerFromBytes(file)).toEqual({ applicationId: 1112689495, userVersion: 401 });

    commitToWalAndDie(file, ['PRAGMA user_version = 402', "INSERT INTO t VALUES ('a')", 'PRAGMA user_version = 403']);
    const files = [file, `${file}-wal`, `${file}-shm`].map(sha256);
    expect(headerFromBytes(file)).toEqual({ applicationId: 1112689495, userVersion: 403 });
    expect([file, `${file}-wal`, `${file}-shm`].map(sha256)).toEqual(files); // read, nothing changed

    // What SQLite itself says, on a copy.
    const copy = path.join(tempDir(), 'copy.sqlite');
    fs.copyFileSync(file, copy);
    fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
    const sqlite = new Database(copy, { readonly: true });
    expect(sqlite.pragma('user_version', { simple: true })).toBe(403);
    sqlite.close();
  });

  it('a torn last frame or a damaged checksum ends the WAL there: the commit before it counts', () => {
    const file = path.join(tempDir(), 'store.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x); PRAGMA application_id = 1112689495; PRAGMA user_version = 401;');
    db.close();
    commitToWalAndDie(file, ['PRAGMA user_version = 402', 'PRAGMA user_version = 403']);
    const wal = fs.readFileSync(`${file}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const frame = 24 + pageSize;
    const frames = (wal.length - 32) / frame;
    expect(frames).toBeGreaterThanOrEqual(2);
    // The last commit cut off mid-page: the one before it is the store.
    fs.writeFileSync(`${file}-wal`, wal.subarray(0, 32 + (frames - 1) * frame + 100));
    expect(headerFromBytes(file)?.userVersion).toBe(402);
    // A byte of the last frame changed: its checksum fails, so it never happened.
    const garbled = Buffer.from(wal);
    garbled[wal.length - 10] = (garbled[wal.length - 10] ?? 0) ^ 0xff;
    fs.writeFileSync(`${file}-wal`, garbled);
    expect(headerFromBytes(file)?.userVersion).toBe(402);
    // A WAL header that is not SQLite's: the file alone.
    fs.writeFileSync(`${file}-wal`, Buffer.alloc(64, 7));
    expect(headerFromBytes(file)?.userVersion).toBe(401);
  });
});
