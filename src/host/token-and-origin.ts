import { randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { quote } from '../vocabulary/errors.ts';
import { refuse } from './refuse.ts';

/** This start's token: random, never the same twice (SPEC §11). */
export const newToken = (): string => randomBytes(32).toString('base64url');

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The token a request carries: only in its `Authorization: Bearer` header. Never a cookie — browsers
 * send a host's cookies to every port of it, so any local page could collect one — and never in a query
 * (SPEC §11); the page has it from the printed URL's fragment, which no browser sends.
 */
function tokenOf(req: http.IncomingMessage): string {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : '';
}

/**
 * The request's address, when it may go on; otherwise it is answered here and null returned. A Host or
 * Origin not this server's own is refused (no DNS rebinding, no other site calling in), and every call
 * and the event stream (`/api/`) need this start's `token`; the page and its files hold no data and
 * need none.
 */
export function admitted(req: http.IncomingMessage, res: http.ServerResponse, port: number, token: string): URL | null {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host ?? '';
  if (!allowedHosts.includes(host)) {
    refuse(res, 403, `requests for host "${host}" are refused; this server answers only for ${allowedHosts[0]}`);
    return null;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.map((h) => `http://${h}`).includes(origin)) {
    refuse(res, 403, `requests from ${origin} are refused`);
    return null;
  }
  // A request target that is no path (`//%zz/`, `http://[/`) can't be read as one: the client's
  // mistake, answered 400 like a bad percent-encoding, before the token is even looked at.
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
  } catch {
    refuse(res, 400, `the address "${quote(req.url ?? '')}" can't be read as a path`);
    return null;
  }
  if (url.pathname.startsWith('/api/') && !same(tokenOf(req), token)) {
    refuse(res, 401, 'this needs the token of this start; open the URL the host printed when it started');
    return null;
  }
  return url;
}
