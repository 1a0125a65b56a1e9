/**
 * `npm run bench`: every benchmark of SPEC §12 in one run, each printed with its ratio against its named
 * baseline and its bar. Exits 1 when a row misses its bar. `npm run bench -- answers suggest` runs only
 * the groups named (catalogue-load, suggest, quality, elements, round-trip, agreement, import, claims, upgrade, open, answers, lists, screens,
 * compare, load-wait, postgres, growth, stock); `postgres:desks` (or `:import`, `:colours`, `:claims`, `:load-wait`) only that
 * PostgreSQL row; `growth:sqlite` or `growth:postgres` only that engine's rows of the growth group.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAgreement } from './agreement.bench.ts';
import { benchAnswers } from './answers.bench.ts';
import { benchCatalogueLoad } from './catalogue-load.bench.ts';
import { benchClaims } from './claims.bench.ts';
import { benchCompare } from './compare.bench.ts';
import { benchElements } from './elements.bench.ts';
import { benchGrowth, type Engine } from './growth.bench.ts';
import { benchRoundTrip } from './round-trip.bench.ts';
import { benchImport } from './import.bench.ts';
import { benchLoadWait } from './load-wait.bench.ts';
import { benchLists } from './lists.bench.ts';
import { benchOpen } from './open.bench.ts';
import { benchPostgres, POSTGRES_ROWS, type PostgresRow } from './postgres.bench.ts';
import { benchScreens } from './screens.bench.ts';
import { benchStock } from './stock.bench.ts';
import { benchQuality } from './quality.bench.ts';
import { formatRow, missesTheBar, type BenchRow } from './report.ts';
import { benchSuggest } from './suggest.bench.ts';
import { benchUpgrade } from './upgrade.bench.ts';
import { hasPostgres, NEEDS_POSTGRES, startPostgres } from '../test/helpers/postgres.ts';

function hasSqliteShell(): boolean {
  try {
    execFileSync('sqlite3', ['-version']);
    return true;
  } catch {
    return false;
  }
}

const GROUPS = [
  'catalogue-load',
  'suggest',
  'quality',
  'elements',
  'round-trip',
  'agreement',
  'import',
  'claims',
  'upgrade',
  'open',
  'answers',
  'lists',
  'screens',
  'compare',
  'load-wait',
  'postgres',
  'growth',
  'stock',
] as const;
const asked = process.argv.slice(2);
const postgresRows = asked.flatMap((a) => (a.startsWith('postgres:') ? [a.slice('postgres:'.length)] : []));
const unknown = asked.filter(
  (a) =>
    !(GROUPS as readonly string[]).includes(a) &&
    a !== 'growth:sqlite' &&
    a !== 'growth:postgres' &&
    !(a.startsWith('postgres:') && (POSTGRES_ROWS as readonly string[]).includes(a.slice('postgres:'.length))),
);
if (unknown.length > 0) {
  console.error(
    `no bench group named ${unknown.join(', ')}; the groups: ${GROUPS.join(', ')}, and ${POSTGRES_ROWS.map((r) => `postgres:${r}`).join(', ')}`,
  );
  process.exit(2);
}
const runs = (group: (typeof GROUPS)[number]) =>
  asked.length === 0 ||
  asked.includes(group) ||
  (group === 'postgres' && postgresRows.length > 0) ||
  (group === 'growth' && asked.some((a) => a.startsWith('growth:')));

const rows: BenchRow[] = [];
const print = (row: BenchRow) => {
  rows.push(row);
  console.log(`${formatRow(row)}\n`);
};

if (runs('catalogue-load')) {
  if (hasSqliteShell()) for (const row of await benchCatalogueLoad()) print(row);
  else
    console.log('catalogue load: skipped, the sqlite3 shell (its baseline) is missing: apt-get install -y sqlite3\n');
}
if (runs('suggest')) {
  const suggest = benchSuggest();
  print(suggest.p99);
  print(suggest.fuse);
}
if (runs('quality')) {
  for (const out of benchQuality()) {
    if ('skipped' in out) console.log(`${out.skipped}\n`);
    else print(out);
  }
}
if (runs('elements')) {
  for (const out of await benchElements()) {
    if ('skipped' in out) console.log(`${out.skipped}\n`);
    else print(out);
  }
}
if (runs('round-trip')) {
  const out = await benchRoundTrip();
  if ('skipped' in out) console.log(`${out.skipped}\n`);
  else print(out);
}
if (runs('agreement')) {
  const out = await benchAgreement();
  if ('skipped' in out) console.log(`${out.skipped}\n`);
  else print(out);
}
if (runs('import')) {
  const imports = await benchImport();
  print(imports.importRow);
  print(imports.insertOnlyRow);
  print(imports.undoRow);
}
if (runs('claims')) print(await benchClaims());
if (runs('upgrade')) print(await benchUpgrade());
if (runs('open')) print(await benchOpen());
if (runs('answers')) for (const row of await benchAnswers()) print(row);
if (runs('lists')) for (const row of await benchLists()) print(row);
if (runs('screens')) {
  const screens = await benchScreens();
  if (screens === null)
    console.log("order screen: skipped, Debian's Chromium (its browser) is missing: apt-get install -y chromium\n");
  else for (const row of screens) print(row);
}
if (runs('compare')) for (const row of await benchCompare()) print(row);
// The load-wait rows go with `postgres` (both stores); asked by name, or the whole bench without a server, here.
if (asked.includes('load-wait') || (asked.length === 0 && !hasPostgres())) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-bench-'));
  const server = hasPostgres() ? await startPostgres({ durable: true }) : null;
  try {
    for (const row of await benchLoadWait(server, dir)) print(row);
    if (server === null) console.log(`PostgreSQL store's load-wait row: skipped, ${NEEDS_POSTGRES}\n`);
  } finally {
    server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
if (runs('postgres')) {
  if (hasPostgres())
    for (const row of await benchPostgres(
      (asked.includes('postgres') || postgresRows.length === 0
        ? POSTGRES_ROWS
        : (postgresRows as PostgresRow[])
      ).filter((r) => r !== 'load-wait' || !asked.includes('load-wait')),
    ))
      print(row);
  else console.log(`PostgreSQL store: skipped, its server is not installed: ${NEEDS_POSTGRES}\n`);
}
if (runs('growth')) {
  const only = asked.flatMap((a) =>
    a === 'growth:sqlite' ? ['SQLite'] : a === 'growth:postgres' ? ['PostgreSQL'] : [],
  );
  const engines = (only.length > 0 ? only : ['SQLite', 'PostgreSQL']) as Engine[];
  if (engines.includes('PostgreSQL') && !hasPostgres()) {
    console.log(`cost as the store grows on PostgreSQL: skipped, its server is not installed: ${NEEDS_POSTGRES}\n`);
    engines.splice(engines.indexOf('PostgreSQL'), 1);
  }
  await benchGrowth(engines, print);
}
if (runs('stock')) await benchStock(print);

const missed = rows.filter(missesTheBar);
console.log(
  missed.length === 0
    ? `${rows.length} rows, all within their bars.`
    : `${missed.length} of ${rows.length} rows miss their bars: ${missed.map((r) => r.name).join('; ')}`,
);
process.exitCode = missed.length === 0 ? 0 : 1;
