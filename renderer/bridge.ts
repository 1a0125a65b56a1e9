import type { ApiEvents, BrickWorkApi, EventName } from '../src/api/contract.ts';
import { decodeWire, encodeWire } from '../src/api/wire.ts';

declare global {
  interface Window {
    brickWork?: BrickWorkApi;
  }
}

/**
 * The contract over the browser host's HTTP: calls are POSTed (the token travels in the cookie the
 * host set on the first page load), events arrive as server-sent events.
 */
export function httpBridge(): BrickWorkApi {
  const listeners = new Set<<E extends EventName>(name: E, payload: ApiEvents[E]) => void>();
  // A record of every event, so that the type checker names one added to the contract and missing here.
  const every: Record<EventName, true> = {
    'store.changed': true,
    'job.progress': true,
    'menu.command': true,
    'import.progress': true,
    'suggestions.status': true,
  };
  const names = Object.keys(every) as EventName[];
  const source = new EventSource('/api/events');
  for (const name of names) {
    source.addEventListener(name, (e) => {
      const payload = JSON.parse((e as MessageEvent<string>).data) as ApiEvents[typeof name];
      for (const l of listeners) l(name, payload);
    });
  }
  return {
    async call(name, args) {
      try {
        const response = await fetch(`/api/call/${name}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: encodeWire(args),
        });
        if (!response.ok)
          return { ok: false, error: { code: refusalCode(response.status), message: (await response.text()).trim() } };
        return decodeWire(await response.text()) as Awaited<ReturnType<BrickWorkApi['call']>>;
      } catch (e) {
        return {
          ok: false,
          error: {
            code: 'host-unreachable',
            message: `brick-work can't be reached (${(e as Error).message}); is \`npm run serve\` still running?`,
          },
        };
      }
    },
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
