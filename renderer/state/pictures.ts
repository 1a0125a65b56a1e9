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
  /**
   * A picture on screen: asked for once it has stayed a moment (a line scrolled past is never asked);
   * the returned function says it is gone from the screen.
   */
  hold(of: PictureOf): () => void;
  /** The core says pictures came: those on screen still waiting are asked again. */
  onReady(): void;
}

/** Pictures asked at once, at most (the contract's limit for each kind). */
const BATCH = 400;
/**
 * How long the screen stays still (no picture comes on or goes off it) before pictures are asked for or
 * drawn: while lines scroll, nothing is asked and nothing drawn — every frame goes to the scrolling — and
 * what a screen shows as it draws goes in one call.
 */
const SETTLE_MS = 120;
/** What is on screen now: how many of each picture. */
const onScreen = new Map<string, { of: PictureOf; count: number }>();
/** Asked, and answered or on its way. */
const asked = new Set<string>();
let settling: ReturnType<typeof setTimeout> | null = null;
/** When a picture last came on or went off the screen. */
let moved = 0;
/** Answers that came while the screen moved, drawn once it is still. */
let held: (readonly [PictureOf, PictureView | undefined])[] = [];
/** The core said pictures came while the screen moved: those on screen still waiting are asked once it is still. */
let readyMeanwhile = false;
const still = () => performance.now() - moved >= SETTLE_MS;

function shownOf(a: PictureView): ShownPicture {
  return a.state === 'ready' ? { state: 'ready', src: dataUrl(a.type, a.bytes), inColour: a.inColour } : a;
}

/**
 * A picture as a `data:` address: an item's picture is a few kilobytes, and a Blob with an object URL for
 * each costs the page more (each is registered with the browser) than the text of one.
 */
function dataUrl(type: string, bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return `data:${type};base64,${btoa(text)}`;
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
      const answered = [
        ...items.map((item, k): [PictureOf, PictureView | undefined] => [{ item }, answer.pictures[k]]),
        ...lines.map((line, k): [PictureOf, PictureView | undefined] => [{ line }, answer.lines[k]]),
      ];
      if (still()) show(answered);
      else {
        held.push(...answered);
        settle();
      }
    }
  };
  /** Shows what came for pictures still on screen; one gone meanwhile is asked again if it comes back. */
  const show = (answered: readonly (readonly [PictureOf, PictureView | undefined])[]) => {
    const shown = new Map(get().shown);
    let changed = false;
    for (const [of, a] of answered) {
      if (a === undefined) continue;
      const key = pictureKey(of);
      const before = shown.get(key);
      if (!onScreen.has(key) && a.state === 'ready') {
        asked.delete(key);
        continue;
      }
      // Still on its way: nothing to draw again.
      if (a.state === 'waiting' && before?.state === 'waiting') continue;
      shown.set(key, shownOf(a));
      changed = true;
    }
    if (changed) set({ shown });
  };
  /** Once the screen is still: draws what came meanwhile, and asks for what is on it and not asked yet. */
  const settle = () => {
    if (settling !== null) clearTimeout(settling);
    settling = setTimeout(() => {
      settling = null;
      if (!still()) return settle();
      const came = held;
      held = [];
      if (came.length > 0) show(came);
      const wanted = [...onScreen].filter(([key]) => !asked.has(key));
      for (const [key] of wanted) asked.add(key);
      if (readyMeanwhile) {
        readyMeanwhile = false;
        wanted.push(...[...onScreen].filter(([key]) => get().shown.get(key)?.state === 'waiting'));
      }
      if (wanted.length > 0) void ask(wanted.map(([, v]) => v.of));
    }, SETTLE_MS);
  };
  return {
    shown: new Map(),
    hold(of) {
      const key = pictureKey(of);
      moved = performance.now();
      const there = onScreen.get(key);
      if (there === undefined) onScreen.set(key, { of, count: 1 });
      else there.count += 1;
      if (!asked.has(key) || held.length > 0 || readyMeanwhile) settle();
      return () => {
        const h = onScreen.get(key);
        if (h === undefined) return;
        moved = performance.now();
        h.count -= 1;
        if (h.count > 0) return;
        onScreen.delete(key);
        // Gone before it came: asked again if it comes back on screen.
        if (get().shown.get(key)?.state === 'waiting') asked.delete(key);
      };
    },
    onReady() {
      if (!still()) {
        readyMeanwhile = true;
        return settle();
      }
      const waiting = [...onScreen].filter(([key]) => get().shown.get(key)?.state === 'waiting');
      if (waiting.length > 0) void ask(waiting.map(([, v]) => v.of));
    },
  };
});
