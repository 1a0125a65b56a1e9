import fs from 'node:fs';
import { writeSession } from '../src/store/session.ts';
import path from 'node:path';
import zlib from 'node:zlib';
import { SYSTEM_CLOCK } from '../src/platform/clock.ts';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { confirmImport } from '../src/documents/import.ts';
import { connectionOwner } from '../src/store/owners.ts';
import { openStore } from '../src/store/open.ts';
import type { PostgresServer } from '../test/helpers/postgres.ts';
import { partsCsv, shared } from './data.ts';
import { startDesk } from './postgres.bench.ts';
import { median, percentile, type BenchRow } from './report.ts';

const BAR_MS = 500;
/** Runs of the load a side, each into a store of its own: the row is the median of their longest waits. */
const RUNS = 3;
/** Lines the desk has to place: more than it places while a load runs. */
const DESK_LINES = 6_000;
/** Lines it places alone first, untimed (a fresh process compiles its code), then timed alone. */
const FIRST = 20;
const ALONE = 100;

/** The load: Rebrickable's parts, BrickLink's codes, Rebrickable's elements — real where ../shared/data has them. */
function loadFiles(parts: ReturnType<typeof partsCsv>): {
  files: { name: string; content: Uint8Array }[];
  ranOn: string;
} {
  const numbers = parts.text
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.slice(0, l.indexOf(',')));
  const read = (folder: string, name: string, made: () => string) => {
    const real = shared(folder, name);
    return real === null
      ? { name: name.replace(/\.gz$/, ''), content: new TextEncoder().encode(made()), real: false }
      : { name, content: new Uint8Array(fs.readFileSync(real)), real: true };
  };
  // Without the real files, rows of their shapes and sizes.
  const codes = read('bricklink', 'codes.txt.gz', () =>
    [
      'Item No\tColor\tCode',
      ...Array.from({ length: 104_355 }, (_, i) => `${numbers[i % numbers.length]}\tRed\t${4_000_000 + i}`),
    ].join('\n'),
  );
  const elements = read('rebrickable', 'elements.csv.gz', () =>
    [
      'element_id,part_num,color_id,design_id',
      ...Array.from({ length: 108_920 }, (_, i) => `${6_000_000 + i},${numbers[i % numbers.length]},${i % 80},`),
    ].join('\n'),
  );
  const partsFile = { name: 'parts.csv.gz', content: new Uint8Array(zlib.gzipSync(parts.text)) };
  const said = [codes, elements].every((f) => f.real) ? 'real' : 'generated where ../shared/data lacks them';
  return {
    files: [partsFile, codes, elements],
    ranOn: `${parts.ranOn}, BrickLink's codes.txt and Rebrickable's elements.csv (${said})`,
  };
}

interface Run {
  readonly longest: number;
  readonly during: number[];
  readonly alone: number[];
  readonly loadMs: number;
  readonly ok: boolean;
  readonly detail: string;
}

/**
 * One run: a store holding the parts catalogue and an order of `DESK_LINES` unplaced lines; a desk (a
 * process of its own) places them by hand, one after another, while this process loads the parts again
 * with the codes and the elements (their first load) as the catalogue job does; every call timed.
 */
async function oneRun(
  location: string,
  dir: string,
  load: ReturnType<typeof loadFiles>,
  numbers: string[],
): Promise<Run> {
  const store = await openStore(location);
  let lineIds: number[];
  try {
    const first = load.files[0];
    if (first === undefined) throw new Error('no parts file');
    await loadCatalogue(store.db, location, [first], { type: 'P', me: connectionOwner(store.db), clock: SYSTEM_CLOCK });
    const items = Array.from(
      { length: DESK_LINES },
      (_, i) =>
        `  <Item><ItemID>desk-${i}</ItemID><ItemTypeID>P</ItemTypeID><ColorID>${1 + (i % 90)}</ColorID><Qty>1</Qty><Condition>N</Condition></Item>`,
    );
    const doc = `<?xml version="1.0" encoding="UTF-8"?>\n<BrickStoreXML><Inventory>\n${items.join('\n')}\n</Inventory></BrickStoreXML>\n`;
    confirmImport(
      writeSession(store.db),
      { file: { name: 'desk.bsx', content: new TextEncoder().encode(doc) } },
      SYSTEM_CLOCK,
    );
    lineIds = store.db.prepare('SELECT id FROM order_line ORDER BY position').pluck().all() as number[];
  } finally {
    store.close();
  }
  const target = (i: number) => numbers[(i * 7919) % numbers.length] ?? '3001';
  const share = lineIds.map((id, i) => [id, target(i)]);
  const work = path.join(dir, `desk-${path.basename(path.dirname(location))}-${Date.now()}.json`);
  fs.writeFileSync(work, JSON.stringify({ first: share.slice(0, FIRST), warm: [], lines: share.slice(FIRST) }));
  const desk = startDesk(['during', location, work]);
  try {
    await desk.ready;
    desk.child.stdin?.write('go\n');
    // The desk alone for a moment: what a call costs with no load running.
    await new Promise((r) => setTimeout(r, 1_500));
    const loading = await openStore(location);
    let from = 0;
    let to = 0;
    try {
      from = performance.timeOrigin + performance.now();
      await loadCatalogue(loading.db, location, load.files, {
        type: null,
        me: connectionOwner(loading.db),
        clock: SYSTEM_CLOCK,
      });
      to = performance.timeOrigin + performance.now();
    } finally {
      loading.close();
    }
    desk.child.stdin?.write('stop\n');
    const out = (await desk.out) as { calls: [number, number][]; refused: number; ranOut: boolean; others: number };
    // A call that was under way at any moment of the load waited on it, or could have.
    const during = out.calls.filter(([start, ms]) => start + ms >= from && start <= to).map(([, ms]) => ms);
    const alone = out.calls
      .filter(([start, ms]) => start + ms < from)
      .slice(0, ALONE)
      .map(([, ms]) => ms);
    const ok = !out.ranOut && out.others === 0 && out.refused === 0 && during.length > 0;
    const detail = `${during.length} calls while the load ran, ${out.refused} refused as the store busy, ${out.ranOut ? 'the desk RAN OUT of lines' : 'the desk never ran out of lines'}, ${out.others} lines placed besides`;
    return { longest: Math.max(...during), during, alone, loadMs: to - from, ok, detail };
  } finally {
    if (desk.child.exitCode === null) desk.child.kill('SIGKILL');
  }
}

/**
 * SPEC §12 (issue 61 §2): the longest wait of another desk's placement by hand while a catalogue load of
 * parts, codes and elements runs, on a SQLite store and (with a server) on a PostgreSQL one. Bar 500 ms.
 */
export async function benchLoadWait(server: PostgresServer | null, dir: string): Promise<BenchRow[]> {
  const parts = partsCsv();
  const load = loadFiles(parts);
  const numbers = parts.text
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.slice(0, l.indexOf(',')));
  const sides: ('sqlite' | 'postgres')[] = server === null ? ['sqlite'] : ['sqlite', 'postgres'];
  const rows: BenchRow[] = [];
  for (const kind of sides) {
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run++) {
      let location = path.join(dir, `load-wait-${run}`, 'brick-work.sqlite');
      if (kind === 'postgres' && server !== null) {
        server.createDatabase(`load_wait_${run}`);
        location = server.url(`load_wait_${run}`);
      }
      runs.push(await oneRun(location, dir, load, numbers));
    }
    const longest = runs.map((r) => r.longest);
    const chosen = runs[longest.indexOf(median(longest))] ?? runs[0];
    if (chosen === undefined) throw new Error('no run');
    const alone = runs.flatMap((r) => r.alone);
    const engine = kind === 'sqlite' ? 'SQLite store' : 'PostgreSQL store';
    rows.push({
      name: `${engine}: the longest wait of another desk's placement by hand while a catalogue load (parts, codes, elements) runs (SPEC §12)`,
      ranOn: `${load.ranOn}: the store holding the parts, the load bringing them again with the codes and the elements (their first load), as the catalogue job runs it; a desk (a process of its own) placing lines by hand one after another meanwhile, every call timed; the median of ${RUNS} runs' longest (${longest.map((ms) => ms.toFixed(0)).join(', ')} ms), each on a store of its own${kind === 'postgres' ? ', a server that flushes each commit' : ''}`,
      measuredMs: median(longest),
      baselineName: `the ${BAR_MS} ms bar`,
      baselineMs: BAR_MS,
      maxRatio: 1,
      check: {
        what: 'the desk placed lines all through the load, each once, none refused',
        ok: runs.every((r) => r.ok),
        detail: runs.find((r) => !r.ok)?.detail ?? chosen.detail,
      },
      details: [
        `that run: ${chosen.during.length} calls while the load ran (${(chosen.loadMs / 1000).toFixed(1)} s), p50 ${percentile(chosen.during, 0.5).toFixed(1)} ms, p99 ${percentile(chosen.during, 0.99).toFixed(1)} ms; the desk alone before it: p50 ${percentile(alone, 0.5).toFixed(1)} ms, slowest ${Math.max(...alone).toFixed(1)} ms`,
        `the loads took ${runs.map((r) => `${(r.loadMs / 1000).toFixed(1)} s`).join(', ')}`,
      ],
    });
  }
  return rows;
}
