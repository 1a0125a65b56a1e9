import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { ApiService } from '../api/service.ts';
import { encodeWire } from '../api/wire.ts';
import { quote } from '../vocabulary/errors.ts';
import type { EventStreams } from './events.ts';
import { refuse } from './refuse.ts';
import { admitted } from './token-and-origin.ts';
import type { ArgumentReader } from './uploads.ts';

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

/** A file of the built renderer (`/` is its index.html); nothing outside `rendererDir`. */
function serveFile(res: http.ServerResponse, rendererDir: string, pathname: string): void {
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
  const root = path.resolve(rendererDir);
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

/** What the routes answer from: the service, the renderer's files, this start's token and port, the event streams, the body reader. */
export interface Routes {
  readonly service: ApiService;
  readonly rendererDir: string;
  readonly token: string;
  /** The port listened on (known once the server listens, before any request comes). */
  readonly port: () => number;
  readonly events: EventStreams;
  readonly readArguments: ArgumentReader;
  readonly log: (line: string) => void;
}

/** A request the checks let through: the event stream, a call (`POST /api/call/NAME`), or a file of the page. */
async function route(req: http.IncomingMessage, res: http.ServerResponse, routes: Routes): Promise<void> {
  const url = admitted(req, res, routes.port(), routes.token);
  if (url === null) return;
  if (req.method === 'GET' && url.pathname === '/api/events') return routes.events.open(req, res);
  const call = /^\/api\/call\/([a-zA-Z.]+)$/.exec(url.pathname);
  if (call) {
    if (req.method !== 'POST') return refuse(res, 405, 'calls are POSTed');
    const read = await routes.readArguments(req, res);
    if (read === null) return;
    const result = await routes.service.call(call[1], read.args);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    return void res.end(encodeWire(result));
  }
  if (req.method === 'GET') return serveFile(res, routes.rendererDir, url.pathname);
  return refuse(res, 405, 'not allowed');
}

/** The server's request listener: each request routed, and what goes wrong inside logged and answered 500. */
export function requestListener(routes: Routes): http.RequestListener {
  return (req, res) => {
    route(req, res, routes).catch((e: unknown) => {
      routes.log(`host: ${String(e)}`);
      if (!res.headersSent) refuse(res, 500, 'something went wrong inside brick-work');
      else res.end();
    });
  };
}
