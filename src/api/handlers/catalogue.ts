/** The catalogue: suggestions and search (SPEC §7), its state, its loads and the look-up job (SPEC §5). */
import { missingCredentials } from '../credentials.ts';
import { colourAndCategoryCounts } from '../../store/catalogue.ts';
import { budgetStatus } from '../../catalogue/budget.ts';
import {
  catalogueJobStatus,
  loaderWords,
  requestCatalogueJobCancel,
  stoppedLoadWords,
} from '../../catalogue/catalogue-job.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { isBrickLinkItems } from '../../catalogue/read-file.ts';
import { itemsTypeOf } from '../../catalogue/formats/bricklink-tab.ts';
import { listColours } from '../../store/colours.ts';
import { getLine, type GivenLine, type LineView } from '../../store/lines.ts';
import { colourInfo } from '../../store/colours.ts';
import { catalogueItemName } from '../../store/catalogue.ts';
import { getSetting } from '../../store/settings.ts';
import type { ReadableDb } from '../../store/db.ts';
import { catalogueLookup } from '../../placement/catalogue-lookup.ts';
import { checkColour, colourOf, elementIdBeside, memoryFor, placeItem } from '../../placement/rule.ts';
import { DEFAULT_SUGGESTION_LIMIT, suggestIn } from '../../suggest/catalogue-index.ts';
import { ownerPlace } from '../../store/owners.ts';
import { withoutRepeats } from '../views.ts';
import {
  type ReadDeps,
  reads,
  startsWork,
  suggests,
  withCredentials,
  writes,
  type PartialCallTable,
} from './define.ts';
import type { SuggestionView } from '../contract.ts';

function sameNumber(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * A search for a number (issue 47): the item of that very number first, as the catalogue or the shop
 * numbers it (`shown`); then its letter variants (3957a, 3957b…) in their order; then the rest as found.
 */
export function numberFirst(found: readonly SuggestionView[], query: string): SuggestionView[] {
  const q = query.trim().toLowerCase();
  const rank = (s: SuggestionView): number => {
    if (sameNumber(s.no, q) || (s.shown !== undefined && sameNumber(s.shown, q))) return 0;
    const rest = s.no.toLowerCase();
    return rest.startsWith(q) && /^[a-z]+$/.test(rest.slice(q.length)) ? 1 : 2;
  };
  const ranked = found.map((s, at) => ({ s, at, rank: rank(s) }));
  ranked.sort((x, y) => x.rank - y.rank || (x.rank === 1 ? x.s.no.localeCompare(y.s.no) : 0) || x.at - y.at);
  return ranked.map((r) => r.s);
}

/**
 * The catalogue colour a line is in, as placement reads it (SPEC §6): its BrickLink id, or its colour name
 * in any vocabulary the colour table knows, or another numbering's number, or the colour staff chose for an
 * unknown one.
 */
function lineColour(db: ReadableDb, given: GivenLine): number | null {
  if (given.colourId === null && given.colourName === null) return null;
  return colourOf(checkColour(given, catalogueLookup(db)));
}

/**
 * Suggestions with their numbers as staff read them (the shop numbering first, SPEC §5), and each its
 * picture's colour (SPEC §15): the line's `colour`, unless the element tables make the item only in others.
 */
function named(d: ReadDeps, suggestions: readonly SuggestionView[], colour: number | null = null): SuggestionView[] {
  const shownNo = d.numberShower(suggestions);
  const numbered = (s: SuggestionView) => {
    const n = shownNo(s);
    return { shown: n.shown, ...(n.sharedWith.length === 0 ? {} : { sharedWith: n.sharedWith }) };
  };
  // No colour to picture it in: its usual picture, which needs no word.
  if (colour === null) return suggestions.map((s) => ({ ...s, ...numbered(s) }));
  const index = d.suggestionIndex();
  const colourName = colourInfo(d.db, colour)?.name ?? `colour ${colour}`;
  return suggestions.map((s) => {
    const notMadeIn = index?.coloursOf(s.type, s.no)?.includes(colour) === false;
    return {
      ...s,
      ...numbered(s),
      pictureColour: notMadeIn ? null : colour,
      ...(notMadeIn ? { notMadeIn: colourName } : {}),
    };
  });
}

/** The colour a line's suggestions are pictured in: where it is placed, else its own as placement reads it. */
function pictureColourOf(db: ReadableDb, line: LineView): number | null {
  return line.placed !== null ? line.placed.colour : lineColour(db, line.given);
}

/**
 * The suggestions the placement rule itself gives an unplaced line (SPEC §6, §7): the items the tables
 * give its number that they can't tell apart; for a line a memory refused for its colour, the parts
 * related to the remembered item that the element tables make in that colour (issue 60 §2).
 */
function ruleCandidates(d: ReadDeps, line: LineView, colour: number | null, limit: number): SuggestionView[] {
  if (line.placed !== null) return [];
  const lookup = catalogueLookup(d.db);
  const p = placeItem({ ...line.given, remarks: line.remarks }, lookup);
  if (p.item !== null) return [];
  const fromTables = (p.candidates ?? []).map((c): SuggestionView => ({
    type: c.item.type,
    no: c.item.no,
    name: catalogueItemName(d.db, c.item.type, c.item.no) ?? '',
    rule: 'related',
    related: c.how,
    matched: [],
    marks: [],
  }));
  if (line.reason?.code !== 'remembered-not-in-colour' || colour === null) return fromTables;
  const memory = memoryFor(line.given, lookup);
  if (memory === null) return fromTables;
  const index = d.suggestionIndex();
  const madeInColour = d
    .relatedSuggestions(memory.item.no, limit)
    .filter((s) => index?.coloursOf(s.type, s.no)?.includes(colour) === true);
  return [...fromTables, ...madeInColour];
}

/** A load whose loader is gone (`who`: `loaderWords`), in words: it failed, and nothing takes it up again. */
export const orphanedLoad = (who: string): string => stoppedLoadWords(who);

export const CATALOGUE_CALLS = {
  'lines.suggest': suggests((d) => ({ lineId, limit }) => {
    const line = getLine(d.db, lineId);
    const index = d.suggestionIndex();
    if (index === null) return d.notReady();
    const n = limit ?? DEFAULT_SUGGESTION_LIMIT;
    // A number the catalogue lacks: the parts the tables relate to it lead (SPEC §7 `related`). The line's
    // colour pulls the parts made in it (`made-in.ts`), however its document gave the colour.
    // A line that gave a LEGO element id: what the tables say of the element leads, and its digits are no
    // number to take prefixes of (4162916 is no 4162 Tile).
    const element = elementIdBeside(line.remarks);
    const colour = lineColour(d.db, line.given);
    const related = [
      // What the rule could not settle leads: the items the tables give the line's number (in its colour).
      ...ruleCandidates(d, line, colour, n),
      ...(element !== null && element !== line.given.no ? d.relatedSuggestions(element, n) : []),
      ...(line.given.no !== null && !d.inCatalogue(line.given.no) ? d.relatedSuggestions(line.given.no, n) : []),
    ];
    const byNumber = element !== null && element === line.given.no?.trim() ? null : line.given.no;
    return {
      ready: true,
      suggestions: named(
        d,
        withoutRepeats(related, suggestIn(index, { name: line.given.name, no: byNumber, colour }, n), n),
        pictureColourOf(d.db, line),
      ),
    };
  }),
  'catalogue.search': suggests((d) => ({ query, limit, by, forLine }) => {
    const index = d.suggestionIndex();
    if (index === null) return d.notReady();
    const n = limit ?? DEFAULT_SUGGESTION_LIMIT;
    // The search box belongs to the selected line (SPEC §9): its colour pulls as in the line's suggestions.
    const line = forLine === undefined ? null : getLine(d.db, forLine);
    const colour = line === null ? null : lineColour(d.db, line.given);
    const found =
      by === 'name'
        ? index.byName(query, n, colour)
        : by === 'number'
          ? index.byNumberPrefix(query, n)
          : index.search(query, n, colour);
    // By number (a single word may be one), the parts the tables relate to it come first (SPEC §7) — after
    // the number itself, as the catalogue or the shop numbers it, and its letter variants in order.
    const word = by !== 'name' && /^\S+$/.test(query.trim());
    const related = word ? d.relatedSuggestions(query, n) : [];
    const exact = word ? index.byNumberPrefix(query, n).filter((s) => sameNumber(s.no, query)) : [];
    const all = named(d, withoutRepeats([...exact, ...related], found, n), line && pictureColourOf(d.db, line));
    return { ready: true, suggestions: word ? numberFirst(all, query) : all };
  }),
  'catalogue.status': reads((d) => () => {
    const job = catalogueJobStatus(d.db, d.ctx.storePath);
    const detail = job.record?.detail as { files?: unknown } | null | undefined;
    // A load whose loader is gone never goes on (nothing takes a catalogue load up again): it failed, and says why.
    const orphaned = job.record?.state === 'running' && job.alive === false;
    const { items, sources, translations } = d.catalogueCounts();
    return {
      items,
      ...colourAndCategoryCounts(d.db),
      sources,
      translations,
      job:
        job.record === null
          ? null
          : {
              state: orphaned ? 'failed' : job.record.state,
              kind: job.record.kind,
              owner: job.record.owner,
              alive: job.alive === true,
              ownedHere: job.alive === true && ownerPlace(d.db, job.record.owner).here,
              progress: job.record.progress,
              error: orphaned ? orphanedLoad(loaderWords(job.record)) : job.record.error,
              desk: job.record.desk ?? null,
              files: Array.isArray(detail?.files) ? detail.files.filter((f): f is string => typeof f === 'string') : [],
              updatedAt: job.record.updatedAt,
            },
      jobProblem: job.problem,
      budget: budgetStatus(d.db, d.clock),
      suggestionsReady: d.suggestions.ready(),
      suggestionsProblem: d.suggestions.ready() ? null : d.suggestions.why(),
    };
  }),
  'catalogue.colours': reads((d) => () => listColours(d.db)),
  'catalogue.load': startsWork((d) => ({ files, type }) => {
    // Busy is decided by the catalogue job itself, in the runner; refuse early when plainly busy.
    const job = catalogueJobStatus(d.db, d.ctx.storePath);
    if (job.record?.state === 'running' && job.alive) {
      throw new BrickWorkError('busy', `Busy: a catalogue is being loaded by ${loaderWords(job.record)}.`);
    }
    // A BrickLink items download names no item type: it is chosen, or its name says, or it is refused now.
    for (const file of files) if (isBrickLinkItems(file)) itemsTypeOf(file.name, type ?? null);
    d.ctx.jobs.startCatalogueLoad(files, type ?? null);
    return { started: true };
  }),
  'catalogue.cancel': writes((d) => () => ({ cancelled: requestCatalogueJobCancel(d.db, d.ctx.storePath, d.clock) })),
  'lookup.start': withCredentials(
    writes((d) => ({ limit }) => {
      const credentials = d.ctx.credentials.get();
      if (credentials === null) throw missingCredentials(d.ctx.credentials.whereToEnter);
      const jobId = d.ctx.jobs.startLookup(limit ?? null, credentials, getSetting(d.db, 'api-url'));
      d.changed('look-up job');
      return { jobId };
    }),
  ),
} satisfies PartialCallTable;
