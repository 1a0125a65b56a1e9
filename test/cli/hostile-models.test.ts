/**
 * Issue 62 §1 and §2's `.io` row: models that are small files and large work are refused at once, the
 * CLI's peak memory under the 200 MB bar (measured in the child, as too-big.test.ts does). Each child
 * runs with its heap capped at 512 MB, so that what took gigabytes before stops there instead of taking
 * the machine's memory; a child that stays under 200 MB never meets the cap.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliScript, finished, REPO_ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp.ts';
import { spawnWorker } from '../helpers/workers.ts';

const PEAK = pathToFileURL(path.join(REPO_ROOT, 'test', 'workers', 'peak-rss.mjs')).href;
const MB200 = 200 * 1024;

async function importMeasured(db: string, file: string): Promise<{ json: any; peakKb: number; ms: number }> {
  const t = performance.now();
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=512', '--import', PEAK, cliScript(), '--json', '--db', db, 'import', file, '--dry-run'],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const r = await finished(child);
  const ms = performance.now() - t;
  const peak = Number(/PEAK_RSS_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  try {
    return { json: JSON.parse(r.stdout), peakKb: peak, ms };
  } catch {
    throw new Error(`not JSON (exit ${r.code}, ${Math.round(ms)} ms): ${r.stdout}\n${r.stderr.slice(-2_000)}`);
  }
}

describe('small hostile models: refused at once, within 200 MB (issue 62 §1, §2)', () => {
  it('each of the probe’s files: too-big in words, in seconds, the CLI under 200 MB', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'shop.sqlite');
    // Made by a process of their own (see the worker): this one stays small, as a child's measure counts it.
    const made = await finished(spawnWorker('hostile-model-files', [dir]));
    expect(made.code, made.stderr).toBe(0);
    const files: [name: string, words: RegExp][] = [
      ['slashes.io', /^slashes\.io holds an entry whose name is 65,534 bytes long/],
      ['crowd.io', /^crowd\.io holds 65,001 entries, more than the 10,000/],
      ['reused.io', /^reused\.io holds more than 1,000,000 parts/],
      ['colours.io', /^colours\.io holds more than 1,000,000 parts/],
      ['flat.ldr', /^flat\.ldr has more than 200,000 lines that place a part or a submodel/],
    ];
    for (const [name, words] of files) {
      const r = await importMeasured(db, path.join(dir, name));
      expect(r.json.error?.code, name).toBe('too-big');
      expect(r.json.error.message, name).toMatch(words);
      expect(r.peakKb, name).toBeLessThan(MB200);
      // The CLI's start included: tens of seconds before.
      expect(r.ms, name).toBeLessThan(10_000);
    }
  }, 120_000);
});
