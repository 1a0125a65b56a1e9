import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/cli.ts';
import { populate41 } from '../helpers/fixtures.ts';
import { buildStore } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

describe('brick-work store …', () => {
  it('store upgrade --json upgrades a 4.1 file and names its backup; a second run has nothing to do', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const db = buildStore(file, '4.1');
    populate41(db);
    db.close();

    const first = await cliJson(['--db', file, 'store', 'upgrade']);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ schema: '4.2', upgradedFrom: '4.1', backup: `${file}.4.1.bak` });
    expect(first.stderr).toContain(`${file}.4.1.bak`);
    expect(fs.existsSync(`${file}.4.1.bak`)).toBe(true);

    const second = await cliJson(['store', 'upgrade', '--db', file]);
    expect(second.json).toMatchObject({ schema: '4.2', upgradedFrom: null, backup: null });

    const text = await cli(['--db', file, 'store', 'info']);
    expect(text.stdout).toMatch(/schema\s+4\.2 \(current\)/);
    expect(text.stdout).toMatch(/application id\s+0x42524B57/);
  });

  it('store info --json has the fields of SPEC §10', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    buildStore(file, '4.2').close();
    const r = await cliJson(['store', 'info', '--db', file]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ schema: '4.2', applicationId: 0x42524b57, path: file });
    expect(r.json.counts).toMatchObject({ items: 0, orders: 0, lines: 0, jobs: 0 });
  });

  it('finds the store through BRICK_WORK_DB, and --db wins over it', async () => {
    const dir = tempDir();
    const fromEnv = path.join(dir, 'env.sqlite');
    const fromOption = path.join(dir, 'option.sqlite');
    await cli(['store', 'upgrade'], { BRICK_WORK_DB: fromEnv });
    expect(fs.existsSync(fromEnv)).toBe(true);
    await cli(['--db', fromOption, 'store', 'upgrade'], { BRICK_WORK_DB: fromEnv });
    expect(fs.existsSync(fromOption)).toBe(true);
    const info = await cliJson(['store', 'info'], { BRICK_WORK_DB: fromEnv });
    expect(info.json.path).toBe(fromEnv);
  });

  it('uses the user-data folder when no store is named', async () => {
    const config = tempDir();
    const r = await cliJson(['store', 'upgrade'], { XDG_CONFIG_HOME: config, HOME: config });
    expect(r.code).toBe(0);
    expect(r.json.path).toBe(path.join(config, 'brick-work', 'brick-work.sqlite'));
  });

  it('exits 2 with the usage on bad usage, and 0 with --help', async () => {
    const unknown = await cli(['store', 'explode']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: brick-work');
    const badOption = await cliJson(['store', 'info', '--frobnicate']);
    expect(badOption.code).toBe(2);
    expect(badOption.json.error.code).toBe('invalid-argument');
    const extra = await cli(['store', 'info', 'extra']);
    expect(extra.code).toBe(2);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('store info');
    const nothing = await cli([]);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain('usage: brick-work');
  });

  it('exits 1 on a refusal, with the message on stderr and {"error":{code,message}} on stdout', async () => {
    const file = path.join(tempDir(), 'notes.txt');
    fs.writeFileSync(file, 'not a database at all, just some text that is long enough\n'.repeat(100));
    const r = await cliJson(['--db', file, 'store', 'info']);
    expect(r.code).toBe(1);
    expect(Object.keys(r.json)).toEqual(['error']);
    expect(r.json.error.code).toBe('not-a-store');
    expect(r.json.error.message).toContain('not a brick-work store');
    expect(r.stderr).toContain('not a brick-work store');
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  });
});
