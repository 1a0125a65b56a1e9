/**
 * Pictures fetched and kept (SPEC §15, issue 48): asked for by what is on screen, answered at once from
 * the cache — never a wait — while what is not there (or too old) is fetched in the background, a few at
 * a time, the last asked first (what the worker looks at now), with a timeout and no cookies. Each one
 * fetched is told (`onReady`), so the screens show it when it comes. Failures are quiet for staff (a
 * placeholder) and counted for whoever looks.
 */
import type { PictureCache } from '../store/picture-cache.ts';

export type PictureAnswer =
  | { readonly state: 'ready'; readonly bytes: Uint8Array; readonly type: string }
  /** Being fetched: the screens show a placeholder until `onReady` names it. */
  | { readonly state: 'waiting' }
  /** No picture, and why, in a worker's words. */
  | { readonly state: 'none'; readonly why: string };

export interface PictureFetcherOptions {
  readonly cache: PictureCache;
  /** Network pictures on (a setting: off for a metered connection, then only the cache is used). */
  readonly network: () => boolean;
  /** Days a picture is kept before it is fetched again when shown (the old one shown meanwhile). */
  readonly maxAgeDays: () => number;
  /** Told each address fetched (or found missing), so the screens ask again. */
  readonly onReady: (url: string) => void;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /** Fetches at once, at most. */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** A picture larger than this is not one (refused, counted as failed). */
  readonly maxBytes?: number;
}

const DAY_MS = 86_400_000;
/** An address that failed is not asked again before this (a server down is not asked at every look). */
const RETRY_AFTER_MS = 60_000;

export interface PictureCounts {
  readonly fetched: number;
  readonly failed: number;
  readonly waiting: number;
}

export class PictureFetcher {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly failedAt = new Map<string, number>();
  private fetched = 0;
  private failed = 0;
  private stopped = false;
  private readonly controllers = new Set<AbortController>();

  constructor(private readonly o: PictureFetcherOptions) {}

  /** What there is for `url` now (never waits); what is missing or old is fetched meanwhile. */
  answer(url: string): PictureAnswer {
    const now = this.now();
    const kept = this.o.cache.get(url, now);
    const old = kept !== null && now - kept.fetchedAt > this.o.maxAgeDays() * DAY_MS;
    if (kept === null || old) this.want(url, now);
    if (kept !== null) {
      return kept.picture === null
        ? { state: 'none', why: 'the picture server has no picture of it' }
        : { state: 'ready', bytes: kept.picture.bytes, type: kept.picture.type };
    }
    if (!this.o.network()) return { state: 'none', why: 'network pictures are off (Settings), and none is kept' };
    const failed = this.failedAt.get(url);
    if (failed !== undefined && !this.queued.has(url) && !this.running.has(url))
      return { state: 'none', why: 'the picture server could not be reached' };
    return { state: 'waiting' };
  }

  counts(): PictureCounts {
    return { fetched: this.fetched, failed: this.failed, waiting: this.queue.length + this.running.size };
  }

  /** Stops: nothing more is fetched, and what is under way is given up. */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.queued.clear();
    for (const c of this.controllers) c.abort();
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  private want(url: string, now: number): void {
    if (this.stopped || !this.o.network() || this.running.has(url)) return;
    const failed = this.failedAt.get(url);
    if (failed !== undefined && now - failed < RETRY_AFTER_MS) return;
    // The last asked first: it is what is on screen now.
    if (this.queued.has(url)) this.queue.splice(this.queue.indexOf(url), 1);
    this.queue.push(url);
    this.queued.add(url);
    this.pump();
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
    try {
      // No cookies are sent or kept: Node's fetch has no cookie jar, and credentials are omitted.
      const response = await (this.o.fetch ?? fetch)(url, { signal: controller.signal, credentials: 'omit' });
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        this.o.cache.put(url, null, this.now());
      } else if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      } else {
        const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
        if (!type.startsWith('image/')) throw new Error(`not a picture (${type || 'no type'})`);
        const bytes = await readCapped(response, this.o.maxBytes ?? 2_000_000);
        if (this.stopped) return;
        this.o.cache.put(url, { bytes, type }, this.now());
      }
      this.fetched += 1;
      this.failedAt.delete(url);
      this.o.onReady(url);
    } catch {
      if (this.stopped) return;
      this.failed += 1;
      this.failedAt.set(url, this.now());
      this.o.onReady(url);
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }
}

/** The body, refused past `max` bytes (read no further). */
async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > max) throw new Error('too big');
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new Error('too big');
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
