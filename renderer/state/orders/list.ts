import { attempt } from '../app.ts';
import { call } from '../call.ts';
import type { OrderList, OrdersSlice } from './shape.ts';

export const orderList: OrdersSlice<OrderList> = (set, get) => ({
  orders: [],
  query: '',
  async setQuery(query) {
    set({ query });
    await get().loadOrders();
  },
  async loadOrders() {
    const query = get().query;
    const orders = await attempt(() => call('orders.list', { query }));
    // An answer to an older query is not shown.
    if (orders !== null && get().query === query) set({ orders: [...orders] });
  },
});
