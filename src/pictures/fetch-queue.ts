/**
 * The fetching of pictures (SPEC §15, issue 48): what is wanted is fetched a few at a time, the last asked
 * first (what the worker looks at now), with a timeout and no cookies; each one is kept (or kept as "no
 * such picture") and told. In the app and the browser host this runs on a thread of its own
 * (`fetch-thread.ts`), never on the thread that answers calls. Each address is fetched by `fetch-picture.ts`.
 */
import { fetchPicture } from './fetch-picture.ts';
import type { PictureType } from './signature.ts';

export interface FetchQueueOptions {
  /** Keeps what came for `url` (null: the server has no such picture). */
  readonly keep: (url: string, picture: { bytes: Uint8Array; type: PictureType } | null) => void;
  /** Told once each address wanted is done: kept (a picture, or none), failed, or refused. */
  readonly told: (url: string, outcome: FetchOutcome) => void;
  readonly fetch?: typeof fetch;
  /** Fetches at once, at most. */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** A picture larger than this is not one (given up, counted as failed). */
  readonly maxBytes?: number;
}

export type FetchOutcome =
  /** A picture, or the server's word that it has none. */
  | { readonly kind: 'kept' }
  /** Not reached, not in time, an error, or too big: asked again later. */
  | { readonly kind: 'failed' }
  /** Not a picture, or sent to another host: not kept; `why` in a worker's words. */
  | { readonly kind: 'refused'; readonly why: string };

export class FetchQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private stopped = false;
  private readonly controllers = new Set<AbortController>();

  constructor(private readonly o: FetchQueueOptions) {}

  /** Fetches these, the last first (it is what is on screen now); one wanted again moves to the front. */
  want(urls: readonly string[]): void {
    if (this.stopped) return;
    for (const url of urls) {
      if (this.running.has(url)) continue;
      if (this.queued.has(url)) this.queue.splice(this.queue.indexOf(url), 1);
      this.queue.push(url);
      this.queued.add(url);
    }
    this.pump();
  }

  /** Stops: nothing more is fetched, and what is under way is given up. */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.queued.clear();
    for (const c of this.controllers) c.abort();
  }

  private pump(): void {
    while (!this.stopped && this.running.size < (this.o.concurrency ?? 4)) {
      const url = this.queue.pop();
      if (url === undefined) return;
      this.queued.delete(url);
      this.running.add(url);
      void this.fetchOne(url).finally(() => {
        this.running.delete(url);
        this.pump();
      });
    }
  }

  private async fetchOne(url: string): Promise<void> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), this.o.timeoutMs ?? 10_000);
    let outcome: FetchOutcome;
    try {
      const got = await fetchPicture(url, {
        fetch: this.o.fetch ?? fetch,
        signal: controller.signal,
        maxBytes: this.o.maxBytes ?? 2_000_000,
      });
      if (got.kind === 'refused') outcome = got;
      else {
        if (!this.stopped) this.o.keep(url, got.kind === 'picture' ? { bytes: got.bytes, type: got.type } : null);
        outcome = { kind: 'kept' };
      }
    } catch {
      outcome = { kind: 'failed' };
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
    if (!this.stopped) this.o.told(url, outcome);
  }
}
