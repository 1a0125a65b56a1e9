import { useApp } from '../app.ts';
import { call } from '../call.ts';
import { NO_SEARCH, type OpenOrder, type OrdersSlice } from './shape.ts';

export const openOrder: OrdersSlice<OpenOrder> = (set, get) => ({
  orderId: null,
  order: null,
  documents: [],
  lines: [],
  unplacedOnly: false,
  loadingLines: false,
  colours: [],
  async open(orderId, by = 'staff') {
    if (by === 'staff') useApp.getState().clearNotice();
    set({
      orderId,
      order: null,
      lines: [],
      selectedLine: null,
      suggestions: null,
      search: NO_SEARCH,
      colourChoice: null,
    });
    await Promise.all([
      get().reload(),
      call('catalogue.colours', {}).then(
        (c) => set({ colours: [...c] }),
        () => undefined,
      ),
    ]);
    // Opening an order selects its first unplaced line (SPEC §9): the work starts there.
    const first = get().lines.find((l) => l.placed === null);
    if (get().orderId === orderId && get().selectedLine === null && first !== undefined)
      await get().select(first.id, 'app');
  },
  returnTo: null,
  returned: () => set({ returnTo: null }),
  close: () =>
    set((st) => ({
      returnTo: st.orderId,
      orderId: null,
      order: null,
      lines: [],
      documents: [],
      selectedLine: null,
      suggestions: null,
      search: NO_SEARCH,
    })),
  async reload() {
    const { orderId, unplacedOnly } = get();
    if (orderId === null) return get().loadOrders();
    set({ loadingLines: true });
    try {
      const [detail, lines] = await Promise.all([
        call('orders.get', { orderId }),
        call('lines.list', { orderId, unplacedOnly }),
      ]);
      if (get().orderId !== orderId) return;
      set({ order: detail.order, documents: [...detail.documents], lines: [...lines] });
      const selected = get().selectedLine;
      if (selected !== null && !lines.some((l) => l.id === selected))
        set({ selectedLine: null, suggestions: null, search: NO_SEARCH });
    } catch (e) {
      useApp.getState().fail(e);
      set({ orderId: null, order: null, lines: [] });
    } finally {
      set({ loadingLines: false });
    }
  },
  async setUnplacedOnly(on) {
    set({ unplacedOnly: on });
    await get().reload();
  },
});
