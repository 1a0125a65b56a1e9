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
    vi.stubGlobal(
      'EventSource',
      class {
        addEventListener() {}
      },
    );
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

  it('a host that is gone is host-unreachable, saying what to check', async () => {
    const bridge = await bridgeAnswering(() => Promise.reject(new TypeError('Failed to fetch')));
    const answer = await bridge.call('orders.list', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'host-unreachable' } });
    expect(JSON.stringify(answer)).toContain('npm run serve');
  });
});
