import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../src/store/open.ts';
import { addUnplacedLines, populate41 } from '../test/helpers/fixtures.ts';
import { buildStore } from '../test/helpers/store-builder.ts';
import { median, type BenchRow } from './report.ts';

const LINES = 100_000;

/** The 4.1 → 4.2 upgrade of a store with many unplaced lines, against a bare UPDATE of those lines. */
export async function benchUpgrade(): Promise<BenchRow> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
  try {
    const template = path.join(dir, 'template.sqlite');
    const db = buildStore(template, '4.1');
    populate41(db);
    addUnplacedLines(db, LINES);
    db.close();

    const upgrade: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = path.join(dir, `a${i}.sqlite`);
      fs.copyFileSync(template, a);
      let t = performance.now();
      (await openStore(a)).close();
      upgrade.push(performance.now() - t);

      const b = path.join(dir, `b${i}.sqlite`);
      fs.copyFileSync(template, b);
      const raw = new Database(b);
      raw.pragma('journal_mode = WAL');
      raw.pragma('synchronous = FULL');
      t = performance.now();
      raw.transaction(() => {
        raw.exec('ALTER TABLE order_line ADD COLUMN unplaced_reason TEXT');
        raw.exec("UPDATE order_line SET unplaced_reason = 'x' WHERE item_no IS NULL");
      })();
      bare.push(performance.now() - t);
      raw.close();
    }
    return {
      name: `upgrade 4.1 → 4.2 of a store with ${LINES.toLocaleString('en')} unplaced lines (backup included)`,
      ranOn: 'a generated 4.1 store (tmpfs or disk: os.tmpdir())',
      measuredMs: median(upgrade),
      baselineName: 'a bare ALTER + UPDATE of the same lines',
      baselineMs: median(bare),
      maxRatio: null,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
