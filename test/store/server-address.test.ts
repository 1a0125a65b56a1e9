/**
 * Issue 62 §3: every parameter a shop server's address may carry is checked before any connection is
 * tried, in words — none reaches the driver to answer `internal`, read a device, or take a password from
 * the command line. No server is needed: each is refused before one would be asked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { checkServerAddress, MAX_ADDRESS_FILE_BYTES } from '../../src/store/postgres/address.ts';
import { cliJson } from '../helpers/cli.ts';

/** No server listens here: anything that got past the checks would be refused as unreachable, not these words. */
const BASE = 'postgres://brick_work@127.0.0.1:1/shop';

function refusal(url: string): { code: string; message: string } {
  try {
    checkServerAddress(url);
  } catch (e) {
    if (e instanceof BrickWorkError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error(`${url} was not refused`);
}

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-address-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("a shop server's address, checked before connecting (issue 62 §3)", () => {
  it('a port out of range, as a parameter too', () => {
    expect(refusal(`${BASE}?port=99999`)).toEqual({
      code: 'invalid-argument',
      message: `The shop server's address can't be used: the port "99999" (port=) is not a number from 1 to 65535. Write it as postgres://user@host:port/database.`,
    });
    expect(refusal(`${BASE}?port=-5`).code).toBe('invalid-argument');
    expect(() => checkServerAddress(`${BASE}?port=5433`)).not.toThrow();
  });

  it("an sslmode that is none of libpq's is refused; libpq's own pass", () => {
    expect(refusal(`${BASE}?sslmode=bogus`)).toMatchObject({
      code: 'invalid-argument',
      message: expect.stringMatching(/its sslmode "bogus" is none of PostgreSQL's \(disable, allow, prefer, require/),
    });
    for (const mode of ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'])
      expect(() => checkServerAddress(`${BASE}?sslmode=${mode}`), mode).not.toThrow();
  });

  it('a certificate that is a device, a folder or a large file is refused unread; a small file passes', () => {
    const dir = tmp();
    const big = path.join(dir, 'big.pem');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, MAX_ADDRESS_FILE_BYTES + 1); // sparse: a 3 GB file is refused the same way
    const small = path.join(dir, 'root.pem');
    fs.writeFileSync(small, '-----BEGIN CERTIFICATE-----\n');
    expect(refusal(`${BASE}?sslcert=/dev/zero`)).toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('its sslcert /dev/zero is not a file'),
    });
    expect(refusal(`${BASE}?sslkey=${encodeURIComponent(dir)}`).message).toContain('is not a file');
    expect(refusal(`${BASE}?sslrootcert=${encodeURIComponent(big)}&sslmode=require`)).toMatchObject({
      code: 'invalid-argument',
      message: expect.stringMatching(
        /its sslrootcert file .*big\.pem is 1\.0 MB, more than a certificate or key \(1 MB at most\)/,
      ),
    });
    expect(() => checkServerAddress(`${BASE}?sslrootcert=${encodeURIComponent(small)}`)).not.toThrow();
  });

  it('a socket folder that is not there is no server there; a folder that is passes', () => {
    expect(refusal(`${BASE}?host=/no/such/socket/folder`)).toMatchObject({
      code: 'store-unreachable',
      message: expect.stringContaining('/no/such/socket/folder is a folder for a server'),
    });
    expect(() => checkServerAddress(`${BASE}?host=${encodeURIComponent(tmp())}`)).not.toThrow();
  });

  it('the command line: each is said in words with its exit status, and a password= is refused as one in the user part', async () => {
    const cases: [string, string, RegExp][] = [
      [`${BASE}?host=/no/such/socket/folder`, 'store-unreachable', /no such folder/],
      [`${BASE}?port=99999`, 'invalid-argument', /is not a number from 1 to 65535/],
      [`${BASE}?sslcert=/dev/zero`, 'invalid-argument', /is not a file/],
      [`${BASE}?sslmode=bogus`, 'invalid-argument', /none of PostgreSQL's/],
      [`${BASE}?password=secret`, 'invalid-argument', /--db holds a password/],
      // A folder that is there but holds no server's socket: no server there, in words (not `internal`).
      [`${BASE}?host=${encodeURIComponent(tmp())}`, 'store-unreachable', /no server's socket is in that folder/],
    ];
    for (const [url, code, words] of cases) {
      const r = await cliJson(['--db', url, 'orders']);
      expect(r.json.error?.code, url).toBe(code);
      expect(r.json.error?.message, url).toMatch(words);
      expect(r.stdout + r.stderr, url).not.toContain('secret');
      expect(r.code, url).not.toBe(0);
    }
    // store copy takes two addresses, each refused the same way.
    const copy = await cliJson([
      'store',
      'copy',
      '--from',
      path.join(tmp(), 'x.sqlite'),
      '--to',
      `${BASE}?password=secret`,
    ]);
    expect(copy.code).toBe(2);
    expect(copy.stderr).toMatch(/the address holds a password/);
    expect(copy.stdout + copy.stderr).not.toContain('secret');
  });
});
