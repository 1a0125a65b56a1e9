import type http from 'node:http';
import { decodeWire, TooDeep } from '../api/wire.ts';
import { handOver } from '../app/hand-over.ts';
import { ThreadStopped, type DecodeThread } from './decode-client.ts';
import { refuse, refuseUnread } from './refuse.ts';

const MiB = 1024 * 1024;

/**
 * The largest request body the host reads (SPEC §11: near the document limit). A body is the call's
 * arguments as JSON, files as base64 (`wire.ts`), 4/3 of their size: a document at its 20 MB limit
 * (`DOCUMENT_SIZE_LIMIT`) is 26.7 MB on the wire. `catalogue.load` sends all its files in one body;
 * catalogue files may be bigger than documents, but what is downloaded is a few MB (Rebrickable's
 * parts.csv.gz) to tens of MB (BrickLink's items XML, a few MB gzipped). 64 MB lets about 47 MB of
 * files through in one call; a bigger catalogue file loads gzipped, or with the CLI, which reads it
 * from disk (up to `CATALOGUE_FILE_LIMIT`). A body over this is answered 413, unread.
 */
export const BODY_LIMIT = 64 * MiB;
/**
 * How many bytes of big bodies are read (and decoded) at once: two at the limit, or more smaller ones.
 * A body announces its length (`Content-Length`) and reserves that much before a byte is read; one
 * without (chunked) reserves the limit. A body that doesn't fit waits its turn, unread.
 */
export const READING_BUDGET = 2 * BODY_LIMIT;
/**
 * A body that announces at most this many bytes is small (the screens' calls are a few hundred bytes):
 * small bodies are read from a budget of their own, so that uploads filling READING_BUDGET never hold
 * up the screens.
 */
export const SMALL_BODY = 64 * 1024;
export const SMALL_READING_BUDGET = 16 * MiB;
/** How many bodies may wait for their turn; past them the host answers 503 (busy, try again). */
export const MAX_WAITING = 8;
/** A request body that sends nothing for this long is dropped (what it reserved is free again). */
export const BODY_IDLE_MS = 30_000;

/** How the host reads request bodies: where big ones are decoded, and how long one may stop coming. */
export interface ReadingOptions {
  /** Decodes big bodies off the thread that answers the screens (SPEC §11); without it they are decoded here. */
  readonly decoder?: DecodeThread;
  readonly bodyIdleMs: number;
  readonly log: (line: string) => void;
}

type Pool = 'big' | 'small';
const poolOf = (size: number): Pool => (size <= SMALL_BODY ? 'small' : 'big');

/** What the bodies being read have reserved, big and small (of READING_BUDGET and SMALL_READING_BUDGET), and those waiting for their turn. */
class ReadingBudget {
  private readonly reading = { big: 0, small: 0 };
  // Each pool its own queue: big uploads waiting never make a small call busy (issue 26, point 5).
  private readonly queues: Record<Pool, { readonly size: number; admit(): void }[]> = { big: [], small: [] };
  private readonly budget = { big: READING_BUDGET, small: SMALL_READING_BUDGET };

  private fits(size: number): boolean {
    return this.reading[poolOf(size)] + size <= this.budget[poolOf(size)];
  }

  /** Waits until `size` bytes of body may be read: then gives back what frees them; 'busy' when too many wait already, 'gone' when the client left while waiting. */
  reserve(size: number, res: http.ServerResponse): Promise<(() => void) | 'busy' | 'gone'> {
    return new Promise((resolve) => {
      const pool = poolOf(size);
      const admit = () => {
        this.reading[pool] += size;
        let freed = false;
        resolve(() => {
          if (freed) return;
          freed = true;
          this.reading[pool] -= size;
          this.wake();
        });
      };
      if (this.fits(size)) return admit();
      const waiting = this.queues[pool];
      if (waiting.length >= MAX_WAITING) return resolve('busy');
      const waiter = { size, admit };
      waiting.push(waiter);
      res.once('close', () => {
        const at = waiting.indexOf(waiter);
        if (at === -1) return;
        waiting.splice(at, 1);
        resolve('gone');
      });
    });
  }

  /** Lets in, in order, each waiting body that now fits. */
  private wake(): void {
    for (const waiting of Object.values(this.queues)) {
      for (let i = 0; i < waiting.length;) {
        const w = waiting[i];
        if (w && this.fits(w.size)) {
          waiting.splice(i, 1);
          w.admit();
        } else i++;
      }
    }
  }
}

/** Why a body is refused: its size (rounded up), when it announced one. */
function tooLarge(size: number | null): string {
  const what = size === null ? '' : `${(Math.ceil((size / MiB) * 10) / 10).toFixed(1)} MB, `;
  return (
    `this request is ${what}over the ${BODY_LIMIT / MiB} MB the browser host takes in one call ` +
    '(a document may be up to 20 MB); load a bigger catalogue file gzipped, or with the CLI (brick-work catalogue import FILE)'
  );
}

/** The body, or 'too-large' as soon as it passes BODY_LIMIT (the rest left unread), or 'gone' when the client left. */
function readBody(
  req: http.IncomingMessage,
  announced: number | null,
  options: ReadingOptions,
): Promise<Buffer | 'too-large' | 'gone'> {
  return new Promise((resolve) => {
    if (req.destroyed) return resolve('gone');
    // A body that announced its length is copied into one buffer as it comes (no copy of it all at
    // the end, which for an upload of tens of MB holds up the other answers); else its chunks are joined.
    const into = announced !== null && announced > SMALL_BODY ? Buffer.allocUnsafeSlow(announced) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    // A body that stops coming is dropped, so that what it reserved is free again (issue 26, point 5).
    let idle: NodeJS.Timeout | null = null;
    const stillComing = () => {
      if (idle !== null) clearTimeout(idle);
      idle = setTimeout(() => {
        options.log(
          `host: a request body stopped coming for ${options.bodyIdleMs / 1000} s; its connection was dropped`,
        );
        req.destroy();
      }, options.bodyIdleMs);
    };
    stillComing();
    const done = (outcome: Buffer | 'too-large' | 'gone') => {
      if (idle !== null) clearTimeout(idle);
      req.off('data', onData).off('end', onEnd).off('close', onGone).off('error', onGone);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      stillComing();
      const at = size;
      size += chunk.length;
      if (size <= BODY_LIMIT) {
        if (into !== null && size <= into.length) chunk.copy(into, at);
        else chunks.push(chunk);
        return;
      }
      req.pause();
      chunks.length = 0;
      done('too-large');
    };
    const onEnd = () => {
      if (into !== null && chunks.length === 0) done(size === into.length ? into : into.subarray(0, size));
      else
        done(Buffer.concat(into === null ? chunks : [into.subarray(0, Math.min(size, into.length)), ...chunks], size));
    };
    const onGone = () => done('gone');
    req.on('data', onData).once('end', onEnd).once('close', onGone).once('error', onGone);
  });
}

/** A read body's arguments, or null when it was answered here (not valid, or its thread lost it). */
async function decodeArguments(
  body: Buffer,
  res: http.ServerResponse,
  decoder: DecodeThread | undefined,
): Promise<{ args: unknown } | null> {
  try {
    // A big body (an upload) is decoded on the decoding thread: base64 and JSON of tens of MB would
    // hold up every other answer for a few hundred ms.
    const args =
      body.length > SMALL_BODY && decoder !== undefined
        ? await decoder.decode(body)
        : decodeWire(body.toString('utf8') || '{}', { nullPrototype: true });
    // Decoded for this call alone: its files go to the thread that reads them without a copy.
    return { args: handOver(args) };
  } catch (e) {
    if (e instanceof ThreadStopped) {
      refuse(res, 503, 'brick-work lost this upload while reading it; send it again');
      return null;
    }
    refuse(res, 400, e instanceof TooDeep ? e.message : 'the request is not valid JSON');
    return null;
  }
}

/** Reads a call's arguments, for one server: the bodies it reads at once share one budget. */
export type ArgumentReader = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<{ args: unknown } | null>;

/**
 * Reads the call's arguments within the limits above, parsed into objects without a prototype
 * (nothing downstream can meet an inherited name); null when the request was answered here or is gone.
 */
export function argumentReader(options: ReadingOptions): ArgumentReader {
  const budget = new ReadingBudget();
  return async (req, res) => {
    const length = req.headers['content-length'];
    const size = length !== undefined ? Number(length) : req.headers['transfer-encoding'] ? null : 0;
    if (size !== null && size > BODY_LIMIT) {
      refuseUnread(req, res, 413, tooLarge(size));
      return null;
    }
    const free = await budget.reserve(size ?? BODY_LIMIT, res);
    if (free === 'gone') return null;
    if (free === 'busy') {
      refuseUnread(req, res, 503, 'brick-work is busy reading other uploads; try again in a moment');
      return null;
    }
    try {
      const body = await readBody(req, size, options);
      if (body === 'gone') return null;
      if (body === 'too-large') {
        refuseUnread(req, res, 413, tooLarge(null));
        return null;
      }
      return await decodeArguments(body, res, options.decoder);
    } finally {
      free();
    }
  };
}
