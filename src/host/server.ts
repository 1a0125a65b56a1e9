import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ApiEvents, EventName } from '../api/contract.ts';
import type { ApiService } from '../api/service.ts';
import { decodeWire, encodeWire, TooDeep } from '../api/wire.ts';
import { handOver } from '../app/hand-over.ts';
import { ThreadStopped, type DecodeThread } from './decode-client.ts';
import { BrickWorkError, quote } from '../errors.ts';

/**
 * The browser host (SPEC §1): the contract over HTTP on 127.0.0.1, serving the built renderer, so the
 * whole UI runs in any browser. Every call and the event stream need this start's random token, in an
 * `Authorization: Bearer` header; the page gets it from the fragment of the URL the host prints
 * (`/#token=…`), which browsers never send, and keeps it for its tab — no cookie ever holds it (SPEC §11).
 * The page and its files are served without it. A request whose Host or Origin is not this server's own
 * is refused (no DNS rebinding, no other site calling in). Events reach the page as server-sent events.
 */
export interface HostServerOptions {
  readonly service: ApiService;
  /** The built renderer (vite's output): index.html and assets/. */
  readonly rendererDir: string;
  readonly port?: number;
  readonly log?: (line: string) => void;
  /** Decodes big bodies off the thread that answers the screens (SPEC §11); without it they are decoded here. */
  readonly decoder?: DecodeThread;
  /** How long a request body may stop coming before its connection is dropped (default BODY_IDLE_MS). */
  readonly bodyIdleMs?: number;
}

export interface HostServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  broadcast<E extends EventName>(name: E, payload: ApiEvents[E]): void;
  close(): Promise<void>;
}

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
/** An event-stream client that has this much not yet taken is not reading: it is dropped. */
const EVENT_BACKLOG_LIMIT = 1024 * 1024;
/**
 * A body answered before it was read whole: what the client still sends is thrown away, never kept, for
 * this long, so that a browser still sending reads the answer rather than a reset connection; then
 * the connection is closed.
 */
const LINGER_MS = 2000;
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startHostServer(options: HostServerOptions): Promise<HostServer> {
  const token = randomBytes(32).toString('base64url');
  const clients = new Set<http.ServerResponse>();
  let port = 0;
  const log = options.log ?? (() => {});
  const bodyIdleMs = options.bodyIdleMs ?? BODY_IDLE_MS;

  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  /**
   * The token a request carries: only in its `Authorization: Bearer` header. Never a cookie — browsers
   * send a host's cookies to every port of it, so any local page could collect one — and never in a query
   * (SPEC §11); the page has it from the printed URL's fragment, which no browser sends.
   */
  function tokenOf(req: http.IncomingMessage): string {
    const auth = req.headers.authorization;
    return auth?.startsWith('Bearer ') ? auth.slice(7) : '';
  }

  function refuse(res: http.ServerResponse, status: number, message: string): void {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`brick-work: ${message}\n`);
  }

  /** Answers before the body is read (whole): the rest is discarded as it comes, then the connection closed. */
  function refuseUnread(req: http.IncomingMessage, res: http.ServerResponse, status: number, message: string) {
    // Node closes a connection whose request it has not read once the answer is written: a client still
    // sending then meets a reset (EPIPE), often before it has read the answer. Kept open, the rest is
    // discarded as it comes (below) until the body ends, or LINGER_MS passes.
    res.shouldKeepAlive = true;
    refuse(res, status, message);
    res.once('finish', () => {
      if (req.complete) return;
      req.resume();
      const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
      timer.unref();
      req.once('end', () => clearTimeout(timer));
    });
  }

  /** Why a body is refused: its size (rounded up), when it announced one. */
  function tooLarge(size: number | null): string {
    const what = size === null ? '' : `${(Math.ceil((size / MiB) * 10) / 10).toFixed(1)} MB, `;
    return (
      `this request is ${what}over the ${BODY_LIMIT / MiB} MB the browser host takes in one call ` +
      '(a document may be up to 20 MB); load a bigger catalogue file gzipped, or with the CLI (brick-work catalogue import FILE)'
    );
  }

  /** What the bodies being read have reserved, big and small (of READING_BUDGET and SMALL_READING_BUDGET), and those waiting for their turn. */
  const reading = { big: 0, small: 0 };
  // Each pool its own queue: big uploads waiting never make a small call busy (issue 26, point 5).
  const queues: Record<'big' | 'small', { readonly size: number; admit(): void }[]> = { big: [], small: [] };
  const budget = { big: READING_BUDGET, small: SMALL_READING_BUDGET };
  const poolOf = (size: number) => (size <= SMALL_BODY ? 'small' : 'big');
  const fits = (size: number) => reading[poolOf(size)] + size <= budget[poolOf(size)];

  /** Waits until `size` bytes of body may be read: then gives back what frees them; 'busy' when too many wait already, 'gone' when the client left while waiting. */
  function reserve(size: number, res: http.ServerResponse): Promise<(() => void) | 'busy' | 'gone'> {
    return new Promise((resolve) => {
      const pool = poolOf(size);
      const admit = () => {
        reading[pool] += size;
        let freed = false;
        resolve(() => {
          if (freed) return;
          freed = true;
          reading[pool] -= size;
          wake();
        });
      };
      if (fits(size)) return admit();
      const waiting = queues[pool];
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
  function wake(): void {
    for (const waiting of Object.values(queues)) {
      for (let i = 0; i < waiting.length;) {
        const w = waiting[i];
        if (w && fits(w.size)) {
          waiting.splice(i, 1);
          w.admit();
        } else i++;
      }
    }
  }

  /** The body, or 'too-large' as soon as it passes BODY_LIMIT (the rest left unread), or 'gone' when the client left. */
  function readBody(req: http.IncomingMessage, announced: number | null): Promise<Buffer | 'too-large' | 'gone'> {
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
          log(`host: a request body stopped coming for ${bodyIdleMs / 1000} s; its connection was dropped`);
          req.destroy();
        }, bodyIdleMs);
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
          done(
            Buffer.concat(into === null ? chunks : [into.subarray(0, Math.min(size, into.length)), ...chunks], size),
          );
      };
      const onGone = () => done('gone');
      req.on('data', onData).once('end', onEnd).once('close', onGone).once('error', onGone);
    });
  }

  /**
   * The call's arguments, read within the limits above and parsed into objects without a prototype
   * (nothing downstream can meet an inherited name); null when the request was answered here or is gone.
   */
  async function readArguments(req: http.IncomingMessage, res: http.ServerResponse): Promise<{ args: unknown } | null> {
    const length = req.headers['content-length'];
    const size = length !== undefined ? Number(length) : req.headers['transfer-encoding'] ? null : 0;
    if (size !== null && size > BODY_LIMIT) {
      refuseUnread(req, res, 413, tooLarge(size));
      return null;
    }
    const free = await reserve(size ?? BODY_LIMIT, res);
    if (free === 'gone') return null;
    if (free === 'busy') {
      refuseUnread(req, res, 503, 'brick-work is busy reading other uploads; try again in a moment');
      return null;
    }
    try {
      const body = await readBody(req, size);
      if (body === 'gone') return null;
      if (body === 'too-large') {
        refuseUnread(req, res, 413, tooLarge(null));
        return null;
      }
      try {
        // A big body (an upload) is decoded on the decoding thread: base64 and JSON of tens of MB would
        // hold up every other answer for a few hundred ms.
        const args =
          body.length > SMALL_BODY && options.decoder !== undefined
            ? await options.decoder.decode(body)
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
    } finally {
      free();
    }
  }

  function serveFile(res: http.ServerResponse, pathname: string): void {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return refuse(
        res,
        400,
        `the address "${quote(pathname)}" has a bad percent-encoding (a % not followed by UTF-8 in hex)`,
      );
    }
    const root = path.resolve(options.rendererDir);
    const file = path.resolve(root, `.${decoded === '/' ? '/index.html' : decoded}`);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile())
      return refuse(res, 404, 'not found');
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    fs.createReadStream(file).pipe(res);
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const host = req.headers.host ?? '';
      if (!allowedHosts().includes(host))
        return refuse(
          res,
          403,
          `requests for host "${host}" are refused; this server answers only for ${allowedHosts()[0]}`,
        );
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins().includes(origin))
        return refuse(res, 403, `requests from ${origin} are refused`);
      // A request target that is no path (`//%zz/`, `http://[/`) can't be read as one: the client's
      // mistake, answered 400 like a bad percent-encoding, before the token is even looked at.
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://${host}`);
      } catch {
        return refuse(res, 400, `the address "${quote(req.url ?? '')}" can't be read as a path`);
      }
      // The page and its files need no token (they hold no data); every call and the event stream do.
      if (url.pathname.startsWith('/api/') && !same(tokenOf(req), token)) {
        return refuse(res, 401, 'this needs the token of this start; open the URL the host printed when it started');
      }
      if (req.method === 'GET' && url.pathname === '/api/events') {
        res.writeHead(200, {
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
        });
        res.write(': brick-work events\n\n');
        clients.add(res);
        req.on('close', () => clients.delete(res));
        return;
      }
      const call = /^\/api\/call\/([a-zA-Z.]+)$/.exec(url.pathname);
      if (call) {
        if (req.method !== 'POST') return refuse(res, 405, 'calls are POSTed');
        const read = await readArguments(req, res);
        if (read === null) return;
        const result = await options.service.call(call[1], read.args);
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        return res.end(encodeWire(result));
      }
      if (req.method === 'GET') return serveFile(res, url.pathname);
      return refuse(res, 405, 'not allowed');
    })().catch((e: unknown) => {
      log(`host: ${String(e)}`);
      if (!res.headersSent) refuse(res, 500, 'something went wrong inside brick-work');
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(listenRefusal(e, options.port ?? 0)));
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  const keepAlive = setInterval(() => {
    for (const c of clients) c.write(': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  return {
    // The token in the fragment: the browser keeps it to the page and never sends it to any server.
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    broadcast(name, payload) {
      const data = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
      for (const c of clients) {
        // A client that does not read is dropped, never buffered without end (SPEC §11).
        if (c.writableLength > EVENT_BACKLOG_LIMIT) {
          clients.delete(c);
          c.destroy();
          log('host: an event-stream client that did not read its events was dropped');
        } else c.write(data);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(keepAlive);
        for (const c of clients) c.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Why the host could not listen on its port, in words: the port taken, or not ours to take. */
function listenRefusal(e: NodeJS.ErrnoException, port: number): Error {
  if (e.code === 'EADDRINUSE')
    return new BrickWorkError(
      'busy',
      `port ${port} on 127.0.0.1 is already in use by another program; choose another with --port, or leave --port out for any free one`,
    );
  if (e.code === 'EACCES')
    return new BrickWorkError(
      'not-allowed',
      `port ${port} may not be used by this user (ports below 1024 are the system's); choose one from 1024 to 65535`,
    );
  return e;
}
