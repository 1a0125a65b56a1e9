/** Undo and redo, and the remembered placements staff can forget (SPEC §8). */
import { forgetMemory } from '../../hand/placement.ts';
import { colourMemories, itemMemories, taughtNames } from '../../store/memories.ts';
import { historySteps, nextRedo, nextUndo, redo, undo } from '../../undo/history.ts';

/** Steps the history lists when no limit is asked. */
const HISTORY_SHOWN = 100;
import { maybeStep, stepView } from '../views.ts';
import { reads, writes, type PartialCallTable } from './define.ts';

export const HISTORY_CALLS = {
  'history.state': reads((d) => () => ({
    undo: maybeStep(nextUndo(d.db, d.desk())),
    redo: maybeStep(nextRedo(d.db, d.desk())),
    desk: d.desk(),
  })),
  'history.list': reads((d) => ({ limit }) => ({
    steps: historySteps(d.db, limit ?? HISTORY_SHOWN).map((s) => ({
      ...stepView(s),
      state: s.state,
      createdAt: s.createdAt,
    })),
    desk: d.desk(),
  })),
  'history.undo': writes((d) => ({ expectedStep }) => {
    const step = undo(d.session, d.clock, expectedStep);
    d.changed('undo');
    return stepView(step);
  }),
  'history.redo': writes((d) => ({ expectedStep }) => {
    const step = redo(d.session, d.clock, expectedStep);
    d.changed('redo');
    return stepView(step);
  }),
  'placements.list': reads((d) => () => {
    const items = itemMemories(d.db);
    // Each remembered item's number in the shop numbering first, as the line table shows it (issue 64 §3).
    const shown = d.numberShower(items.map((m) => ({ type: m.item.type, no: m.item.no })));
    return {
      items: items.map((m) => {
        const n = shown({ type: m.item.type, no: m.item.no });
        return {
          ...m,
          item: { ...m.item, shown: n.shown, ...(n.sharedWith.length === 0 ? {} : { sharedWith: n.sharedWith }) },
        };
      }),
      colours: colourMemories(d.db),
      names: taughtNames(d.db),
    };
  }),
  'placements.forget': writes((d) => ({ kind, id, seen }) => {
    const step = forgetMemory(d.session, kind, id, d.clock, seen);
    d.changed('forgot a placement');
    return { forgotten: id, step: stepView(step) };
  }),
} satisfies PartialCallTable;
