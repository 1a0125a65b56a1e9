import type { CompareRowView, LineRowView } from '../../../src/api/contract.ts';
import { useApp } from '../../state/app.ts';
import type { SideChoice } from '../../state/compare.ts';
import { useOrders } from '../../state/orders.ts';

/** Whether an order's line is one of a compare row's: the same item, colour and condition, or, unplaced, what it gives. */
function isOfRow(l: LineRowView, r: CompareRowView): boolean {
  if ((l.condition ?? null) !== (r.condition ?? null)) return false;
  if (r.item !== null)
    return (
      l.placed !== null &&
      l.placed.type === r.item.type &&
      l.placed.no.toLowerCase() === r.item.no.toLowerCase() &&
      l.placed.colour === r.item.colour
    );
  return (
    l.placed === null &&
    (l.given.no ?? '').toLowerCase() === (r.given.no ?? '').toLowerCase() &&
    (l.given.name ?? '') === (r.given.name ?? '') &&
    l.given.colourId === r.given.colourId
  );
}

/**
 * Opens a compare row's line in its order (SPEC §9.8): the left side's where the left has it, else the
 * right's — a side that is a file has no order, and says so.
 */
export async function jumpToLine(r: CompareRowView, left: SideChoice | null, right: SideChoice | null): Promise<void> {
  const side = r.left > 0 && left?.orderId != null ? left : r.right > 0 && right?.orderId != null ? right : null;
  if (side === null || side.orderId === null) {
    useApp.getState().say('These lines are in a file that is not imported: there is no order to open.');
    return;
  }
  const orders = useOrders.getState();
  useOrders.setState({ unplacedOnly: false });
  // Staff moved on: what was said on the Compare screen goes.
  useApp.getState().go('orders');
  await orders.open(side.orderId, 'app');
  const line = useOrders.getState().lines.find((l) => isOfRow(l, r));
  if (line) await useOrders.getState().select(line.id, 'app');
}
