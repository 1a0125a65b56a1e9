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
        pictures: 'on',
        pictureDays: '90',
        pictureCacheMb: '500',
        pictureUrl: 'https://img.bricklink.com',
        renderUrl: 'https://cdn.rebrickable.com',
        rowPictures: 'on',
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
    // Pictures (issue 48): on or off, whole days, a cap in MB, the servers' bases as URLs.
    expect((await cliJson(['--db', db, 'settings', 'pictures', 'OFF'])).json).toEqual({
      key: 'pictures',
      value: 'off',
    });
    expect((await cliJson(['--db', db, 'settings', 'pictures', 'maybe'])).json.error.message).toBe(
      'Pictures are on or off, not "maybe".',
    );
    expect((await cliJson(['--db', db, 'settings', 'picture-days', '0'])).code).toBe(1);
    expect((await cliJson(['--db', db, 'settings', 'picture-cache-mb', '50'])).json.value).toBe('50');
    expect((await cliJson(['--db', db, 'settings', 'picture-url', 'http://127.0.0.1:9/'])).json.value).toBe(
      'http://127.0.0.1:9',
    );
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
