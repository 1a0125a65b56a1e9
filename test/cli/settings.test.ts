import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliJson } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

describe('brick-work settings', () => {
  it('shows the defaults, changes a setting, checks values, and refuses unknown keys', async () => {
    const db = path.join(tempDir(), 'brick-work.sqlite');
    expect((await cliJson(['--db', db, 'settings'])).json).toEqual({
      settings: {
        dailyCallLimit: '5000',
        currency: 'USD',
        apiUrl: 'https://api.bricklink.com/api/store/v1',
        numbering: 'bricklink',
        credentialsStored: false,
        credentialsEncrypted: false,
        credentialsRefused: null,
      },
    });
    expect((await cliJson(['--db', db, 'settings', 'daily-call-limit', '1200'])).json).toEqual({
      key: 'daily-call-limit',
      value: '1200',
    });
    expect((await cliJson(['--db', db, 'settings', 'currency', 'eur'])).json).toEqual({
      key: 'currency',
      value: 'EUR',
    });
    expect((await cliJson(['--db', db, 'settings', 'daily-call-limit'])).json).toEqual({
      key: 'daily-call-limit',
      value: '1200',
    });
    const bad = await cliJson(['--db', db, 'settings', 'currency', 'euros']);
    expect(bad.code).toBe(1);
    expect(bad.json.error).toMatchObject({ code: 'invalid-argument' });
    expect((await cliJson(['--db', db, 'settings', 'api-url', 'ftp://example.com'])).code).toBe(1);
    expect((await cliJson(['--db', db, 'settings', 'colour', 'red'])).code).toBe(2);
    // The shop numbering (issue 43): BrickLink's or Rebrickable's, nothing else.
    expect((await cliJson(['--db', db, 'settings', 'numbering', 'Rebrickable'])).json).toEqual({
      key: 'numbering',
      value: 'rebrickable',
    });
    expect((await cliJson(['--db', db, 'settings', 'numbering', 'ldraw'])).json.error.message).toBe(
      'The shop numbering is bricklink or rebrickable, not "ldraw".',
    );
  });
});
