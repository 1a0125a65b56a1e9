import type { DocumentView, LineRowView } from '../../api/contract.ts';
import { shownTime } from '../../platform/clock.ts';
import { numberArg, type ContractCommand } from '../command.ts';

export const orders: ContractCommand = {
  name: ['orders'],
  synopsis: '',
  summary: 'the orders, with counts of their saved lines',
  args: { min: 0, max: 0 },
  calls: ['orders.list'],
  async run(api) {
    const list = await api.call('orders.list', {});
    const text =
      list.length === 0
        ? 'No orders yet.'
        : list
            .map(
              (o) =>
                `#${String(o.id).padEnd(5)} ${o.reference.padEnd(28)} ${(o.counterparty ?? '').padEnd(20)} ${o.currency} ` +
                (o.state === 'undone'
                  ? `taken back on ${shownTime(o.undoneAt)}; import the file again to revive it`
                  : `${String(o.lines).padStart(6)} ${o.lines === 1 ? 'line ' : 'lines'} ${String(o.unplaced).padStart(5)} unplaced`),
            )
            .join('\n');
    return { json: { orders: list }, text };
  },
};

/** An item's number as staff read it, saying where it names other catalogue items too: `3048c (Rebrickable 3048b) [same number as Rebrickable 3048c]`. */
export function numberText(item: { no: string; shown?: string; sharedWith?: readonly string[] }): string {
  const shared = item.sharedWith ?? [];
  return `${item.shown ?? item.no}${shared.length === 0 ? '' : ` [same number as ${fewOf(shared)}]`}`;
}

/** Names, at most three of them and how many more (`a, b, c and 38 more`). */
export function fewOf(names: readonly string[]): string {
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}

/** A line as `lines` and `place` print it. */
export function lineText(l: LineRowView): string {
  const given = [l.given.type, l.given.no, l.given.name].filter(Boolean).join(' ');
  const colour = l.placed?.colour == null ? '' : ` in ${l.placed.colourName ?? `colour ${l.placed.colour}`}`;
  // How it was placed (another numbering, a memory), or the memory that refused it: never silently (issue 60).
  const how = l.placed?.via ? ` (${l.placed.via})` : !l.placed && l.memory ? ` (${l.memory.taught})` : '';
  const where = `${l.placed ? `${l.placed.type} ${numberText(l.placed)}${colour}` : `— ${l.reason?.text ?? ''}`}${how}`;
  return `${String(l.id).padStart(7)} ${String(l.position).padStart(5)}  ${given.padEnd(40)} ×${String(l.quantity).padEnd(5)} ${where}`;
}

export const lines: ContractCommand = {
  name: ['lines'],
  synopsis: 'ORDER_ID [--unplaced]',
  summary: 'the saved lines of an order, with placement and reason',
  options: { unplaced: { type: 'boolean' } },
  args: { min: 1, max: 1 },
  calls: ['orders.get', 'lines.list'],
  async run(api, [orderId], options) {
    const { order } = await api.call('orders.get', { orderId: numberArg(orderId) });
    const list = await api.call('lines.list', { orderId: order.id, unplacedOnly: options['unplaced'] === true });
    // An undone order is not an empty one: say so rather than "No lines."
    const none =
      order.state === 'undone'
        ? `Order ${order.reference} was taken back on ${shownTime(order.undoneAt)}; import the file again to revive it.`
        : 'No lines.';
    return { json: { lines: list }, text: list.length === 0 ? none : list.map(lineText).join('\n') };
  },
};

/** SPEC §10 names a document's order `order`; the contract's view says `orderId`. Both are printed. */
const documentJson = (d: DocumentView) => ({ ...d, order: d.orderId });

export const documents: ContractCommand = {
  name: ['documents'],
  synopsis: '[ORDER_ID]',
  summary: 'the imported and undone documents (of one order), with their state',
  args: { min: 0, max: 1 },
  calls: ['documents.list'],
  async run(api, [orderId]) {
    const list = await api.call('documents.list', orderId === undefined ? {} : { orderId: numberArg(orderId) });
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
    return { json: { documents: list.map(documentJson) }, text };
  },
};

export const takeBack: ContractCommand = {
  name: ['take-back'],
  synopsis: 'DOCUMENT_ID [--whole-file]',
  summary: 'take back an imported document, as one undo step (--whole-file: with the other documents of its file)',
  options: { 'whole-file': { type: 'boolean' } },
  args: { min: 1, max: 1 },
  calls: ['documents.takeBack'],
  async run(api, [documentId], options) {
    const r = await api.call('documents.takeBack', {
      documentId: numberArg(documentId),
      wholeFile: options['whole-file'] === true,
    });
    const lines = r.takenBack
      .map(
        (d) =>
          `Took back ${d.key} from order ${d.orderReference} (#${d.orderId}): its ${d.lines} line${d.lines === 1 ? ' is' : 's are'} out of the order.`,
      )
      .concat(`Step ${r.step.id}: ${r.step.label}. Undo puts it back; importing the file again revives it.`);
    const first = r.stillImported[0];
    if (first !== undefined) {
      lines.push(
        `${r.takenBack[0]?.fileName ?? 'Its file'} also brought in ${r.stillImported.map((s) => `${s.key} (order ${s.orderReference}, #${s.orderId})`).join(', ')}, ` +
          `still imported; to import the file again whole, take ${r.stillImported.length === 1 ? 'it' : 'them'} back too: brick-work take-back ${first.id} --whole-file`,
      );
    }
    return {
      json: { ...r, takenBack: r.takenBack.map(documentJson) },
      text: lines.join('\n'),
    };
  },
};
