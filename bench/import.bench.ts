import fs from 'node:fs';
import { thisComputer } from '../src/identity/desk.ts';
import { writeSession } from '../src/store/session.ts';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { confirmImport } from '../src/documents/import.ts';
import { readDocumentFile } from '../src/documents/read-document.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { identityOf } from '../src/identity/owner.ts';
import { openStore } from '../src/store/open.ts';
import { nextUndo, undo } from '../src/undo/history.ts';
import { partsCsv } from './data.ts';
import { median, type BenchRow } from './report.ts';

const LINES = 10_000;
const RUNS = 3;

/** A 10,000-line BrickStore document from the catalogue's own rows: mostly known numbers, some unknown, some names only. */
function document(parts: readonly string[][]): string {
  const items: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const [no, name] = parts[(i * 7919) % parts.length] ?? ['3001', 'Brick 2 x 4'];
    const unknown = i % 10 === 0;
    const nameOnly = i % 10 === 1;
    items.push(
      `  <Item>\n   <ItemID>${nameOnly ? '' : unknown ? `${no}x${i}` : no}</ItemID>\n   <ItemTypeID>P</ItemTypeID>\n   <ColorID>${1 + (i % 90)}</ColorID>\n` +
        `   <ItemName>${(name ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ItemName>\n   <Qty>${1 + (i % 50)}</Qty>\n   <Price>0.${String(i % 1000).padStart(3, '0')}</Price>\n   <Condition>N</Condition>\n  </Item>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE BrickStoreXML>\n<BrickStoreXML>\n <Inventory>\n${items.join('\n')}\n </Inventory>\n</BrickStoreXML>\n`;
}

/**
 * The import benches' document (SPEC §12), as file bytes: 10,000 BrickStore lines made from a catalogue
 * file's rows (`partsCsv().text`), so that most lines are placed on it. The PostgreSQL rows import it too.
 */
export function importDocument(partsText: string): Uint8Array {
  const rows = partsText
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => {
      const m = /^([^,]+),("(?:[^"]|"")*"|[^,]*)/.exec(l);
      return [m?.[1] ?? '', (m?.[2] ?? '').replace(/^"|"$/g, '').replace(/""/g, '"')];
    });
  return new TextEncoder().encode(document(rows));
}

/**
 * SPEC §12: import + placement of a 10,000-line document (read it, place every line, write it all with
 * its undo step) against reading it and a bare insert of the same rows — both sides read the file, so the
 * ratio is what placement, checks and the undo record cost; the ratio against the insert alone is
 * printed too. And the undo of that import against the import.
 */
export async function benchImport(): Promise<{ importRow: BenchRow; insertOnlyRow: BenchRow; undoRow: BenchRow }> {
  const parts = partsCsv();
  const content = importDocument(parts.text);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
  try {
    const importMs: number[] = [];
    const undoMs: number[] = [];
    const bareMs: number[] = [];
    const parseMs: number[] = [];
    const insertMs: number[] = [];
    let placed = 0;
    for (let run = 0; run < RUNS; run++) {
      const dbPath = path.join(dir, `store-${run}`, 'brick-work.sqlite');
      const store = await openStore(dbPath);
      await loadCatalogue(store.db, dbPath, [{ name: 'parts.csv', content: Buffer.from(parts.text) }], {
        type: 'P',
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
      let t = performance.now();
      const [result] = confirmImport(
        writeSession(store.db),
        { file: { name: `bench-${run}.bsx`, content } },
        SYSTEM_CLOCK,
      );
      importMs.push(performance.now() - t);
      placed = result?.lines.placed ?? 0;
      t = performance.now();
      undo(writeSession(store.db), SYSTEM_CLOCK, nextUndo(store.db, thisComputer())?.id ?? 0);
      undoMs.push(performance.now() - t);
      store.close();

      // The baseline: the same document read, and its rows inserted into a bare table with the same pragmas.
      const bare = new Database(path.join(dir, `bare-${run}.db`));
      bare.pragma('journal_mode = WAL');
      bare.pragma('synchronous = FULL');
      bare.exec('CREATE TABLE line (position, type, no, name, colour, quantity, price, condition, remarks)');
      const insert = bare.prepare('INSERT INTO line VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      t = performance.now();
      const [doc] = readDocumentFile({ name: 'bench.bsx', content });
      parseMs.push(performance.now() - t);
      const i0 = performance.now();
      bare.transaction(() => {
        for (const l of doc?.lines ?? [])
          insert.run(
            l.position,
            l.given.type,
            l.given.no,
            l.given.name,
            l.given.colourId,
            l.quantity,
            l.unitPriceE4,
            l.condition,
            l.remarks,
          );
      })();
      insertMs.push(performance.now() - i0);
      bareMs.push(performance.now() - t);
      bare.close();
    }
    const ranOn = `a ${LINES.toLocaleString('en')}-line BrickStore document (${placed} placed) on ${parts.ranOn}`;
    const importRow: BenchRow = {
      name: 'import + placement of a 10,000-line document (parse, place, write, undo record)',
      ranOn,
      measuredMs: median(importMs),
      baselineName: 'reading the same document and a bare insert of its rows',
      baselineMs: median(bareMs),
      maxRatio: 3,
    };
    const insertOnlyRow: BenchRow = {
      name: `the same import against the bare insert alone (the document read in ${median(parseMs).toFixed(0)} ms not counted)`,
      ranOn,
      measuredMs: median(importMs),
      baselineName: 'a bare insert of the parsed rows',
      baselineMs: median(insertMs),
      maxRatio: null,
    };
    const undoRow: BenchRow = {
      name: 'undo of that import',
      ranOn,
      measuredMs: median(undoMs),
      baselineName: 'the import',
      baselineMs: median(importMs),
      maxRatio: 1,
    };
    return { importRow, insertOnlyRow, undoRow };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
