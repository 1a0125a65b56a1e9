import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ApiEvents, EventName } from '../api/contract.ts';
import type { ApiService } from '../api/service.ts';
import { decodeWire, encodeWire } from '../api/wire.ts';

/**
 * The browser host (SPEC §1): the contract over HTTP on 127.0.0.1, serving the built renderer, so the
 * whole UI runs in any browser. Every request needs this start's random token (header, cookie, or the
 * query of the first page load); a request whose Host or Origin is not this server's own is refused
 * (no DNS rebinding, no other site calling in). Events reach the page as server-sent events.
 */
export interface HostServerOptions {
  readonly service: ApiService;
  /** The built renderer (vite's output): index.html and assets/. */
  readonly rendererDir: string;
  readonly port?: number;
  readonly log?: (line: string) => void;
}

export interface HostServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  broadcast<E extends EventName>(name: E, payload: ApiEvents[E]): void;
  close(): Promise<void>;
}

const COOKIE = 'brick_work_token';
const MAX_BODY = 400 * 1024 * 1024;
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

  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  function tokenOf(req: http.IncomingMessage, url: URL): string | null {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) return auth.slice(7);
    const cookie = (req.headers.cookie ?? '').split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`));
    if (cookie) return cookie.slice(COOKIE.length + 1);
    return url.searchParams.get('token');
  }

  function refuse(res: http.ServerResponse, status: number, message: string): void {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`brick-work: ${message}\n`);
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) throw new Error('too large');
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function serveFile(res: http.ServerResponse, pathname: string): void {
    const root = path.resolve(options.rendererDir);
    const file = path.resolve(root, `.${pathname === '/' ? '/index.html' : decodeURIComponent(pathname)}`);
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
      const url = new URL(req.url ?? '/', `http://${host}`);
      const given = tokenOf(req, url);
      if (given === null || !same(given, token)) {
        return refuse(res, 401, 'this needs the token of this start; open the URL the host printed when it started');
      }
      // The first page load carries the token in its URL: keep it in a cookie and drop it from the address.
      if (req.method === 'GET' && url.searchParams.has('token') && url.pathname === '/') {
        res.writeHead(303, { 'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`, Location: '/' });
        return res.end();
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
        let args: unknown;
        try {
          args = decodeWire((await readBody(req)) || '{}');
        } catch {
          return refuse(res, 400, 'the request is not valid JSON (or is too large)');
        }
        const result = await options.service.call(call[1], args);
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

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const keepAlive = setInterval(() => {
    for (const c of clients) c.write(': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    broadcast(name, payload) {
      const data = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
      for (const c of clients) c.write(data);
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
