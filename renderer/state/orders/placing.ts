import type { PlacementConfirmation } from '../../../src/vocabulary/confirmations.ts';
import { nextUnplacedAfter, placedMessage, type PlaceTarget } from '../../desk.ts';
import { useApp } from '../app.ts';
import { call, messageOf } from '../call.ts';
import type { OrdersSlice, OrdersState, Placing } from './shape.ts';

type SetPart = (part: Partial<OrdersState>) => void;

export const placing: OrdersSlice<Placing> = (set, get) => ({
  colourChoice: null,
  chooseColour: (id) => set({ colourChoice: id, pending: null }),
  pending: null,
  placing: null,
  changingItem: false,
  changeItem: (on) => set({ changingItem: on, pending: null, highlighted: 0 }),
  async placeInItsItem() {
    const line = get().lines.find((l) => l.id === get().selectedLine);
    if (!line?.itemFound) return;
    if (get().colourChoice === null) {
      useApp.getState().say(`Choose the colour line ${line.position} is in first.`);
      return;
    }
    await place(get, set, line.itemFound);
  },
  async confirmPending() {
    const p = get().pending;
    if (p === null || p.lineId !== get().selectedLine) return;
    await place(get, set, p.target, p.confirm, p.colourId);
  },
  cancelPending: () => set({ pending: null }),
  async placeOn(s) {
    await place(get, set, s);
  },
  async forgetLinesMemory() {
    const line = get().lines.find((l) => l.id === get().selectedLine);
    const memory = line?.memory;
    if (!memory) return;
    try {
      // What the desk showed the memory giving: another desk's change since is refused (line-changed).
      const forgot = await call('placements.forget', {
        kind: 'item',
        id: memory.id,
        seen: { type: memory.type, no: memory.no },
      });
      useApp.getState().say(`${forgot.step.label}. The lines it placed stay placed; Undo brings it back.`);
    } catch (e) {
      useApp.getState().fail(e);
    }
    await get().reload();
  },
});

/**
 * Places the selected line on `target`: in the chosen colour, or its own (the core refuses with
 * `needs-colour` when the catalogue does not know it, and says so). When the core asks for a
 * confirmation first (lines it would move, another item type), the panel says what it asks and the
 * next Enter confirms it; then, as after every placement, the next unplaced line below is selected.
 */
async function place(
  get: () => OrdersState,
  set: SetPart,
  target: PlaceTarget,
  confirm: readonly PlacementConfirmation[] = [],
  colourId: number | null = get().colourChoice,
): Promise<void> {
  const lineId = get().selectedLine;
  // One placement at a time: a second Enter while the first waits for its answer is not a second step.
  if (lineId === null || get().placing !== null) return;
  set({ placing: lineId });
  try {
    await placeSelected(get, set, lineId, target, confirm, colourId);
  } finally {
    set({ placing: null });
  }
}

async function placeSelected(
  get: () => OrdersState,
  set: SetPart,
  lineId: number,
  target: PlaceTarget,
  confirm: readonly PlacementConfirmation[],
  colourId: number | null,
): Promise<void> {
  const before = get().lines;
  let result;
  try {
    // The line as this desk shows it: if another desk changed it meanwhile, the core refuses (line-changed).
    const shown = before.find((l) => l.id === lineId)?.placed;
    const seen =
      shown === undefined
        ? undefined
        : shown === null
          ? null
          : { type: shown.type, no: shown.no, colourId: shown.colour };
    result = await call('lines.place', {
      lineId,
      type: target.type,
      no: target.no,
      colourId,
      confirm: [...confirm],
      ...(seen === undefined ? {} : { seen }),
    });
  } catch (e) {
    const error = messageOf(e);
    if (error.code === 'needs-acknowledgement' && error.confirm !== undefined && get().selectedLine === lineId) {
      const more = error.confirm;
      set({ pending: { lineId, target, colourId, confirm: [...confirm, more], message: error.message } });
    } else {
      useApp.getState().fail(e);
      // Another desk changed the line: show it as it is now (SPEC §14).
      if (error.code === 'line-changed') await get().reload();
    }
    return;
  }
  set({ pending: null });
  useApp.getState().say(placedMessage(result, target));
  await get().reload();
  // Go on to the next unplaced line below: fixing lines is a keyboard run.
  await get().select(nextUnplacedAfter(before, get().lines, lineId) ?? lineId, 'app');
}
