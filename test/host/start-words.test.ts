/**
 * The browser host's start, said in one plain line (issue 45, point 5): a port that is no port, an
 * unknown option, a port another program holds — never a stack trace or "something went wrong inside",
 * and a non-zero exit. A port that is taken leaves the store closed and nothing served.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildScreens } from '../helpers/browser.ts';
import { hostArgs } from '../helpers/built.ts';
import { finished, REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

async function host(args: readonly string[]) {
  const db = path.join(tempDir(), 'brick-work.sqlite');
  const child = spawn(process.execPath, [...hostArgs(), '--db', db, '--renderer', buildScreens(), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}

describe('the browser host says in one line why it did not start', () => {
  it('a port that is no port, or an option it does not know: usage, exit 2', async () => {
    for (const [args, line] of [
      [['--port', 'abc'], '--port abc: give a port number from 1 to 65535, or leave it out for any free one'],
      [['--port', '70000'], '--port 70000: give a port number from 1 to 65535, or leave it out for any free one'],
      [['--bogus'], "Unknown option '--bogus'"],
    ] as const) {
      const r = await host(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`^brick-work: ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*Usage: npm run serve`),
        ),
      ]);
      expect(r.stdout).toBe('');
    }
  });

  it('a port another program holds: one line saying so, exit 1, nothing served', async () => {
    const other = http.createServer((_req, res) => res.end('another program'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const { port } = other.address() as AddressInfo;
      const r = await host(['--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        `brick-work: port ${port} on 127.0.0.1 is already in use by another program; choose another with --port, or leave --port out for any free one`,
      ]);
      expect(r.stdout).toBe('');
    } finally {
      other.close();
    }
  });
});
