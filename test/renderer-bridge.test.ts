import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrickWorkApi } from '../src/api/contract.ts';

const BRIDGE = '../renderer/bridge.ts';

// The page's bridge to the browser host: a refusal the host gives before any call (too large, wrong
// token, busy) or a host that is gone is said in its own words and code, never as `internal` (SPEC §10).
describe("the browser host's bridge", () => {
  afterEach(() => vi.unstubAllGlobals());

  const bridgeAnswering = async (answer: () => Promise<Response>) => {
    // The module picks `window.brickWork` when it loads: give it one, and test the HTTP bridge itself.
    vi.stubGlobal('window', { brickWork: {} });
    // Imported by name at run time: the bridge is web code (DOM types), outside the Node type-check.
    const { httpBridge } = (await import(BRIDGE)) as { httpBridge: () => BrickWorkApi };
    // The page's address and its tab's storage, as the host's printed URL leaves them.
    vi.stubGlobal('location', { hash: '#token=abc', pathname: '/', search: '' });
    const kept = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => kept.set(k, v),
    });
    vi.stubGlobal('history', { replaceState: () => undefined });
    vi.stubGlobal('fetch', answer);
    return httpBridge();
  };

  it.each([
    [413, 'too-large'],
    [401, 'not-allowed'],
    [403, 'not-allowed'],
    [503, 'busy'],
    [400, 'invalid-argument'],
  ])('an HTTP %i before any call is %s, with the host’s own words', async (status, code) => {
    const bridge = await bridgeAnswering(() => Promise.resolve(new Response('the words\n', { status })));
    expect(await bridge.call('orders.list', {})).toEqual({ ok: false, error: { code, message: 'the words' } });
  });

  it('sends the token from the URL fragment as a header, never a cookie (issue 26, point 3)', async () => {
    const seen: RequestInit[] = [];
    const bridge = await bridgeAnswering(((_url: string, init: RequestInit) => {
      seen.push(init);
      return Promise.resolve(new Response('{"ok":true,"value":[]}', { status: 200 }));
    }) as unknown as () => Promise<Response>);
    expect(await bridge.call('orders.list', {})).toEqual({ ok: true, value: [] });
    expect(seen.length).toBeGreaterThan(0);
    for (const init of seen) expect(init.headers).toMatchObject({ Authorization: 'Bearer abc' });
    expect(seen.some((init) => init.credentials !== undefined)).toBe(false);
  });

  it('stops asking for events once the host refuses the token, and asks again after a stream that ended', async () => {
    vi.useFakeTimers();
    try {
      for (const [status, asked] of [
        [401, 1],
        [503, 4],
      ] as const) {
        let events = 0;
        await bridgeAnswering(((url: string) => {
          if (url === '/api/events') events += 1;
          return Promise.resolve(new Response('no', { status }));
        }) as unknown as () => Promise<Response>);
        await vi.advanceTimersByTimeAsync(3_500);
        expect(events, `HTTP ${status}`).toBe(asked);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('a host that is gone is host-unreachable, saying what to check', async () => {
    const bridge = await bridgeAnswering(() => Promise.reject(new TypeError('Failed to fetch')));
    const answer = await bridge.call('orders.list', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'host-unreachable' } });
    expect(JSON.stringify(answer)).toContain('npm run serve');
  });
});
