import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  agreementData,
  CATALOGUE_LETTERS,
  CATALOGUE_TITLES,
  CATALOGUES,
  runOnRealData,
  shownDisagreement,
} from './agreement.ts';
import type { BenchRow } from './report.ts';
import type { Disagreement } from './agreement.ts';

/** How many disagreements have each pattern (which answers agree), the most first. */
function patterns(disagreements: readonly Disagreement[]): string[] {
  const counts = new Map<string, number>();
  for (const d of disagreements) counts.set(d.pattern, (counts.get(d.pattern) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${n} × ${p}`);
}

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data');

/**
 * Issue 60, "An agreement audit": every real document placed against a Rebrickable-numbered catalogue, a
 * BrickLink-numbered one and one with every table, the three answers of each line compared through the
 * tables (bar: 0 disagreements left unexplained). It lists every line that disagrees: the next collision
 * of numberings, found before a shop does.
 */
export async function benchAgreement(): Promise<BenchRow | { skipped: string }> {
  if (!agreementData(SHARED))
    return { skipped: 'agreement: skipped, the BrickStore documents or the catalogue files are not in ../shared/data' };
  const run = await runOnRealData(SHARED);
  const { audit } = run;
  const explained = audit.disagreements.length - audit.unexplained;
  // Unexplained first: they are what the row is for.
  const listed = [...audit.disagreements].sort((a, b) => Number(b.silent.length > 0) - Number(a.silent.length > 0));
  return {
    name: 'agreement: every real document placed against three catalogues, answers compared through the tables',
    ranOn: `${audit.documents.length} BrickStore documents (../shared/data/brickstore-bsx); ${CATALOGUES.map(
      (c) => `${CATALOGUE_TITLES[c]}: ${run.catalogues[c]}`,
    ).join('; ')}`,
    measuredMs: audit.lines === 0 ? 100 : (100 * (audit.lines - audit.unexplained)) / audit.lines,
    baselineName: 'every line agreeing or its disagreement explained',
    baselineMs: 100,
    maxRatio: null,
    minRatio: 1,
    unit: '%',
    check: {
      what: '0 disagreements left unexplained',
      ok: audit.unexplained === 0,
      detail: `${audit.lines} lines, ${audit.disagreements.length} disagree: ${explained} explained, ${audit.unexplained} unexplained`,
    },
    details: [
      'same through the tables: both unplaced, or the same colour and type and one number in one numbering, or a number the all-tables store gives the other item in that numbering (itemNumbers: known)',
      "explained: no answer silent: each is unplaced with a reason, placed with a via, or the line's own number in its own numbering (the catalogue's, or one the tables give the item) in its own colour",
      `catalogues loaded in ${Math.round(run.loadMs / 1000)} s; every document placed three times in ${Math.round(run.placeMs)} ms`,
      `patterns (${CATALOGUES.map((c) => `${CATALOGUE_LETTERS[c]}: ${CATALOGUE_TITLES[c]}`).join(', ')}; = the same through the tables):`,
      ...patterns(audit.disagreements).map((p) => `  ${p}`),
      ...audit.documents.map(
        (d) =>
          `${d.name}: ${d.lines} lines, ${d.disagree} disagree${d.warnings.length === 0 ? '' : `; warned: ${[...new Set(d.warnings)].join(', ')}`}`,
      ),
      ...listed.map((d) => shownDisagreement(d, audit.colourNames)),
    ],
  };
}
