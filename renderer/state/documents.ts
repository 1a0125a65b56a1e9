import { create } from 'zustand';
import type { DocumentView, TakeBackResultView } from '../../src/api/contract.ts';
import { useApp } from './app.ts';
import { call, messageOf } from './call.ts';
import { useOrders } from './orders.ts';

interface DocumentsState {
  /** The document whose take-back is on its way: its buttons wait. */
  busy: number | null;
  /** "Take back this import" (SPEC §8); `wholeFile`: with the other documents still imported from its file. */
  takeBack(doc: DocumentView, wholeFile: boolean): Promise<TakeBackResultView | null>;
}

/** What a take-back did, in a shop worker's words. */
function takenBackMessage(r: TakeBackResultView): string {
  const what = r.takenBack.map((d) => d.key).join(', ');
  const rest =
    r.stillImported.length > 0
      ? ` The same file also brought in ${r.stillImported.map((s) => `${s.key} (order ${s.orderReference})`).join(', ')}: still imported.`
      : '';
  return `Taken back: ${what}. Undo puts it back; importing the file again revives it.${rest}`;
}

export const useDocuments = create<DocumentsState>((set, get) => ({
  busy: null,
  async takeBack(doc, wholeFile) {
    if (get().busy !== null) return null;
    set({ busy: doc.id });
    try {
      // As this desk showed it: another desk's change since is refused (line-changed, SPEC §14).
      const result = await call('documents.takeBack', { documentId: doc.id, wholeFile, seenAt: doc.historyAt });
      useApp.getState().say(takenBackMessage(result));
      return result;
    } catch (e) {
      useApp.getState().fail(e);
      // Show the order as it is now.
      if (messageOf(e).code === 'line-changed') await useOrders.getState().reload();
      return null;
    } finally {
      set({ busy: null });
    }
  },
}));
