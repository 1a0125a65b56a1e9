import type { ColourPlacementView, MemoriesView, RememberedPlacementView, TaughtNameView } from '../../api/contract.ts';
import { PLACEMENT_CONFIRMATIONS, type PlacementConfirmation } from '../../vocabulary/confirmations.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { numberArg, UsageError, type ContractCommand } from '../command.ts';
import { lineText } from './orders.ts';

export const place: ContractCommand = {
  name: ['place'],
  synopsis: `LINE_ID TYPE NUMBER [--colour ID] [--confirm ${PLACEMENT_CONFIRMATIONS.join(',')}]`,
  summary:
    'place a line by hand (the item is remembered for its number or name; without --colour it keeps its own colour); ' +
    '--confirm what it would also do: move lines a remembered placement had placed, or cross item types',
  options: { colour: { type: 'string' }, confirm: { type: 'string' } },
  args: { min: 3, max: 3 },
  calls: ['lines.get', 'lines.place'],
  words: { confirm: '--confirm' },
  async run(api, [lineId, type, no], options) {
    const colour = options['colour'];
    const confirm = options['confirm'];
    const placing = {
      lineId: numberArg(lineId),
      type: type ?? '',
      no: no ?? '',
      colourId: typeof colour === 'string' ? numberArg(colour) : null,
      ...(typeof confirm === 'string'
        ? {
            confirm: confirm
              .split(',')
              .map((c) => c.trim())
              .filter(Boolean) as PlacementConfirmation[],
          }
        : {}),
    };
    api.check('lines.place', placing);
    // The line as it stands, named as what this command saw (SPEC §14): another desk's fix between this
    // read and the write is refused (line-changed, naming it), never overwritten without a word.
    const { placed } = await api.call('lines.get', { lineId: placing.lineId });
    const seen = placed === null ? null : { type: placed.type, no: placed.no, colourId: placed.colour };
    const r = await api.call('lines.place', { ...placing, seen });
    const plural = (n: number) => (n === 1 ? '' : 's');
    const others = [
      r.others.placed ? `placed ${r.others.placed} more line${plural(r.others.placed)}` : '',
      r.others.moved ? `moved ${r.others.moved} line${plural(r.others.moved)} the old memory had placed` : '',
      r.others.unplaced ? `${r.others.unplaced} line${plural(r.others.unplaced)} still unplaced` : '',
    ].filter(Boolean);
    const text = `${lineText(r.line)}${others.length ? `\n${others.join('; ')}, each in its own colour.` : ''}`;
    return { json: r, text };
  },
};

/** How the CLI names a memory: I12 for an item, C3 for a colour, N5 for a taught name. */
const PREFIX = { item: 'I', colour: 'C', name: 'N' } as const;
type MemoryKind = keyof typeof PREFIX;

const itemText = (p: RememberedPlacementView) =>
  `${`I${p.id}`.padStart(6)}  ${p.given.type} ${p.given.no ?? `"${p.given.name ?? ''}"`} → ${p.item.type} ${p.item.no}${p.item.name ? ` (${p.item.name})` : ''}`;
const nameText = (p: TaughtNameView) =>
  `${`N${p.id}`.padStart(6)}  "${p.name}" → ${p.item.type} ${p.item.no}${p.item.name ? ` (${p.item.name})` : ''}`;
const colourText = (p: ColourPlacementView) => {
  const given =
    p.given.numbering === 'bricklink-id' ? `colour ${p.given.colourId ?? ''}` : `colour "${p.given.name ?? ''}"`;
  return `${`C${p.id}`.padStart(6)}  ${given} → ${p.colour.name ?? 'colour'} (${p.colour.id})`;
};

const MEMORY_WORD = { item: 'placement', colour: 'colour', name: 'name' } as const;

/** What a memory gives, as `placements.forget` names it seen (an item, or a colour); null when there is none. */
function seenOf(
  kind: MemoryKind,
  id: number,
  m: MemoriesView,
): { type: string; no: string } | { colourId: number } | null {
  if (kind === 'colour') {
    const colour = m.colours.find((p) => p.id === id)?.colour;
    return colour === undefined ? null : { colourId: colour.id };
  }
  const item = (kind === 'item' ? m.items : m.names).find((p) => p.id === id)?.item;
  return item === undefined ? null : { type: item.type, no: item.no };
}

/** The memories with the references `placements forget` takes (`ref`: I12, C3, N5). */
function memoriesJson(m: MemoriesView) {
  const withRef = <T extends { id: number }>(kind: MemoryKind, list: readonly T[]) =>
    list.map((p) => ({ ref: `${PREFIX[kind]}${p.id}`, ...p }));
  return { items: withRef('item', m.items), colours: withRef('colour', m.colours), names: withRef('name', m.names) };
}

export const placements: ContractCommand = {
  name: ['placements'],
  synopsis: '',
  summary:
    'what hand placements taught: items for given numbers or names (I…), colours for unknown colours (C…), names of items (N…)',
  args: { min: 0, max: 0 },
  calls: ['placements.list'],
  async run(api) {
    const m = await api.call('placements.list', {});
    const text = [
      m.items.length === 0
        ? 'No remembered item placements.'
        : ['Items remembered for given numbers or names:', ...m.items.map(itemText)].join('\n'),
      m.colours.length === 0
        ? 'No remembered colours.'
        : ['Colours remembered for colours the catalogue does not know:', ...m.colours.map(colourText)].join('\n'),
      m.names.length === 0
        ? 'No names taught.'
        : ['Names taught to items (suggestions find the item by them):', ...m.names.map(nameText)].join('\n'),
    ].join('\n');
    return { json: memoriesJson(m), text };
  },
};

export const placementsForget: ContractCommand = {
  name: ['placements', 'forget'],
  synopsis: 'ID',
  summary: 'forget a remembered placement, colour or taught name (I12, C3, N5); lines it placed stay placed',
  args: { min: 1, max: 1 },
  calls: ['placements.list', 'placements.forget'],
  async run(api, [ref]) {
    const m = /^([icn]?)(\d+)$/i.exec((ref ?? '').trim());
    if (!m) throw new UsageError(`ID is a remembered placement as "placements" lists it (I12, C3, N5), not "${ref}"`);
    const id = Number(m[2]);
    const prefix = (m[1] ?? '').toUpperCase();
    const kinds = Object.keys(PREFIX) as MemoryKind[];
    let kind = kinds.find((k) => PREFIX[k] === prefix);
    api.check('placements.forget', { kind: kind ?? 'item', id });
    // The memories as they stand: the one forgotten is named as what this command saw (SPEC §14).
    const all = await api.call('placements.list', {});
    const lists = { item: all.items, colour: all.colours, name: all.names };
    if (kind === undefined) {
      // A bare number: the kind of memory that has it, when only one has.
      const has = kinds.filter((k) => lists[k].some((p) => p.id === id));
      if (has.length > 1) {
        const refs = has.map((k) => `${PREFIX[k]}${id}`);
        throw new UsageError(`${refs.join(' and ')} exist: say which (placements forget ${refs.join(' or ')})`);
      }
      kind = has[0] ?? 'item';
    }
    const seen = seenOf(kind, id, all);
    if (seen === null) {
      // Not there when read: one made under its id since is not this command's to forget.
      throw new BrickWorkError('not-found', `There is no remembered ${MEMORY_WORD[kind]} ${PREFIX[kind]}${id}.`);
    }
    const r = await api.call('placements.forget', { kind, id, seen });
    return { json: { ...r, ref: `${PREFIX[kind]}${id}`, kind }, text: `${r.step.label} (step ${r.step.id}).` };
  },
};
