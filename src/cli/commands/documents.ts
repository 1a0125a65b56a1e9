import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_CLOCK } from '../../clock.ts';
import { BrickWorkError } from '../../errors.ts';
import { confirmImport, planImport, type PlannedDocument } from '../../documents/import.ts';
import { shownTime, takeBack } from '../../documents/take-back.ts';
import { formatMoneyE4 } from '../../documents/values.ts';
import { bricklinkXml } from '../../exports/bricklink-xml.ts';
import { summaryCsv } from '../../exports/summary.ts';
import { writeFileAtomically } from '../../files.ts';
import { forgetMemory, placeByHand, type MemoryKind } from '../../hand/placement.ts';
import { reasonOf } from '../../reasons.ts';
import { listDocuments, sameFileDocuments, type DocumentRow } from '../../store/documents.ts';
import { orderLines, type LineView } from '../../store/lines.ts';
import {
  colourMemories,
  itemMemories,
  taughtNames,
  type ColourMemory,
  type ItemMemory,
  type TaughtNameMemory,
} from '../../store/memories.ts';
import { getOrder, listOrders, orderSummary } from '../../store/orders.ts';
import { nextRedo, nextUndo, redo, undo } from '../../undo/history.ts';
import { UsageError, type Command, type CommandContext, type OptionValues } from '../command.ts';

function id(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new UsageError(`${what} is a number, not "${text ?? ''}"`);
  return Number(text);
}

function readFile(file: string): { name: string; content: Uint8Array } {
  try {
    return { name: path.basename(file), content: fs.readFileSync(file) };
  } catch (e) {
    throw new BrickWorkError(
      'not-found',
      `${file} can't be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  }
}

function previewJson(doc: PlannedDocument) {
  const t = doc.target;
  return {
    document: { id: doc.revival?.document.id ?? null, key: doc.parsed.key, state: 'preview' },
    order:
      t === null
        ? null
        : t.kind === 'new'
          ? { id: null, reference: t.reference, currency: t.currency }
          : { id: t.order.id, reference: t.order.reference, currency: t.order.currency },
    lines: doc.counts,
    revived: doc.revival !== null,
    format: doc.parsed.format,
    header: doc.parsed.header,
    pairs: doc.revival?.pairs ?? null,
    preview: doc.lines.map((l) => ({
      position: l.position,
      given: l.given,
      quantity: l.quantity,
      placed:
        l.placement.item === null
          ? null
          : { type: l.placement.item.type, no: l.placement.item.no, colour: l.placement.colourId },
      reason: reasonOf(l.placement.reason),
    })),
  };
}

export const importDocument: Command = {
  name: ['import'],
  synopsis: 'FILE [--order ID] [--dry-run] [--as-new]',
  summary: 'import an order document (a preview only with --dry-run); revives an undone one',
  options: { order: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'as-new': { type: 'boolean' } },
  args: { min: 1, max: 1 },
  run(ctx, [file], options) {
    const request = {
      file: readFile(file ?? ''),
      orderId: options['order'] === undefined ? null : id(options['order'] as string, '--order'),
      asNew: options['as-new'] === true,
    };
    if (options['dry-run'] === true) {
      return ctx.withStore('read', (store) => {
        const plan = planImport(store.db, request);
        if (plan.refusal) throw new BrickWorkError(plan.refusal.code, plan.refusal.message);
        const text = plan.documents
          .map((d) => {
            const where =
              d.target?.kind === 'new'
                ? `a new order ${d.target.reference}`
                : `order ${d.target?.order.reference ?? '?'}`;
            return `${d.revival ? 'Would revive' : 'Would import'} ${d.parsed.key} into ${where}: ${d.counts.total} lines, ${d.counts.placed} placed, ${d.counts.unplaced} unplaced.`;
          })
          .join('\n');
        return { json: { imports: plan.documents.map(previewJson) }, text };
      });
    }
    return ctx.withStore('write', (store) => {
      const imports = confirmImport(store.db, request, SYSTEM_CLOCK);
      const text = imports
        .map(
          (r) =>
            `${r.revived ? 'Revived' : 'Imported'} ${r.document.key} into order ${r.order.reference} (#${r.order.id}, ${r.order.currency}): ` +
            `${r.lines.total} lines, ${r.lines.placed} placed, ${r.lines.unplaced} unplaced.`,
        )
        .join('\n');
      return { json: { imports }, text };
    });
  },
};

export const orders: Command = {
  name: ['orders'],
  synopsis: '',
  summary: 'the orders, with counts of their saved lines',
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('read', (store) => {
      const list = listOrders(store.db).map((o) => ({ ...o, totalValue: formatMoneyE4(o.totalValueE4) }));
      const text =
        list.length === 0
          ? 'No orders yet.'
          : list
              .map(
                (o) =>
                  `#${String(o.id).padEnd(5)} ${o.reference.padEnd(28)} ${(o.counterparty ?? '').padEnd(20)} ${o.currency} ` +
                  (o.state === 'undone'
                    ? `taken back on ${shownTime(o.undoneAt)}; import the file again to revive it`
                    : `${String(o.lines).padStart(6)} lines ${String(o.unplaced).padStart(5)} unplaced`),
              )
              .join('\n');
      return { json: { orders: list }, text };
    });
  },
};

function lineJson(l: LineView) {
  return {
    id: l.id,
    position: l.position,
    document: l.documentKey,
    given: l.given,
    quantity: l.quantity,
    unitPrice: l.unitPriceE4 === null ? null : formatMoneyE4(l.unitPriceE4),
    condition: l.condition,
    remarks: l.remarks,
    placed:
      l.placed === null
        ? null
        : {
            type: l.placed.type,
            no: l.placed.no,
            colour: l.placed.colour,
            colourName: l.placed.colourName,
            colourRgb: l.placed.colourRgb,
            by: l.placed.by,
            name: l.placed.name,
          },
    givenColour: l.givenColour,
    reason: l.reason,
  };
}

function lineText(l: LineView): string {
  const given = [l.given.type, l.given.no, l.given.name].filter(Boolean).join(' ');
  const colour = l.placed?.colour == null ? '' : ` in ${l.placed.colourName ?? `colour ${l.placed.colour}`}`;
  const where = l.placed ? `${l.placed.type} ${l.placed.no}${colour}` : `— ${l.reason?.text ?? ''}`;
  return `${String(l.id).padStart(7)} ${String(l.position).padStart(5)}  ${given.padEnd(40)} ×${String(l.quantity).padEnd(5)} ${where}`;
}

export const lines: Command = {
  name: ['lines'],
  synopsis: 'ORDER_ID [--unplaced]',
  summary: 'the saved lines of an order, with placement and reason',
  options: { unplaced: { type: 'boolean' } },
  args: { min: 1, max: 1 },
  run(ctx, [orderId], options) {
    const oid = id(orderId, 'ORDER_ID');
    return ctx.withStore('read', (store) => {
      const order = orderSummary(store.db, oid);
      const list = orderLines(store.db, oid, { unplacedOnly: options['unplaced'] === true });
      // An undone order is not an empty one: say so rather than "No lines."
      const none =
        order.state === 'undone'
          ? `Order ${order.reference} was taken back on ${shownTime(order.undoneAt)}; import the file again to revive it.`
          : 'No lines.';
      return { json: { lines: list.map(lineJson) }, text: list.length === 0 ? none : list.map(lineText).join('\n') };
    });
  },
};

export const place: Command = {
  name: ['place'],
  synopsis: 'LINE_ID TYPE NUMBER [--colour ID]',
  summary:
    'place a line by hand (the item is remembered for its number or name; without --colour it keeps its own colour)',
  options: { colour: { type: 'string' } },
  args: { min: 3, max: 3 },
  run(ctx, [lineId, type, no], options) {
    const lid = id(lineId, 'LINE_ID');
    const colourId = options['colour'] === undefined ? null : id(options['colour'] as string, '--colour');
    return ctx.withStore('write', (store) => {
      const r = placeByHand(store.db, lid, { type: type ?? '', no: no ?? '', colourId }, SYSTEM_CLOCK);
      const others = [
        r.others.placed ? `placed ${r.others.placed} more line${r.others.placed === 1 ? '' : 's'}` : '',
        r.others.moved
          ? `moved ${r.others.moved} line${r.others.moved === 1 ? '' : 's'} the old memory had placed`
          : '',
        r.others.unplaced ? `${r.others.unplaced} line${r.others.unplaced === 1 ? '' : 's'} still unplaced` : '',
      ].filter(Boolean);
      const text = `${lineText(r.line)}${others.length ? `\n${others.join('; ')}, each in its own colour.` : ''}`;
      return {
        json: {
          line: lineJson(r.line),
          step: { id: r.step.id, kind: r.step.kind, label: r.step.label },
          remembered: r.remembered,
          others: r.others,
        },
        text,
      };
    });
  },
};

function documentJson(d: DocumentRow) {
  return {
    id: d.id,
    key: d.key,
    order: d.orderId,
    orderReference: d.orderReference,
    state: d.state,
    importedAt: d.importedAt,
    undoneAt: d.undoneAt,
    fileName: d.fileName,
    format: d.format,
    lines: d.lineCount,
  };
}

export const documents: Command = {
  name: ['documents'],
  synopsis: '[ORDER_ID]',
  summary: 'the imported and undone documents (of one order), with their state',
  args: { min: 0, max: 1 },
  run(ctx, [orderId]) {
    const oid = orderId === undefined ? null : id(orderId, 'ORDER_ID');
    return ctx.withStore('read', (store) => {
      if (oid !== null) getOrder(store.db, oid);
      const list = listDocuments(store.db, oid);
      const sameFile = sameFileDocuments(
        store.db,
        list.filter((d) => d.state === 'imported').map((d) => d.id),
      );
      const text =
        list.length === 0
          ? 'No documents.'
          : list
              .map(
                (d) =>
                  `${String(d.id).padStart(6)}  ${d.key.padEnd(32)} order ${d.orderReference} (#${d.orderId})  ` +
                  (d.state === 'imported'
                    ? `imported ${shownTime(d.importedAt)}`
                    : `taken back ${shownTime(d.undoneAt)}`),
              )
              .join('\n');
      return {
        json: {
          documents: list.map((d) => ({ ...documentJson(d), sameFile: (sameFile.get(d.id) ?? []).map((s) => s.id) })),
        },
        text,
      };
    });
  },
};

export const takeBackCommand: Command = {
  name: ['take-back'],
  synopsis: 'DOCUMENT_ID [--whole-file]',
  summary: 'take back an imported document, as one undo step (--whole-file: with the other documents of its file)',
  options: { 'whole-file': { type: 'boolean' } },
  args: { min: 1, max: 1 },
  run(ctx, [documentId], options) {
    const did = id(documentId, 'DOCUMENT_ID');
    return ctx.withStore('write', (store) => {
      const r = takeBack(store.db, did, { wholeFile: options['whole-file'] === true }, SYSTEM_CLOCK);
      const lines = r.documents
        .map(
          (d) =>
            `Took back ${d.key} from order ${d.orderReference} (#${d.orderId}): its ${d.lineCount} line${d.lineCount === 1 ? ' is' : 's are'} out of the order.`,
        )
        .concat(`Step ${r.step.id}: ${r.step.label}. Undo puts it back; importing the file again revives it.`);
      const first = r.stillImported[0];
      if (first !== undefined) {
        lines.push(
          `${r.documents[0]?.fileName ?? 'Its file'} also brought in ${r.stillImported.map((s) => `${s.key} (order ${s.orderReference}, #${s.orderId})`).join(', ')}, ` +
            `still imported; to import the file again whole, take ${r.stillImported.length === 1 ? 'it' : 'them'} back too: brick-work take-back ${first.id} --whole-file`,
        );
      }
      return {
        json: {
          step: { id: r.step.id, kind: r.step.kind, label: r.step.label },
          takenBack: r.documents.map(documentJson),
          stillImported: r.stillImported.map((s) => ({
            id: s.id,
            key: s.key,
            order: s.orderId,
            orderReference: s.orderReference,
          })),
        },
        text: lines.join('\n'),
      };
    });
  },
};

function undoRedo(direction: 'undo' | 'redo'): Command {
  return {
    name: [direction],
    synopsis: '[--step ID]',
    summary:
      direction === 'undo'
        ? 'take back the newest step (with --step, only if it is that step)'
        : 'put back the step undone last (with --step, only if it is that step)',
    options: { step: { type: 'string' } },
    args: { min: 0, max: 0 },
    run(ctx: CommandContext, _args, options) {
      const given = options['step'] === undefined ? null : id(options['step'] as string, '--step');
      return ctx.withStore('write', (store) => {
        // Without --step, the step the history names now: the same compare-and-set the app makes.
        const next = direction === 'undo' ? nextUndo(store.db) : nextRedo(store.db);
        const expected = given ?? next?.id;
        if (expected === undefined) {
          throw direction === 'undo'
            ? new BrickWorkError('nothing-to-undo', 'There is nothing to undo.')
            : new BrickWorkError('nothing-to-redo', 'There is nothing to redo.');
        }
        const step =
          direction === 'undo' ? undo(store.db, SYSTEM_CLOCK, expected) : redo(store.db, SYSTEM_CLOCK, expected);
        return {
          json: { step: { id: step.id, kind: step.kind, label: step.label } },
          text: `${direction === 'undo' ? 'Undid' : 'Redid'} step ${step.id}: ${step.label}`,
        };
      });
    },
  };
}
export const undoCommand = undoRedo('undo');
export const redoCommand = undoRedo('redo');

function output(ctx: CommandContext, options: OptionValues, content: string, what: Record<string, unknown>) {
  const out = options['out'];
  if (typeof out === 'string') {
    writeFileAtomically(path.resolve(out), content);
    return { json: { ...what, out: path.resolve(out) }, text: `Wrote ${path.resolve(out)}` };
  }
  return { json: { ...what, content }, text: content.replace(/\r?\n$/, '') };
}

export const exportSummary: Command = {
  name: ['export', 'summary'],
  synopsis: '[--out FILE]',
  summary: 'the summary CSV of the orders with saved lines',
  options: { out: { type: 'string' } },
  args: { min: 0, max: 0 },
  run(ctx, _args, options) {
    return ctx.withStore('read', (store) =>
      output(ctx, options, summaryCsv(store.db), { orders: listOrders(store.db, { savedOnly: true }).length }),
    );
  },
};

export const exportBricklink: Command = {
  name: ['export', 'bricklink'],
  synopsis: 'ORDER_ID [--out FILE]',
  summary: "BrickLink XML (mass upload) of an order's placed lines",
  options: { out: { type: 'string' } },
  args: { min: 1, max: 1 },
  run(ctx, [orderId], options) {
    const oid = id(orderId, 'ORDER_ID');
    return ctx.withStore('read', (store) => output(ctx, options, bricklinkXml(store.db, oid), { order: oid }));
  },
};

/** How the CLI names a memory: I12 for an item memory, C3 for a colour memory. */
const MEMORY_PREFIX: Record<MemoryKind, string> = { item: 'I', colour: 'C', name: 'N' };

function itemMemoryText(p: ItemMemory): string {
  const given = p.given.no ?? `"${p.given.name ?? ''}"`;
  return `${`I${p.id}`.padStart(6)}  ${p.given.type} ${given} → ${p.item.type} ${p.item.no}${p.item.name ? ` (${p.item.name})` : ''}`;
}

function nameMemoryText(p: TaughtNameMemory): string {
  return `${`N${p.id}`.padStart(6)}  "${p.name}" → ${p.item.type} ${p.item.no}${p.item.name ? ` (${p.item.name})` : ''}`;
}

function colourMemoryText(p: ColourMemory): string {
  const given =
    p.given.numbering === 'bricklink-id' ? `colour ${p.given.colourId ?? ''}` : `colour "${p.given.name ?? ''}"`;
  return `${`C${p.id}`.padStart(6)}  ${given} → ${p.colour.name ?? 'colour'} (${p.colour.id})`;
}

export const placements: Command = {
  name: ['placements'],
  synopsis: '',
  summary:
    'what hand placements taught: items for given numbers or names (I…), colours for unknown colours (C…), names of items (N…)',
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('read', (store) => {
      const items = itemMemories(store.db);
      const colours = colourMemories(store.db);
      const names = taughtNames(store.db);
      const text = [
        items.length === 0
          ? 'No remembered item placements.'
          : ['Items remembered for given numbers or names:', ...items.map(itemMemoryText)].join('\n'),
        colours.length === 0
          ? 'No remembered colours.'
          : ['Colours remembered for colours the catalogue does not know:', ...colours.map(colourMemoryText)].join(
              '\n',
            ),
        names.length === 0
          ? 'No names taught.'
          : ['Names taught to items (suggestions find the item by them):', ...names.map(nameMemoryText)].join('\n'),
      ].join('\n');
      return {
        json: {
          items: items.map((p) => ({ ref: `I${p.id}`, ...p })),
          colours: colours.map((p) => ({ ref: `C${p.id}`, ...p })),
          names: names.map((p) => ({ ref: `N${p.id}`, ...p })),
        },
        text,
      };
    });
  },
};

/** `I12`, `C3` or `N5`; a bare number when only one kind of memory has it. */
function memoryRef(db: Parameters<typeof itemMemories>[0], text: string): { kind: MemoryKind; id: number } {
  const m = /^([icn]?)(\d+)$/i.exec(text.trim());
  if (!m) throw new UsageError(`ID is a remembered placement as "placements" lists it (I12, C3, N5), not "${text}"`);
  const number = Number(m[2]);
  const prefix = (m[1] ?? '').toUpperCase();
  const kinds: MemoryKind[] = ['item', 'colour', 'name'];
  if (prefix !== '') return { kind: kinds.find((k) => MEMORY_PREFIX[k] === prefix) ?? 'item', id: number };
  const has: MemoryKind[] = [];
  if (itemMemories(db).some((p) => p.id === number)) has.push('item');
  if (colourMemories(db).some((p) => p.id === number)) has.push('colour');
  if (taughtNames(db).some((p) => p.id === number)) has.push('name');
  if (has.length > 1) {
    const refs = has.map((k) => `${MEMORY_PREFIX[k]}${number}`);
    throw new UsageError(`${refs.join(' and ')} exist: say which (placements forget ${refs.join(' or ')})`);
  }
  return { kind: has[0] ?? 'item', id: number };
}

export const placementsForget: Command = {
  name: ['placements', 'forget'],
  synopsis: 'ID',
  summary: 'forget a remembered placement, colour or taught name (I12, C3, N5); lines it placed stay placed',
  args: { min: 1, max: 1 },
  run(ctx, [ref]) {
    return ctx.withStore('write', (store) => {
      const { kind, id: memoryId } = memoryRef(store.db, ref ?? '');
      const step = forgetMemory(store.db, kind, memoryId, SYSTEM_CLOCK);
      return {
        json: {
          forgotten: `${MEMORY_PREFIX[kind]}${memoryId}`,
          kind,
          id: memoryId,
          step: { id: step.id, kind: step.kind, label: step.label },
        },
        text: `${step.label} (step ${step.id}).`,
      };
    });
  },
};
