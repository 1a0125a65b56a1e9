/**
 * One address fetched as a picture (SPEC §11 and §15, issue 62 §4): pictures are pictures, from where they
 * were asked. A redirect is followed only on the host asked (else refused, never asked of the other host);
 * what comes is a picture by its bytes, its type by its signature, whatever `Content-Type` says; anything
 * else is refused (not kept). Read no further than `maxBytes`.
 */
import { pictureType, type PictureType } from './signature.ts';

export type Fetched =
  | { readonly kind: 'picture'; readonly bytes: Uint8Array; readonly type: PictureType }
  /** The server says it has no such picture (404, 410). */
  | { readonly kind: 'missing' }
  /** The server answered, but not with a picture of the address asked; `why` in a worker's words. */
  | { readonly kind: 'refused'; readonly why: string };

export interface FetchPictureOptions {
  readonly fetch: typeof fetch;
  readonly signal: AbortSignal;
  readonly maxBytes: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Redirects on the same host, at most: a server sending it round in circles is given up. */
const MAX_REDIRECTS = 5;

export const NOT_A_PICTURE = 'the picture server answered with something that is not a picture';

/** What the server gives for `url`; throws where it can't be reached or answers an error (asked again later). */
export async function fetchPicture(url: string, o: FetchPictureOptions): Promise<Fetched> {
  const asked = new URL(url);
  let at = asked;
  for (let hops = 0; ; hops++) {
    // Redirects by hand, each looked at before it is followed. No cookies are sent or kept: Node's fetch
    // has no cookie jar, and credentials are omitted.
    const response = await o.fetch(at.href, { signal: o.signal, credentials: 'omit', redirect: 'manual' });
    if (REDIRECTS.has(response.status)) {
      await response.body?.cancel();
      const to = whereTo(response.headers.get('location'), at);
      if (to === null) return refused('the picture server sent it elsewhere without a proper address');
      if (!sameHost(asked, to))
        return refused(`the picture server sent it to another host (${to.host}), which is not followed`);
      if (hops >= MAX_REDIRECTS) return refused('the picture server sent it from address to address');
      at = to;
      continue;
    }
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return { kind: 'missing' };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    const bytes = await readCapped(response, o.maxBytes);
    const type = pictureType(bytes);
    return type === null ? refused(NOT_A_PICTURE) : { kind: 'picture', bytes, type };
  }
}

function refused(why: string): Fetched {
  return { kind: 'refused', why };
}

/** A redirect's address, read against the one it answered; null: none, or not a web address. */
function whereTo(location: string | null, from: URL): URL | null {
  if (location === null) return null;
  try {
    const to = new URL(location, from);
    return to.protocol === 'http:' || to.protocol === 'https:' ? to : null;
  } catch {
    return null;
  }
}

/**
 * The host asked: the same name and port, the same scheme — or http made https on the usual ports (the
 * same server, asked more safely). Another port is another server.
 */
function sameHost(asked: URL, to: URL): boolean {
  if (to.hostname !== asked.hostname) return false;
  if (to.protocol === asked.protocol) return to.port === asked.port;
  return asked.protocol === 'http:' && to.protocol === 'https:' && asked.port === '' && to.port === '';
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
