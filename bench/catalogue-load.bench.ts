import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SYSTEM_CLOCK } from '../src/clock.ts';
import { identityOf } from '../src/identity/owner.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { openStore } from '../src/store/open.ts';
import { partsCsv } from './data.ts';
import { median, type BenchRow } from './report.ts';

const RUNS = 5;

/**
 * SPEC §12: loading Rebrickable's parts.csv as the catalogue job (parse, fold names, merge into the
 * indexed catalogue table, catalogue-job.json, re-placement) against the sqlite3 shell's `.import` of the
 * same file into a bare table, each into a fresh file.
 */
export async function benchCatalogueLoad(): Promise<BenchRow> {
  const { text, ranOn } = partsCsv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
  try {
    const csv = path.join(dir, 'parts.csv');
    fs.writeFileSync(csv, text);
    const ours: number[] = [];
    const shell: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const file = path.join(dir, `ours-${i}`, 'brick-work.sqlite');
      const store = await openStore(file);
      const t = performance.now();
      await loadCatalogue(store.db, file, [{ name: 'parts.csv', content: fs.readFileSync(csv) }], {
        type: 'P',
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
      ours.push(performance.now() - t);
      store.close();

      const bare = path.join(dir, `bare-${i}.db`);
      const s = performance.now();
      execFileSync('sqlite3', [bare, '.import --csv parts.csv parts'], { cwd: dir });
      shell.push(performance.now() - s);
    }
    return {
      name: 'catalogue load of parts.csv (the catalogue job, into a fresh store)',
      ranOn,
      measuredMs: median(ours),
      baselineName: "the sqlite3 shell's .import into a bare table (whole process)",
      baselineMs: median(shell),
      maxRatio: 2,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
