import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { API_TYPE_NAMES } from '../../src/catalogue/bricklink/api.ts';
import { oauthSignature, type Credentials } from '../../src/catalogue/bricklink/oauth.ts';

export const TEST_CREDENTIALS: Credentials = {
  consumerKey: 'test-consumer-key',
  consumerSecret: 'test-consumer-secret-never-logged',
  token: 'test-token',
  tokenSecret: 'test-token-secret-never-logged',
};

export const CREDENTIALS_ENV = {
  BRICKLINK_CONSUMER_KEY: TEST_CREDENTIALS.consumerKey,
  BRICKLINK_CONSUMER_SECRET: TEST_CREDENTIALS.consumerSecret,
  BRICKLINK_TOKEN: TEST_CREDENTIALS.token,
  BRICKLINK_TOKEN_SECRET: TEST_CREDENTIALS.tokenSecret,
};

export interface StandIn {
  readonly url: string;
  /** Every request, in order: `TYPE/no`. */
  readonly requests: string[];
  /** Hold every request open until `release()` (a request in flight). */
  hold(): void;
  release(): void;
  /** Resolves when the next request arrives. */
  nextRequest(): Promise<string>;
  /** From now on, item requests get no answer: the connection is closed, or an HTTP 500. `null`: answer again. */
  fail(how: 'close' | 500 | null): void;
  /** Stops the server (done by itself when the test ends, unless `stopWithTest` was false). */
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Answer each item request after a random pause in this range, in ms, so that requests are in flight a while. */
  readonly delayMs?: readonly [number, number];
  /** Stop the server when the test ends (default); false outside vitest (`npm run soak`), where the caller closes it. */
  readonly stopWithTest?: boolean;
  /** The shop's store inventory, answered to `GET /inventories` as the API's JSON lots (SPEC §16). */
  readonly inventory?: readonly unknown[];
}

/**
 * A BrickLink API stand-in on 127.0.0.1: answers `GET /items/{type}/{no}` like the store API v1 does —
 * JSON `meta`/`data`, 404 for unknown items — and checks each request's OAuth 1.0a signature (401 when
 * it is wrong). Stopped when the test ends.
 */
export async function startStandIn(
  catalogue: Record<string, { name: string; categoryId?: number }>,
  options: StandInOptions = {},
): Promise<StandIn> {
  const requests: string[] = [];
  let holding = false;
  let failing: 'close' | 500 | null = null;
  const held: (() => void)[] = [];
  const waiting: ((r: string) => void)[] = [];
  const typeCodes = Object.fromEntries(Object.entries(API_TYPE_NAMES).map(([code, name]) => [name, code]));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/store/v1/colors') {
      requests.push('colors');
      return answer(200, {
        meta: { code: 200, message: 'OK', description: 'OK' },
        data: [
          { color_id: 1, color_name: 'White', color_code: 'FFFFFF', color_type: 'Solid' },
          { color_id: 11, color_name: 'Black', color_code: '212121', color_type: 'Solid' },
          { color_id: 86, color_name: 'Light Bluish Gray', color_code: 'AFB5C7', color_type: 'Solid' },
        ],
      });
    }
    const auth = String(req.headers.authorization ?? '');
    const fields = Object.fromEntries(
      [...auth.matchAll(/(\w+)="([^"]*)"/g)].map((f) => [f[1], decodeURIComponent(f[2] ?? '')]),
    );
    const expected = oauthSignature({
      method: 'GET',
      url: `http://${req.headers.host}${req.url}`,
      credentials: TEST_CREDENTIALS,
      nonce: fields['oauth_nonce'] ?? '',
      timestamp: fields['oauth_timestamp'] ?? '',
    }).signature;
    if (url.pathname === '/api/store/v1/inventories' && options.inventory) {
      const inventory = options.inventory;
      requests.push('inventories');
      for (const w of waiting.splice(0)) w('inventories');
      const reply = () => {
        if (fields['oauth_signature'] !== expected)
          return answer(401, { meta: { code: 401, message: 'BAD_OAUTH_REQUEST', description: 'Invalid signature' } });
        return answer(200, { meta: { code: 200, message: 'OK', description: 'OK' }, data: inventory });
      };
      // Held as item requests are (`hold()`): BrickLink slow to answer.
      if (holding) held.push(reply);
      else reply();
      return;
    }
    const m = /^\/api\/store\/v1\/items\/([A-Z_]+)\/([^/]+)$/.exec(url.pathname);
    if (!m) return answer(404, { meta: { code: 404, message: 'NOT_FOUND', description: 'no such resource' } });
    const key = `${m[1]}/${decodeURIComponent(m[2] ?? '')}`;
    requests.push(key);
    for (const w of waiting.splice(0)) w(key);

    const reply = () => {
      if (failing === 'close') return void req.socket.destroy();
      if (failing === 500)
        return answer(500, { meta: { code: 500, message: 'INTERNAL_SERVER_ERROR', description: 'Something broke' } });
      if (fields['oauth_signature'] !== expected || fields['oauth_consumer_key'] !== TEST_CREDENTIALS.consumerKey) {
        return answer(401, { meta: { code: 401, message: 'BAD_OAUTH_REQUEST', description: 'Invalid signature' } });
      }
      const type = typeCodes[m[1] ?? ''];
      const item = catalogue[`${type} ${decodeURIComponent(m[2] ?? '')}`];
      if (!item) return answer(404, { meta: { code: 404, message: 'NOT_FOUND', description: 'Item not found' } });
      return answer(200, {
        meta: { code: 200, message: 'OK', description: 'OK' },
        data: { no: decodeURIComponent(m[2] ?? ''), name: item.name, type: m[1], category_id: item.categoryId ?? 5 },
      });
    };
    const delay = options.delayMs;
    const later = delay ? () => setTimeout(reply, delay[0] + Math.random() * (delay[1] - delay[0])) : reply;
    if (holding) held.push(later);
    else later();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  if (options.stopWithTest ?? true) onTestFinished(close);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/store/v1`,
    requests,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      for (const r of held.splice(0)) r();
    },
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    fail: (how) => (failing = how),
    close,
  };
}
