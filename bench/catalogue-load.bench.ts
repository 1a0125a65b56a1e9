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
/**
 * The shell's own `.import` into a table shaped as the catalogue is (keyed by number without a rowid, its
 * name indexed) in a WAL file with synchronous=FULL, as the store is: what SQLite itself takes for the
 * work the catalogue job cannot skip. Reported beside the SPEC's row, so the ratio can be read.
 */
const KEYED_TABLE = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA synchronous = FULL',
  'CREATE TABLE parts (part_num TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, name TEXT NOT NULL, part_cat_id, part_material) WITHOUT ROWID',
  'CREATE INDEX parts_by_name ON parts (name)',
].join('; ');

export async function benchCatalogueLoad(): Promise<BenchRow[]> {
  const { text, ranOn } = partsCsv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
  try {
    const csv = path.join(dir, 'parts.csv');
    fs.writeFileSync(csv, text);
    const ours: number[] = [];
    const shell: number[] = [];
    const keyed: number[] = [];
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

      const shaped = path.join(dir, `keyed-${i}.db`);
      const k = performance.now();
      execFileSync('sqlite3', [shaped, KEYED_TABLE, '.import --csv --skip 1 parts.csv parts'], {
        cwd: dir,
        stdio: 'ignore',
      });
      keyed.push(performance.now() - k);
    }
    const spec: BenchRow = {
      name: 'catalogue load of parts.csv (the catalogue job, into a fresh store)',
      ranOn,
      measuredMs: median(ours),
      baselineName: "the sqlite3 shell's .import into a bare table (whole process)",
      baselineMs: median(shell),
      maxRatio: 2,
    };
    return [
      spec,
      {
        ...spec,
        name: 'the same load against the shell loading a table keyed and indexed as the catalogue',
        baselineName:
          "the sqlite3 shell's .import into a WITHOUT ROWID table keyed by number, its name indexed, WAL, synchronous=FULL",
        baselineMs: median(keyed),
        maxRatio: null,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
