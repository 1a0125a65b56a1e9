import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_CLOCK } from '../../clock.ts';
import { BrickWorkError } from '../../errors.ts';
import { confirmImport, planImport, type PlannedDocument } from '../../documents/import.ts';
import { formatMoneyE4 } from '../../documents/values.ts';
import { bricklinkXml } from '../../exports/bricklink-xml.ts';
import { summaryCsv } from '../../exports/summary.ts';
import { writeFileAtomically } from '../../jobs/catalogue-job.ts';
import { forgetPlacement, placeByHand, rememberedPlacements } from '../../placement/hand.ts';
import { orderLines, type LineView } from '../../store/lines.ts';
import { getOrder, listOrders } from '../../store/orders.ts';
import { redo, undo } from '../../undo/history.ts';
import { UsageError, type Command, type CommandContext, type OptionValues } from '../command.ts';

function id(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new UsageError(`${what} is a number, not "${text ?? ''}"`);
  return Number(text);
}

function readFile(file: string): { name: string; content: Uint8Array } {
  try {
    return { name: path.basename(file), content: fs.readFileSync(file) };
  } catch (e) {
    throw new BrickWorkError('not-found', `${file} can't be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
}

function previewJson(doc: PlannedDocument) {
  const t = doc.target;
  return {
    document: { id: doc.revival?.document.id ?? null, key: doc.parsed.key, state: 'preview' },
    order: t === null ? null : t.kind === 'new' ? { id: null, reference: t.reference, currency: t.currency } : { id: t.order.id, reference: t.order.reference, currency: t.order.currency },
    lines: doc.counts,
    revived: doc.revival !== null,
    format: doc.parsed.format,
    header: doc.parsed.header,
    pairs: doc.revival?.pairs ?? null,
    preview: doc.lines.map((l) => ({
      position: l.position,
      given: l.given,
      quantity: l.quantity,
      placed: l.placement.item === null ? null : { type: l.placement.item.type, no: l.placement.item.no, colour: l.placement.colourId },
      reason: l.placement.reason,
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
            const where = d.target?.kind === 'new' ? `a new order ${d.target.reference}` : `order ${d.target?.order.reference ?? '?'}`;
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
              .map((o) => `#${String(o.id).padEnd(5)} ${o.reference.padEnd(28)} ${(o.counterparty ?? '').padEnd(20)} ${o.currency} ${String(o.lines).padStart(6)} lines ${String(o.unplaced).padStart(5)} unplaced`)
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
    placed: l.placed === null ? null : { type: l.placed.type, no: l.placed.no, colour: l.placed.colour, by: l.placed.by, name: l.placed.name },
    reason: l.reason,
  };
}

function lineText(l: LineView): string {
  const given = [l.given.type, l.given.no, l.given.name].filter(Boolean).join(' ');
  const where = l.placed ? `${l.placed.type} ${l.placed.no}${l.placed.colour === null ? '' : ` colour ${l.placed.colour}`}` : `— ${l.reason ?? ''}`;
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
      getOrder(store.db, oid);
      const list = orderLines(store.db, oid, { unplacedOnly: options['unplaced'] === true });
      return { json: { lines: list.map(lineJson) }, text: list.length === 0 ? 'No lines.' : list.map(lineText).join('\n') };
    });
  },
};

export const place: Command = {
  name: ['place'],
  synopsis: 'LINE_ID TYPE NUMBER [--colour ID]',
  summary: 'place a line by hand (remembered for later imports)',
  options: { colour: { type: 'string' } },
  args: { min: 3, max: 3 },
  run(ctx, [lineId, type, no], options) {
    const lid = id(lineId, 'LINE_ID');
    const colourId = options['colour'] === undefined ? null : id(options['colour'] as string, '--colour');
    return ctx.withStore('write', (store) => {
      const line = placeByHand(store.db, lid, { type: type ?? '', no: no ?? '', colourId }, SYSTEM_CLOCK);
      return { json: { line: lineJson(line) }, text: lineText(line) };
    });
  },
};

function undoRedo(direction: 'undo' | 'redo'): Command {
  return {
    name: [direction],
    synopsis: '',
    summary: direction === 'undo' ? 'take back the newest step' : 'put back the step undone last',
    args: { min: 0, max: 0 },
    run(ctx: CommandContext) {
      return ctx.withStore('write', (store) => {
        const step = direction === 'undo' ? undo(store.db, SYSTEM_CLOCK) : redo(store.db, SYSTEM_CLOCK);
        const json = { [direction === 'undo' ? 'undone' : 'redone']: { id: step.id, kind: step.kind, label: step.label } };
        return { json, text: `${direction === 'undo' ? 'Undid' : 'Redid'}: ${step.label}` };
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
    return ctx.withStore('read', (store) => output(ctx, options, summaryCsv(store.db), { orders: listOrders(store.db, { savedOnly: true }).length }));
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

export const placements: Command = {
  name: ['placements'],
  synopsis: '',
  summary: 'the remembered hand placements',
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('read', (store) => {
      const list = rememberedPlacements(store.db);
      const text = list.length === 0 ? 'No remembered placements.' : list.map((p) => `${String(p.id).padStart(5)}  ${p.given.type} ${p.given.no ?? `"${p.given.name ?? ''}"`} → ${p.item.type} ${p.item.no}${p.colourId === null ? '' : ` colour ${p.colourId}`}`).join('\n');
      return { json: { placements: list }, text };
    });
  },
};

export const placementsForget: Command = {
  name: ['placements', 'forget'],
  synopsis: 'ID',
  summary: 'forget a remembered hand placement',
  args: { min: 1, max: 1 },
  run(ctx, [placementId]) {
    const pid = id(placementId, 'ID');
    return ctx.withStore('write', (store) => {
      forgetPlacement(store.db, pid, SYSTEM_CLOCK);
      return { json: { forgotten: pid }, text: `Forgot remembered placement ${pid}.` };
    });
  },
};
