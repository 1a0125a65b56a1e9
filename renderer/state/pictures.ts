/**
 * Pictures of items as the screens show them (SPEC §15, issue 48): asked of the core a screenful at a
 * time, kept as object URLs for this tab; those being fetched are asked again when the core says some came
 * (`pictures.ready`). Never a wait: an item shows a placeholder until its picture is there.
 */
import { create } from 'zustand';
import type { ItemTypeCode, PictureView } from '../../src/api/contract.ts';
import { call } from './call.ts';

export interface PictureItem {
  /** An item type's code (the core checks it). */
  readonly type: string;
  readonly no: string;
  readonly colour: number | null;
}

/** A picture to show: a catalogue item in a colour, or a line's given item as its document names it. */
export type PictureOf = { readonly item: PictureItem } | { readonly line: number };

export type ShownPicture =
  | { readonly state: 'ready'; readonly src: string; readonly inColour: boolean }
  | { readonly state: 'waiting' }
  | { readonly state: 'none'; readonly why: string };

export const pictureKey = (of: PictureOf) =>
  'line' in of ? `line\t${of.line}` : `${of.item.type}\t${of.item.no}\t${of.item.colour ?? ''}`;

interface PicturesState {
  readonly shown: ReadonlyMap<string, ShownPicture>;
  /** Asks for the pictures not asked yet (batched with others asked in the same moment). */
  want(of: readonly PictureOf[]): void;
  /** The core says pictures came: those still waiting are asked again. */
  onReady(): void;
}

/** Pictures asked at once, at most (the contract's limit for each kind). */
const BATCH = 400;
const asked = new Map<string, PictureOf>();
let pending: PictureOf[] = [];
let flushing = false;

function shownOf(a: PictureView): ShownPicture {
  return a.state === 'ready'
    ? {
        state: 'ready',
        src: URL.createObjectURL(new Blob([a.bytes as Uint8Array<ArrayBuffer>], { type: a.type })),
        inColour: a.inColour,
      }
    : a;
}

export const usePictures = create<PicturesState>((set, get) => {
  const ask = async (all: readonly PictureOf[]) => {
    for (let i = 0; i < all.length; i += BATCH) {
      const batch = all.slice(i, i + BATCH);
      const items = batch.flatMap((b) => ('item' in b ? [b.item] : []));
      const lines = batch.flatMap((b) => ('line' in b ? [b.line] : []));
      let answer: { pictures: readonly PictureView[]; lines: readonly PictureView[] };
      try {
        answer = await call('pictures.get', {
          ...(items.length > 0 ? { items: items as (PictureItem & { type: ItemTypeCode })[] } : {}),
          ...(lines.length > 0 ? { lines } : {}),
        });
      } catch {
        continue; // a refusal shows placeholders: pictures are never worth a message
      }
      const shown = new Map(get().shown);
      const put = (of: PictureOf, a: PictureView | undefined) => {
        if (a === undefined) return;
        const key = pictureKey(of);
        const before = shown.get(key);
        if (before?.state === 'ready') URL.revokeObjectURL(before.src);
        shown.set(key, shownOf(a));
      };
      items.forEach((item, k) => put({ item }, answer.pictures[k]));
      lines.forEach((line, k) => put({ line }, answer.lines[k]));
      set({ shown });
    }
  };
  return {
    shown: new Map(),
    want(of) {
      for (const o of of) {
        const key = pictureKey(o);
        if (asked.has(key)) continue;
        asked.set(key, o);
        pending.push(o);
      }
      if (flushing || pending.length === 0) return;
      flushing = true;
      // What a screen asks for as it draws goes in one call.
      setTimeout(() => {
        flushing = false;
        const all = pending;
        pending = [];
        void ask(all);
      }, 0);
    },
    onReady() {
      const waiting = [...get().shown].filter(([, p]) => p.state === 'waiting').map(([k]) => asked.get(k));
      void ask(waiting.filter((o): o is PictureOf => o !== undefined));
    },
  };
});
