/**
 * Memory bounded for every input (issue 45, point 3): a file over the cap for what it is is refused in
 * words naming the cap and its size before it is read; a device without a size is read up to the cap
 * and refused; the CLI's peak memory stays under 200 MB for every refused input (measured in the child).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliScript, finished, REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';

const PEAK = pathToFileURL(path.join(REPO_ROOT, 'test', 'workers', 'peak-rss.mjs')).href;
const MB200 = 200 * 1024;

async function cliMeasured(args: readonly string[]): Promise<{ json: any; peakKb: number; code: number | null }> {
  const child = spawn(process.execPath, ['--import', PEAK, cliScript(), '--json', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = await finished(child);
  const peak = Number(/PEAK_RSS_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  try {
    return { json: JSON.parse(r.stdout), peakKb: peak, code: r.code };
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
}

/** A file of `size` bytes that takes no room on the disk (sparse): its size is all the CLI may look at. */
function sparse(dir: string, name: string, size: number): string {
  const file = path.join(dir, name);
  fs.closeSync(fs.openSync(file, 'w'));
  fs.truncateSync(file, size);
  return file;
}

describe('a file too big is refused before it is read, memory bounded (issue 45, point 3)', () => {
  it('1.5 GB and 3 GB documents: too-big, naming the 20 MB cap and their size; the CLI stays under 200 MB', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'shop.sqlite');
    for (const [name, size, shown] of [
      ['big.bsx', 1.5 * 1024 ** 3, '1,536 MB'],
      ['huge.xml', 3 * 1024 ** 3, '3,072 MB'],
    ] as const) {
      const r = await cliMeasured(['--db', db, 'import', sparse(dir, name, size), '--dry-run']);
      expect(r.code).toBe(1);
      expect(r.json.error).toEqual({
        code: 'too-big',
        message: `${name} is ${shown}, over the 20 MB a document may be; it was not read.`,
      });
      expect(r.peakKb).toBeLessThan(MB200);
    }
    const catalogue = await cliMeasured(['--db', db, 'catalogue', 'import', sparse(dir, 'parts.csv', 300 * 1024 ** 2)]);
    expect(catalogue.json.error).toEqual({
      code: 'too-big',
      message: 'parts.csv is 300 MB, over the 256 MB a catalogue file may be; it was not read.',
    });
    expect(catalogue.peakKb).toBeLessThan(MB200);
  });

  it('/dev/zero as a document, a catalogue file or a compare side: read up to the cap, then refused in words', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'shop.sqlite');
    const runs = [
      ['import', '/dev/zero', '--dry-run'],
      ['catalogue', 'import', '/dev/zero'],
      ['compare', '/dev/zero', sparse(dir, 'other.csv', 10)],
    ];
    for (const args of runs) {
      const r = await cliMeasured(['--db', db, ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error.code, args.join(' ')).toBe('too-big');
      expect(r.json.error.message).toMatch(
        /^zero gives more than the (20|256) MB (a document|a catalogue file) may be \(it has no size of its own: a device or a pipe\)/,
      );
      expect(r.peakKb, args.join(' ')).toBeLessThan(MB200);
    }
  });

  it('a file that fits is read as before, and a folder or a missing file is said in words', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'shop.sqlite');
    const doc = path.join(dir, 'order.csv');
    fs.writeFileSync(doc, 'Part,Quantity\n3001,2\n');
    const ok = await cliMeasured(['--db', db, 'import', doc, '--dry-run']);
    expect(ok.code).toBe(0);
    const folder = await cliMeasured(['--db', db, 'import', dir, '--dry-run']);
    expect(folder.json.error).toEqual({ code: 'not-found', message: `${dir} is a folder, not a file.` });
    const missing = await cliMeasured(['--db', db, 'import', path.join(dir, 'gone.csv'), '--dry-run']);
    expect(missing.json.error.code).toBe('not-found');
  });
});
