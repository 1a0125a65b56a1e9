/**
 * The fetching of pictures (SPEC §15, issue 48): what is wanted is fetched a few at a time, the last asked
 * first (what the worker looks at now), with a timeout and no cookies; each one is kept (or kept as "no
 * such picture") and told. In the app and the browser host this runs on a thread of its own
 * (`fetch-thread.ts`), never on the thread that answers calls.
 */

export interface FetchQueueOptions {
  /** Keeps what came for `url` (null: the server has no such picture). */
  readonly keep: (url: string, picture: { bytes: Uint8Array; type: string } | null) => void;
  /** Told once each address wanted is done: kept (a picture, or none), or failed. */
  readonly told: (url: string, outcome: FetchOutcome) => void;
  readonly fetch?: typeof fetch;
  /** Fetches at once, at most. */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** A picture larger than this is not one (refused, counted as failed). */
  readonly maxBytes?: number;
}

export type FetchOutcome = 'kept' | 'failed';

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
    let outcome: FetchOutcome = 'kept';
    try {
      // No cookies are sent or kept: Node's fetch has no cookie jar, and credentials are omitted.
      const response = await (this.o.fetch ?? fetch)(url, { signal: controller.signal, credentials: 'omit' });
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        if (!this.stopped) this.o.keep(url, null);
      } else if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      } else {
        const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
        if (!type.startsWith('image/')) throw new Error(`not a picture (${type || 'no type'})`);
        const bytes = await readCapped(response, this.o.maxBytes ?? 2_000_000);
        if (!this.stopped) this.o.keep(url, { bytes, type });
      }
    } catch {
      outcome = 'failed';
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
    if (!this.stopped) this.o.told(url, outcome);
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
