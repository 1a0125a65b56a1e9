import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../src/store/open.ts';
import { addUnplacedLines, populate41 } from '../test/helpers/fixtures.ts';
import { median, type BenchRow } from './report.ts';

const LINES = 500_000;
/** What a shop waits at the app's start, at most, for the check (SPEC §11) on a store this size. */
const CHECK_BAR_MS = 1_000;

/**
 * The read-write open's quick check (SPEC §11: a store known damaged is never written) on a store of
 * 500,000 lines, against the same open without it. The app runs it once at its start; the CLI at each
 * writing command.
 */
export async function benchOpen(): Promise<BenchRow> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
  try {
    const file = path.join(dir, 'brick-work.sqlite');
    const made = await openStore(file);
    populate41(made.db);
    addUnplacedLines(made.db, LINES);
    made.close();
    const size = fs.statSync(file).size;

    const checked: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      (await openStore(file)).close();
      checked.push(performance.now() - t);
      t = performance.now();
      (await openStore(file, { quickCheck: false })).close();
      bare.push(performance.now() - t);
    }
    const measured = median(checked);
    const check = measured - median(bare);
    return {
      name: `read-write open of a ${LINES.toLocaleString('en')}-line store with SQLite's quick check`,
      ranOn: `a generated store of ${(size / 1e6).toFixed(0)} MB (os.tmpdir()), warm in the page cache`,
      measuredMs: measured,
      baselineName: 'the same open without the check',
      baselineMs: median(bare),
      maxRatio: null,
      check: {
        what: `the check itself takes under ${CHECK_BAR_MS / 1000} s`,
        ok: check < CHECK_BAR_MS,
        detail: `${check.toFixed(0)} ms`,
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
