/**
 * A reader that stops reading (issue 62 §5): `brick-work … | head -c 150` ends quietly. The pipe closed
 * under the CLI's output is the reader's choice, not a fault: no stack trace, and the command's own status.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliJson, cliScript, finished, REPO_ROOT } from '../helpers/cli.ts';
import { inventoryXml } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

describe('the CLI’s output read by a reader that stops early', () => {
  it('lines of a big order into head -c 150: 150 bytes, nothing on stderr, exit 0; so too when the pipe closes before the first write', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'brick-work.sqlite');
    const doc = path.join(dir, 'big.xml');
    // Far more output than a pipe holds (64 KB): the CLI is still writing when head has gone.
    fs.writeFileSync(
      doc,
      inventoryXml(Array.from({ length: 3000 }, (_, i) => ({ no: `${10_000 + i}`, colour: 5, qty: 2 }))),
    );
    const imported = await cliJson(['--db', db, 'import', doc]);
    expect(imported.code, imported.stderr).toBe(0);
    const order = String(imported.json.imports[0].order.id);

    for (const json of [['--json'], []]) {
      const command = [process.execPath, cliScript(), ...json, '--db', db, 'lines', order];
      const r = spawnSync('bash', ['-c', '"$@" | head -c 150; echo "exit ${PIPESTATUS[0]}" >&2', 'bash', ...command], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, BRICK_WORK_DB: '' },
      });
      expect(Buffer.byteLength(r.stdout), json.join(' ')).toBe(150);
      expect(r.stderr, json.join(' ')).toBe('exit 0\n');
    }

    // The reader gone before anything is written: the CLI's first write meets the closed pipe.
    const child = spawn(process.execPath, [cliScript(), '--json', '--db', db, 'orders'], {
      cwd: REPO_ROOT,
      env: { ...process.env, BRICK_WORK_DB: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    const r = await finished(child);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
