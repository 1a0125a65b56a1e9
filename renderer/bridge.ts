import type { ApiEvents, BrickWorkApi, EventName, Result } from '../src/api/contract.ts';
import { decodeWire, encodeWire, holdsBytes } from '../src/api/wire.ts';
import { encodeOffThread } from './off-thread.ts';

declare global {
  interface Window {
    brickWork?: BrickWorkApi;
  }
}

/** Where the tab keeps the host's token (sessionStorage: this tab only, never sent anywhere). */
const TOKEN_KEY = 'brick-work-token';

/**
 * This start's token: from the fragment of the URL the host printed (`#token=…`, which the browser never
 * sends), then kept for this tab — a reload still has it — and taken out of the address bar.
 */
function pageToken(): string {
  const given = /(?:^#|&)token=([\w-]+)/.exec(location.hash)?.[1];
  if (given !== undefined) {
    sessionStorage.setItem(TOKEN_KEY, given);
    history.replaceState(null, '', `${location.pathname}${location.search}`);
    return given;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/**
 * The host's server-sent events, read with `fetch` so that the token travels as a header (EventSource
 * can send none); read again after a second when the stream ends or fails — but not once the host has
 * refused the token: it never takes a token it refused (its start printed a new address), and every call
 * says so in words.
 */
function listen(token: string, dispatch: (name: string, data: string) => void): void {
  const once = async (): Promise<'again' | 'refused'> => {
    const response = await fetch('/api/events', { headers: { Authorization: `Bearer ${token}` } });
    if (refusalCode(response.status) === 'not-allowed') return 'refused';
    if (!response.ok || response.body === null) return 'again';
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'again';
      buffered += value;
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name !== undefined && data !== undefined) dispatch(name, data);
      }
    }
  };
  const again = () =>
    void once().then(
      (next) => void (next === 'again' && setTimeout(again, 1_000)),
      () => setTimeout(again, 1_000),
    );
  again();
}

/**
 * A call's body for the wire. One that carries files (an upload of tens of MB) is encoded on a worker, so
 * that the page keeps answering keys meanwhile (issue 47).
 */
function bodyOf(args: unknown): Promise<string | Blob> | string {
  return holdsBytes(args) ? encodeOffThread(args) : encodeWire(args);
}

/**
 * The contract over the browser host's HTTP: calls are POSTed with the token as a header, events arrive
 * as server-sent events (SPEC §1, §11).
 */
export function httpBridge(): BrickWorkApi {
  const listeners = new Set<<E extends EventName>(name: E, payload: ApiEvents[E]) => void>();
  // A record of every event, so that the type checker names one added to the contract and missing here.
  const every: Record<EventName, true> = {
    'store.changed': true,
    'job.progress': true,
    'menu.command': true,
    'document.opened': true,
    'import.progress': true,
    'compare.progress': true,
    'suggestions.status': true,
    'pictures.ready': true,
    'store.waiting': true,
  };
  const names = new Set<string>(Object.keys(every));
  const token = pageToken();
  listen(token, (name, data) => {
    if (!names.has(name)) return;
    const payload = JSON.parse(data) as ApiEvents[EventName];
    for (const l of listeners) l(name as EventName, payload);
  });
  // What comes back over HTTP is what the host's service answered for that call: typed as the contract says.
  const call = async (name: string, args: unknown): Promise<Result<unknown>> => {
    try {
      const response = await fetch(`/api/call/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: await bodyOf(args),
      });
      if (!response.ok)
        return { ok: false, error: { code: refusalCode(response.status), message: (await response.text()).trim() } };
      return decodeWire(await response.text()) as Result<unknown>;
    } catch (e) {
      return {
        ok: false,
        error: {
          code: 'host-unreachable',
          message: `brick-work can't be reached (${(e as Error).message}); is \`npm run serve\` still running?`,
        },
      };
    }
  };
  return {
    call: call as BrickWorkApi['call'],
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } satisfies BrickWorkApi;
}

/** `window.brickWork` in the app (the preload put it there); the HTTP client in the browser host. */
export const api: BrickWorkApi = window.brickWork ?? httpBridge();

/** What the host's answer before any call means (its text says it in words); `internal` only for its own failures. */
function refusalCode(status: number): string {
  if (status === 413) return 'too-large';
  if (status === 401 || status === 403) return 'not-allowed';
  if (status === 503) return 'busy';
  if (status === 400) return 'invalid-argument';
  return 'internal';
}
