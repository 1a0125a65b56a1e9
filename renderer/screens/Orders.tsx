import { usePick } from '../state/pick.ts';
import { usePutAway } from '../state/put-away.ts';
import { useOrders } from '../state/orders.ts';
import { OrderDetail } from './orders/OrderDetail.tsx';
import { OrderList } from './orders/OrderList.tsx';
import { Picking } from './stock/Picking.tsx';
import { PutAway } from './stock/PutAway.tsx';

/** The Orders screen (SPEC §9.2): the list of orders, or the order open — or its pick or put-away list. */
export function Orders() {
  const orderId = useOrders((s) => s.orderId);
  const reference = useOrders((s) => s.order?.reference ?? '');
  const picking = usePick((s) => s.orderId);
  const puttingAway = usePutAway((s) => s.orderId);
  if (orderId === null) return <OrderList />;
  // Back from either list: the order, its line table focused as it opens.
  if (picking === orderId) return <Picking reference={reference} onBack={() => usePick.getState().close()} />;
  if (puttingAway === orderId) return <PutAway reference={reference} onBack={() => usePutAway.getState().close()} />;
  return <OrderDetail />;
}
