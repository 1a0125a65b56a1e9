import { useOrders } from '../state/orders.ts';
import { OrderDetail } from './orders/OrderDetail.tsx';
import { OrderList } from './orders/OrderList.tsx';

/** The Orders screen (SPEC §9.2): the list of orders, or the order open. */
export function Orders() {
  const orderId = useOrders((s) => s.orderId);
  return orderId === null ? <OrderList /> : <OrderDetail />;
}
