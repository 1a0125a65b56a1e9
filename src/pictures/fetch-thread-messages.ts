/** What the pictures' thread (`fetch-thread.ts`) and the thread that answers calls say to each other. */
import type { FetchOutcome } from './fetch-queue.ts';

export interface PicturesThreadData {
  /** The cache's file (the calling thread made it). */
  readonly file: string;
  readonly capBytes: number;
  readonly nativeBinding: string | null;
  readonly timeoutMs?: number;
}

export type ToPicturesThread =
  | { readonly kind: 'want'; readonly urls: readonly string[] }
  | { readonly kind: 'shown'; readonly urls: readonly string[]; readonly now: number }
  | { readonly kind: 'cap'; readonly bytes: number }
  | { readonly kind: 'compact' }
  | { readonly kind: 'stop' };

export interface FromPicturesThread {
  readonly url: string;
  readonly outcome: FetchOutcome;
}
