import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STEP_4_1_TO_4_2 } from '../../../src/store/upgrades/step-4.1-to-4.2.ts';
import { populate41 } from '../../helpers/fixtures.ts';
import { buildStore } from '../../helpers/store-builder.ts';
import { talliedDocuments, tallyMismatches } from '../../helpers/tally.ts';
import { tempDir } from '../../helpers/temp.ts';

function columns(db: ReturnType<typeof buildStore>, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

describe('upgrade step 4.1 → 4.2 on its own', () => {
  it('adds the three ADR 0023 columns and the new tables, and nothing else changes shape', () => {
    const db = buildStore(path.join(tempDir(), 's.sqlite'), '4.1');
    const tables41 = Object.fromEntries(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).map((t) => [
        t,
        columns(db, t),
      ]),
    );
    const messages: string[] = [];
    db.transaction(() => STEP_4_1_TO_4_2.up(db, (m) => messages.push(m)))();

    expect(columns(db, 'job_owner')).toEqual([...(tables41['job_owner'] ?? []), 'boot_id', 'start_ticks']);
    expect(columns(db, 'order_line')).toEqual([...(tables41['order_line'] ?? []), 'unplaced_reason']);
    for (const [table, cols] of Object.entries(tables41)) {
      if (table !== 'job_owner' && table !== 'order_line') expect(columns(db, table), table).toEqual(cols);
    }
    const added = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).filter(
      (t) => !(t in tables41),
    );
    expect(added.sort()).toEqual([
      'colour_placement',
      'colour_swatch',
      'colour_translation',
      'document_tally',
      'element_code',
      'hand_placement',
      'hand_placement_teaching',
      'job_event',
      'job_owner_desk',
      'lookup_answer',
      'part_number',
      'part_relationship',
      'pick_mark',
      'setting',
      'stock_lot',
      'stock_order',
      'taught_name',
      'undo_step_catalogue',
      'undo_step_desk',
    ]);
    db.close();
  });

  it('leaves placed lines alone and gives every unplaced line a placement or its reason', () => {
    const db = buildStore(path.join(tempDir(), 's.sqlite'), '4.1');
    const { expected } = populate41(db);
    const placedBefore = db.prepare('SELECT * FROM order_line WHERE item_no IS NOT NULL').all();
    const messages: string[] = [];
    db.transaction(() => STEP_4_1_TO_4_2.up(db, (m) => messages.push(m)))();

    const rows = db.prepare('SELECT id, item_type, item_no, placed_by, unplaced_reason FROM order_line').all() as {
      id: number;
      item_type: string | null;
      item_no: string | null;
      placed_by: string | null;
      unplaced_reason: string | null;
    }[];
    for (const r of rows) {
      expect({ placed: r.item_no ? `${r.item_type} ${r.item_no}` : null, reason: r.unplaced_reason }).toEqual(
        expected.get(r.id),
      );
    }
    for (const p of placedBefore as { id: number }[]) {
      expect(db.prepare('SELECT * FROM order_line WHERE id = ?').get(p.id)).toEqual({ ...p, unplaced_reason: null });
    }
    expect(rows.find((r) => r.item_no === '3003' && r.placed_by === 'name')).toBeDefined();
    expect(messages.at(-1)).toBe('placing lines 9/9');
    db.close();
  });

  it("counts every document's lines into its tally, the lines the step placed included", () => {
    const db = buildStore(path.join(tempDir(), 's.sqlite'), '4.1');
    populate41(db);
    db.transaction(() => STEP_4_1_TO_4_2.up(db, () => {}))();
    expect(talliedDocuments(db)).toBeGreaterThan(0);
    expect(db.prepare('SELECT sum(placed) FROM document_tally').pluck().get()).toBe(
      db.prepare('SELECT count(*) FROM order_line WHERE item_no IS NOT NULL').pluck().get(),
    );
    expect(tallyMismatches(db)).toEqual([]);
    db.close();
  });

  it('keeps job owners written before 4.2 without an identity', () => {
    const db = buildStore(path.join(tempDir(), 's.sqlite'), '4.1');
    populate41(db);
    db.transaction(() => STEP_4_1_TO_4_2.up(db, () => {}))();
    const owners = db.prepare('SELECT pid, boot_id, start_ticks FROM job_owner ORDER BY job_id').all();
    expect(owners).toEqual([
      { pid: 4242, boot_id: null, start_ticks: null },
      { pid: 4243, boot_id: null, start_ticks: null },
    ]);
    db.close();
  });
});

describe('upgrade steps and fix-ups are frozen', () => {
  it('import nothing but their own frozen code (never the live placement rule, nor any other live module)', async () => {
    const fs = await import('node:fs');
    const root = path.resolve(import.meta.dirname, '../../../src/store/upgrades');
    // Everything there but the list of steps itself (index.ts), which only names them.
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && f !== 'index.ts',
    );
    expect(files).toEqual(
      expect.arrayContaining(['step-4.1-to-4.2.ts', 'fixups.ts', path.join('frozen-4.2', 'placement.ts')]),
    );
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      for (const m of text.matchAll(/^\s*import\s+(type\s+)?[^'"]*['"]([^'"]+)['"]/gm)) {
        const [, typeOnly, spec = ''] = m;
        if (typeOnly || spec === 'better-sqlite3') continue;
        const target = path.resolve(root, path.dirname(f), spec);
        expect(target.startsWith(root), `${f} imports ${spec}`).toBe(true);
      }
    }
  });
});
