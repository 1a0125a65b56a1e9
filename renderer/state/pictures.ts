/**
 * Pictures of items as the screens show them (SPEC §15, issue 48): asked of the core a screenful at a
 * time, kept as object URLs for this tab; those being fetched are asked again when the core says some came
 * (`pictures.ready`). Never a wait: an item shows a placeholder until its picture is there.
 */
import { create } from 'zustand';
import type { PictureView } from '../../src/api/contract.ts';
import { call } from './call.ts';

export interface PictureItem {
  readonly type: string;
  readonly no: string;
  readonly colour: number | null;
}

export type ShownPicture =
  | { readonly state: 'ready'; readonly src: string; readonly inColour: boolean }
  | { readonly state: 'waiting' }
  | { readonly state: 'none'; readonly why: string };

export const pictureKey = (i: PictureItem) => `${i.type}\t${i.no}\t${i.colour ?? ''}`;

interface PicturesState {
  readonly shown: ReadonlyMap<string, ShownPicture>;
  /** Asks for the pictures of `items` not asked yet (batched with others asked in the same moment). */
  want(items: readonly PictureItem[]): void;
  /** The core says pictures came: those still waiting are asked again. */
  onReady(): void;
}

/** Items asked at once, at most (the contract's limit). */
const BATCH = 400;
const asked = new Map<string, PictureItem>();
let pending: PictureItem[] = [];
let flushing = false;

export const usePictures = create<PicturesState>((set, get) => {
  const ask = async (items: readonly PictureItem[]) => {
    for (let i = 0; i < items.length; i += BATCH) {
      const batch = items.slice(i, i + BATCH) as PictureItem[];
      let answers: readonly PictureView[];
      try {
        answers = (await call('pictures.get', { items: batch.map((b) => ({ ...b, type: b.type as 'P' })) })).pictures;
      } catch {
        continue; // a refusal shows placeholders: pictures are never worth a message
      }
      const shown = new Map(get().shown);
      batch.forEach((item, k) => {
        const a = answers[k];
        if (a === undefined) return;
        const key = pictureKey(item);
        const before = shown.get(key);
        if (before?.state === 'ready') URL.revokeObjectURL(before.src);
        shown.set(
          key,
          a.state === 'ready'
            ? {
                state: 'ready',
                src: URL.createObjectURL(new Blob([a.bytes as Uint8Array<ArrayBuffer>], { type: a.type })),
                inColour: a.inColour,
              }
            : a,
        );
      });
      set({ shown });
    }
  };
  return {
    shown: new Map(),
    want(items) {
      for (const item of items) {
        const key = pictureKey(item);
        if (asked.has(key)) continue;
        asked.set(key, item);
        pending.push(item);
      }
      if (flushing || pending.length === 0) return;
      flushing = true;
      // What a screen asks for as it draws goes in one call.
      setTimeout(() => {
        flushing = false;
        const items = pending;
        pending = [];
        void ask(items);
      }, 0);
    },
    onReady() {
      const waiting = [...get().shown].filter(([, p]) => p.state === 'waiting').map(([k]) => asked.get(k));
      void ask(waiting.filter((i): i is PictureItem => i !== undefined));
    },
  };
});
