/**
 * SPEC §12, issue 11: do suggestions find renamed parts? On the real Rebrickable catalogue, for the two
 * query sets of tools/quality-sets.ts, how often the query's own number is among the first 1, 5 and 20
 * suggestions: ours, Fuse.js and SQLite FTS5 bm25 on the same names. Also ours' p99 per line over both
 * sets and the index build time. Skipped (and said so) without the real data: generated names would
 * measure nothing.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import Fuse from 'fuse.js';
import { readCatalogueFile } from '../src/catalogue/read-file.ts';
import { suggestIn } from '../src/suggest/catalogue-index.ts';
import { SuggestIndex, type IndexedItem } from '../src/suggest/index.ts';
import { shared } from './data.ts';
import {
  brickstoreCases,
  elementColours,
  indexedItems,
  EXPECTED_BRICKSTORE_CASES,
  ldrawPairs,
  legoNamePairs,
  numberHashIsEven,
} from '../tools/quality-sets.ts';
import { collectGarbage, timePerName, type BenchRow } from './report.ts';
import { learnFromNamings } from '../tools/equivalents-learning.ts';

const LIMIT = 20;
/** Fuse.js takes about half a second a query on this catalogue: on the LDraw set it runs on every k-th query, at least this many. */
const FUSE_SAMPLE = 200;
const TIMING_ROUNDS = 3;

export type QualityOutput = BenchRow | { readonly skipped: string };

interface Query {
  readonly no: string;
  readonly name: string;
  /** The line's colour (the catalogue's id), for a ranker that reads it; the others rank by name alone. */
  readonly colour?: number | null;
}

/** Hits of one ranker on one set of queries: how many had their number among the first 1, 5, 20. */
interface Hits {
  readonly n: number;
  readonly at1: number;
  readonly at5: number;
  readonly at20: number;
}

type Ranker = (name: string, colour?: number | null) => readonly string[];

function hitsOf(queries: readonly Query[], rank: Ranker): Hits {
  let at1 = 0;
  let at5 = 0;
  let at20 = 0;
  for (const q of queries) {
    const want = q.no.toLowerCase();
    const at = rank(q.name, q.colour).findIndex((no) => no.toLowerCase() === want);
    if (at === -1) continue;
    if (at < 1) at1++;
    if (at < 5) at5++;
    if (at < 20) at20++;
  }
  return { n: queries.length, at1, at5, at20 };
}

const pct = (hits: number, n: number) => (n === 0 ? 0 : (100 * hits) / n);

function hitTable(rows: readonly [string, Hits][]): string[] {
  const cell = (h: number, n: number) => `${pct(h, n).toFixed(1).padStart(5)} %`;
  return [
    `${''.padEnd(30)}  hit@1    hit@5    hit@20   queries`,
    ...rows.map(
      ([label, h]) => `${label.padEnd(30)}  ${cell(h.at1, h.n)}  ${cell(h.at5, h.n)}  ${cell(h.at20, h.n)}  ${h.n}`,
    ),
  ];
}

/** Every k-th query, k chosen so that at least `min` are taken (all of them when there are fewer). */
function everyKth<T>(list: readonly T[], min: number): { sample: T[]; k: number } {
  const k = Math.max(1, Math.floor(list.length / min));
  return { sample: list.filter((_, i) => i % k === 0), k };
}

/** SQLite FTS5 over the catalogue names, ranked by bm25; the query's words OR-ed as quoted terms. */
function fts5Ranker(items: readonly IndexedItem[]): { rank: Ranker; close: () => void } {
  const db = new Database(':memory:');
  db.exec('CREATE VIRTUAL TABLE f USING fts5(no UNINDEXED, name)');
  const insert = db.prepare('INSERT INTO f (no, name) VALUES (?, ?)');
  db.transaction(() => {
    for (const it of items) insert.run(it.no, it.name);
  })();
  const search = db.prepare('SELECT no FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT ?').pluck();
  return {
    rank: (name) => {
      const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
      if (words.length === 0) return [];
      return search.all(words.map((w) => `"${w}"`).join(' OR '), LIMIT) as string[];
    },
    close: () => db.close(),
  };
}

/** Fuse.js makes this group take minutes: say what it is doing, beside the rows (stderr). */
function progress(what: string): void {
  process.stderr.write(`quality: ${what}\n`);
}

export function benchQuality(): QualityOutput[] {
  const partsFile = shared('rebrickable', 'parts.csv.gz');
  if (partsFile === null) {
    return [
      {
        skipped:
          'suggestion quality: skipped, the real Rebrickable parts.csv.gz (../shared/data/rebrickable) is absent; generated names would measure nothing',
      },
    ];
  }
  const ldraw = ldrawPairs();
  const brickstore = brickstoreCases();
  const out: QualityOutput[] = [];

  const file = readCatalogueFile({ name: 'parts.csv.gz', content: fs.readFileSync(partsFile) }, { type: 'P' });
  // The colours each part is made in, as the app counts them from the element tables a shop loads (SPEC §5).
  const elements = elementColours();
  const items = indexedItems(file.records, elements);
  const catalogue = `Rebrickable parts.csv (${items.length} items${elements ? `, colours from ${elements.ranOn}` : ', no element tables'})`;

  // The app builds its index once per catalogue, cold: that first build is the one measured.
  const builds: number[] = [];
  let index: SuggestIndex | undefined;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    index = new SuggestIndex(items);
    builds.push(performance.now() - t0);
  }
  const ourIndex = index as SuggestIndex;
  const ours: Ranker = (name, colour) =>
    suggestIn(ourIndex, { name, no: null, colour: colour ?? null }, LIMIT).map((s) => s.no);
  // Timed first, while the heap holds what the app's suggestion thread holds (the index), not Fuse.js's
  // and FTS5's copies of the catalogue: their garbage collection would be timed as ours.
  const timed = [...(ldraw?.evaluation.map((p) => p.ldrawName) ?? []), ...(brickstore?.map((c) => c.name) ?? [])];
  if (timed.length > 0) {
    for (const name of timed) ours(name); // warm up the JIT
    collectGarbage();
    const latency = timePerName(timed, TIMING_ROUNDS, ours, 1);
    out.push({
      name: 'suggestions: p99 per line over both sets, all three rules',
      ranOn:
        `${timed.length} names (${ldraw?.evaluation.length ?? 'no'} LDraw development, ${brickstore?.length ?? 'no'} BrickStore) × ${TIMING_ROUNDS} rounds ` +
        `after a warm-up, up to ${LIMIT} suggestions each, on ${catalogue}; each name's median of its rounds, the p99 over names; ` +
        `mean ${latency.mean.toFixed(3)} ms; of all ${latency.samples} samples as they came: p99 ${latency.rawP99.toFixed(3)} ms, max ${latency.max.toFixed(3)} ms, ${latency.over} over 1 ms`,
      measuredMs: latency.p99,
      baselineName: 'the 1 ms bar',
      baselineMs: 1,
      maxRatio: 1,
    });
  } else {
    out.push({ skipped: 'suggestions: p99 per line over both sets: skipped, neither set could be built' });
  }

  const fuse = new Fuse(items, { keys: ['name'] });
  const fuseRank: Ranker = (name) => fuse.search(name, { limit: LIMIT }).map((r) => r.item.no);
  const fts = fts5Ranker(items);

  if (brickstore === null) {
    out.push({
      skipped: 'suggestion quality: BrickStore renamed names: skipped, ../shared/data/brickstore-bsx is absent',
    });
  } else {
    const queries: Query[] = brickstore.map((c) => ({ no: c.no, name: c.name }));
    const odd = queries.filter((q) => !numberHashIsEven(q.no));
    const mine = hitsOf(queries, ours);
    progress(`Fuse.js on the ${queries.length} BrickStore names (a second or more each)…`);
    const table = hitTable([
      ['ours', mine],
      ['Fuse.js (default options)', hitsOf(queries, fuseRank)],
      ['SQLite FTS5 bm25', hitsOf(queries, fts.rank)],
      ['ours, odd-hash numbers only', hitsOf(odd, ours)],
    ]);
    out.push({
      name: 'suggestion quality: BrickStore renamed names, hit@5',
      ranOn: `the ${queries.length} distinct (number, name) parts of the ../shared/data .bsx files whose name differs from Rebrickable's (case and spacing folded), every one for each ranker, on ${catalogue}`,
      measuredMs: pct(mine.at5, mine.n),
      baselineName: 'the 90 % bar',
      baselineMs: 90,
      maxRatio: null,
      minRatio: 1,
      unit: '%',
      check: {
        what: `the set is issue 11's ${EXPECTED_BRICKSTORE_CASES} cases`,
        ok: queries.length === EXPECTED_BRICKSTORE_CASES,
        detail: `${queries.length} cases`,
      },
      details: table,
    });
  }

  if (ldraw === null) {
    out.push({
      skipped: 'suggestion quality: LDraw development set: skipped, ../shared/data/ldraw/parts.lst.gz is absent',
    });
  } else {
    const queries: Query[] = ldraw.evaluation.map((p) => ({ no: p.no, name: p.ldrawName }));
    const { sample, k } = everyKth(queries, FUSE_SAMPLE);
    const mine = hitsOf(queries, ours);
    const theirs = hitsOf(queries, fts.rank);
    const mineOnSample = hitsOf(sample, ours);
    progress(`Fuse.js on ${sample.length} of the ${queries.length} LDraw names (a second or more each)…`);
    const fuseOnSample = hitsOf(sample, fuseRank);
    const ftsOnSample = hitsOf(sample, fts.rank);
    const oursPct = pct(mine.at5, mine.n);
    const ftsPct = pct(theirs.at5, theirs.n);
    const fusePct = pct(fuseOnSample.at5, fuseOnSample.n);
    const oursSamplePct = pct(mineOnSample.at5, mineOnSample.n);
    out.push({
      name: 'suggestion quality: LDraw development set (odd hashes), hit@5',
      ranOn:
        `the ${queries.length} LDraw names whose number hashes odd (${ldraw.train.length} even ones are left for learning), of the ` +
        `LDraw parts Rebrickable has under another name (case and spacing folded), on ${catalogue}; ` +
        `Fuse.js on every ${k}th of them (${sample.length}), ours and FTS5 on all and on that sample`,
      measuredMs: oursPct,
      baselineName: `the better of Fuse.js (${fusePct.toFixed(1)} % on the sample) and FTS5 bm25 (${ftsPct.toFixed(1)} % on all)`,
      baselineMs: Math.max(fusePct, ftsPct),
      maxRatio: null,
      minRatio: 1,
      unit: '%',
      // "Ahead" is strict, and each is compared on the same queries: FTS5 on all, Fuse.js on its sample.
      check: {
        what: 'strictly ahead of both on the same queries',
        ok: oursPct > ftsPct && oursSamplePct > fusePct,
        detail: `ours ${oursPct.toFixed(1)} % vs FTS5 ${ftsPct.toFixed(1)} % on all ${queries.length}; ours ${oursSamplePct.toFixed(1)} % vs Fuse.js ${fusePct.toFixed(1)} % on the ${sample.length} sampled`,
      },
      details: hitTable([
        ['ours, all', mine],
        ['SQLite FTS5 bm25, all', theirs],
        [`ours, sample of ${sample.length}`, mineOnSample],
        [`Fuse.js, sample of ${sample.length}`, fuseOnSample],
        [`SQLite FTS5 bm25, sample`, ftsOnSample],
      ]),
    });
  }
  const lego = legoNamePairs();
  if (lego === null) {
    out.push({
      skipped:
        "suggestion quality: LEGO's element names: skipped, the PAB inventory (../shared/data/brickstore-bsx) is absent",
    });
  } else {
    // As a Pick a Brick line comes: its name and its colour; and the name alone, as typed in the search box.
    const queries: Query[] = lego.evaluation.map((p) => ({ no: p.no, name: p.legoName, colour: p.colour }));
    const mine = hitsOf(queries, ours);
    const byNameAlone = hitsOf(queries, (name) => ours(name));
    // The ceiling of learning renamed words: the same index with a table learned from both halves, the
    // measured one too — not a result (it has seen the answers), but how far this kind of learning can go.
    const asPairs = (list: typeof lego.train) =>
      list.map((p) => ({ ldrawName: p.legoName, rebrickableName: p.rebrickableName }));
    const seenAll = new SuggestIndex(
      items,
      [],
      learnFromNamings([ldraw?.train ?? [], [...asPairs(lego.train), ...asPairs(lego.evaluation)]]),
    );
    const ceiling = hitsOf(queries, (name, colour) =>
      suggestIn(seenAll, { name, no: null, colour: colour ?? null }, LIMIT).map((s) => s.no),
    );
    out.push({
      name: "suggestion quality: LEGO's element names (the PAB inventory, odd hashes), hit@5",
      ranOn:
        `the ${queries.length} LEGO element names of the PAB inventory whose number hashes odd (${lego.train.length} even ones are left ` +
        `for learning), each with its line's colour, against its part's number in ${catalogue} (the same number, or Rebrickable's for BrickLink's); ` +
        `"learned from both halves" has seen the measured half too: not a result, the most renamed words can give`,
      measuredMs: pct(mine.at5, mine.n),
      baselineName: 'the 70 % goal (issue 24)',
      baselineMs: 70,
      maxRatio: null,
      reportOnly: "SPEC §12: the data here has no table of LEGO's names",
      unit: '%',
      details: hitTable([
        ["ours, name and the line's colour", mine],
        ['ours, the name alone', byNameAlone],
        ['ours, learned from both halves', ceiling],
        ['SQLite FTS5 bm25', hitsOf(queries, fts.rank)],
      ]),
    });
  }
  fts.close();

  out.push({
    name: 'suggestion index build',
    ranOn: `new SuggestIndex over ${catalogue}, the first (cold) build; the next two took ${builds
      .slice(1)
      .map((b) => b.toFixed(0))
      .join(' and ')} ms`,
    measuredMs: builds[0] ?? 0,
    baselineName: 'the 1 s bar',
    baselineMs: 1000,
    maxRatio: 1,
  });
  return out;
}
