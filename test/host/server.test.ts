import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ApiService } from '../../src/api/service.ts';
import { startWorker } from '../../src/app/job-host.ts';
import { DecodeThread } from '../../src/host/decode-client.ts';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { BODY_LIMIT, MAX_WAITING, READING_BUDGET, SMALL_BODY } from '../../src/host/uploads.ts';
import { host, request, stillPending, upload, within } from './helpers.ts';

/** A service that answers every call with null, keeping the arguments it was handed. */
function recording(): { seen: unknown[]; service: ApiService } {
  const seen: unknown[] = [];
  const service = {
    call: (_name: unknown, args: unknown) => {
      seen.push(args);
      return Promise.resolve({ ok: true, value: null });
    },
  } as unknown as ApiService;
  return { seen, service };
}

describe('the browser host', () => {
  it('listens on 127.0.0.1 only, with a random token per start', async () => {
    const a = await host();
    const b = await host();
    // The token in the fragment: browsers never send it (issue 26, point 3).
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{40,}$/);
    expect(a.token).not.toBe(b.token);
    // Not reachable on any other address of this machine: IPv6 loopback, and its network addresses.
    const net = await import('node:net');
    const os = await import('node:os');
    const others = [
      '::1',
      ...Object.values(os.networkInterfaces())
        .flat()
        .flatMap((i) => (i && !i.internal ? [i.address] : [])),
    ];
    for (const address of others) {
      const outcome = await new Promise<string>((resolve) => {
        const s = net.connect({ host: address, port: a.port }, () => {
          s.destroy();
          resolve('connected');
        });
        s.on('error', () => resolve('refused'));
      });
      expect(outcome, address).toBe('refused');
    }
  });

  it('refuses requests without the token, or with a wrong one', async () => {
    const h = await host();
    const host_ = `127.0.0.1:${h.port}`;
    expect(
      (await request(h.port, { path: '/api/call/orders.list', method: 'POST', headers: { Host: host_ }, body: '{}' }))
        .status,
    ).toBe(401);
    expect((await request(h.port, { path: '/api/events', headers: { Host: host_ } })).status).toBe(401);
    const r = await request(h.port, {
      path: '/api/call/orders.list',
      method: 'POST',
      headers: { Host: host_, Authorization: 'Bearer not-it' },
      body: '{}',
    });
    expect(r.status).toBe(401);
    expect(r.body).toContain('needs the token of this start');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, even with the token', async () => {
    const h = await host();
    const auth = { Authorization: `Bearer ${h.token}` };
    const rebinding = await request(h.port, {
      path: '/api/call/orders.list',
      method: 'POST',
      headers: { ...auth, Host: `evil.example:${h.port}` },
      body: '{}',
    });
    expect(rebinding.status).toBe(403);
    const otherPort = await request(h.port, { path: '/', headers: { ...auth, Host: `127.0.0.1:${h.port + 1}` } });
    expect(otherPort.status).toBe(403);
    const origin = await request(h.port, {
      path: '/api/call/orders.list',
      method: 'POST',
      headers: { ...auth, Host: `127.0.0.1:${h.port}`, Origin: 'https://evil.example' },
      body: '{}',
    });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain('https://evil.example');
  });

  it('serves its page and files without the token; every call and the event stream take it from the header only (SPEC §11)', async () => {
    const h = await host();
    const Host = `127.0.0.1:${h.port}`;
    const page = await request(h.port, { path: '/', headers: { Host } });
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await request(h.port, { path: '/assets/app.js', headers: { Host } })).status).toBe(200);
    expect((await request(h.port, { path: '/..%2fsecret.txt', headers: { Host } })).status).toBe(404);
    // A token anywhere but the header is no token: a query, a cookie of any name.
    const inUrl = `token=${h.token}`;
    for (const [path, headers] of [
      [`/api/call/settings.get?${inUrl}`, {}],
      ['/api/call/settings.get', { Cookie: `brick_work_token_${h.port}=${h.token}` }],
      ['/api/call/settings.get', { Cookie: `token=${h.token}` }],
    ] as const) {
      const r = await request(h.port, { path, method: 'POST', headers: { Host, ...headers }, body: '{}' });
      expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
      expect(r.body).toContain('needs the token of this start');
    }
    expect((await request(h.port, { path: `/api/events?${inUrl}`, headers: { Host } })).status).toBe(401);
    const call = await request(h.port, {
      path: '/api/call/settings.get',
      method: 'POST',
      headers: { Host, Origin: `http://${Host}`, Authorization: `Bearer ${h.token}` },
      body: encodeWire({}),
    });
    expect(decodeWire(call.body)).toMatchObject({ ok: true, value: { currency: 'USD' } });
    const bad = await request(h.port, {
      path: '/api/call/orders.get',
      method: 'POST',
      headers: { Host, Authorization: `Bearer ${h.token}` },
      body: encodeWire({ orderId: 'x' }),
    });
    expect(decodeWire(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });

  it("takes no other start's token: two hosts, each its own", async () => {
    const a = await host();
    const b = await host();
    const call = (port: number, token: string) =>
      request(port, {
        path: '/api/call/settings.get',
        method: 'POST',
        headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}` },
        body: '{}',
      });
    expect((await call(a.port, b.token)).status).toBe(401);
    expect(decodeWire((await call(a.port, a.token)).body)).toMatchObject({ ok: true });
    expect(decodeWire((await call(b.port, b.token)).body)).toMatchObject({ ok: true });
  });

  it('answers 400 to a bad percent-encoding in the address, in plain words, and logs nothing', async () => {
    const h = await host();
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    for (const path of ['/%', '/%zz', '/a%', '/%E0%A4%A', '/assets/%C0%AF', '/%ff.js', '/assets/%']) {
      const r = await request(h.port, { path, headers });
      expect(r.status, path).toBe(400);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.body).toMatch(/^brick-work: .*percent/);
      expect(r.body).not.toMatch(/URIError|at /);
    }
    expect((await request(h.port, { path: '/assets/%61pp.js', headers })).status).toBe(200);
    expect(h.logs).toEqual([]);
  });

  it('answers 400 to a request target that is no path, with or without the token, and logs nothing', async () => {
    const h = await host();
    const Host = `127.0.0.1:${h.port}`;
    for (const path of ['//%zz/', '//[', 'http://[/', '//127.0.0.1:99999/']) {
      for (const headers of [{ Host, Authorization: `Bearer ${h.token}` }, { Host }] as Record<string, string>[]) {
        const r = await request(h.port, { path, headers });
        expect(r.status, path).toBe(400);
        expect(r.body).toMatch(/^brick-work: the address .* can't be read as a path/);
      }
    }
    expect(h.logs).toEqual([]);
  });

  it('checks own fields only, end to end: names every object has are unknown fields, not values (SPEC §11)', async () => {
    const stored: unknown[] = [];
    const h = await host({
      overrides: { credentials: { encrypted: false, get: () => null, set: (c) => void stored.push(c) } },
    });
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    const call = async (name: string, body: string) =>
      decodeWire((await request(h.port, { path: `/api/call/${name}`, method: 'POST', headers, body })).body);
    const four = '"consumerKey":"k","consumerSecret":"s","token":"t","tokenSecret":"ts"';
    const inherited = ['"constructor":1', '"toString":"x"', '"hasOwnProperty":"x"', '"__proto__":{"x":1}'];
    for (const extra of inherited) {
      const name = /^"(\w+)"/.exec(extra)?.[1] ?? '';
      expect(await call('settings.setCredentials', `{${four},${extra}}`), extra).toEqual({
        ok: false,
        error: { code: 'invalid-argument', message: `Not a valid request: the arguments has unknown fields: ${name}.` },
      });
      expect(await call('orders.list', `{${extra}}`), extra).toMatchObject({
        ok: false,
        error: { code: 'invalid-argument', message: expect.stringContaining(`unknown fields: ${name}`) as string },
      });
    }
    expect(await call('orders.list', '{"__proto__":{"query":1}}')).toMatchObject({
      ok: false,
      error: { code: 'invalid-argument' },
    });
    // A field the call has is missing when the body lacks it, whatever objects inherit.
    expect(
      await call('settings.setCredentials', '{"consumerKey":"k","consumerSecret":"s","token":"t","valueOf":"x"}'),
    ).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(stored).toEqual([]);
    expect(await call('settings.setCredentials', `{${four}}`)).toMatchObject({ ok: true });
    expect(stored).toHaveLength(1);
    expect(Object.keys(stored[0] as object)).toEqual(['consumerKey', 'consumerSecret', 'token', 'tokenSecret']);
    expect(await call('orders.list', '{}')).toEqual({ ok: true, value: [] });
    expect(h.logs).toEqual([]);
  });

  it('hands calls their arguments as objects without a prototype: no handler can see an inherited name', async () => {
    const { seen, service } = recording();
    const h = await host({ service });
    await request(h.port, {
      path: '/api/call/catalogue.load',
      method: 'POST',
      headers: { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` },
      body: encodeWire({ files: [{ name: 'parts.csv', content: new Uint8Array([1, 2, 3]) }], nested: { deep: {} } }),
    });
    const args = seen[0] as {
      files: { name: string; content: Uint8Array }[];
      nested: { deep: object };
    };
    expect(Object.getPrototypeOf(args)).toBeNull();
    expect(Object.getPrototypeOf(args.nested)).toBeNull();
    expect(Object.getPrototypeOf(args.nested.deep)).toBeNull();
    expect(Object.getPrototypeOf(args.files[0])).toBeNull();
    expect(Array.isArray(args.files)).toBe(true);
    expect(args.files[0]?.content).toBeInstanceOf(Uint8Array);
    expect([...(args.files[0]?.content ?? [])]).toEqual([1, 2, 3]);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])
      expect(name in args || name in (args.files[0] ?? {}), name).toBe(false);
  });

  it('decodes a big body on its decoding thread: the same arguments, without prototypes; a bad one is 400; a stopped thread costs nothing (issue 25)', async () => {
    const { seen, service } = recording();
    const started: Worker[] = [];
    const decoder = new DecodeThread(() => {
      const w = startWorker(new URL('../../src/host/decode-thread.ts', import.meta.url), null);
      started.push(w);
      return w;
    });
    onTestFinished(() => decoder.close());
    const h = await host({ service, decoder });
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    const content = new Uint8Array(2 * 1024 * 1024).map((_, i) => i % 251);
    const body = encodeWire({ files: [{ name: 'parts.csv', content }], nested: { deep: {} } });
    const post = (b: string) => request(h.port, { path: '/api/call/catalogue.load', method: 'POST', headers, body: b });
    expect((await post(body)).status).toBe(200);
    expect(started).toHaveLength(1);
    const args = seen[0] as { files: { name: string; content: Uint8Array }[]; nested: { deep: object } };
    expect(Object.getPrototypeOf(args)).toBeNull();
    expect(Object.getPrototypeOf(args.nested.deep)).toBeNull();
    expect(Object.getPrototypeOf(args.files[0])).toBeNull();
    expect(Array.isArray(args.files)).toBe(true);
    expect(Buffer.from(args.files[0]?.content ?? []).equals(Buffer.from(content))).toBe(true);
    expect((await post(`${body.slice(0, -1)}x`)).status).toBe(400);
    // The thread ends: the next big body is decoded after all (a new thread).
    await started[0]?.terminate();
    expect((await post(body)).status).toBe(200);
    expect(Buffer.from((seen[1] as typeof args).files[0]?.content ?? []).equals(Buffer.from(content))).toBe(true);
  });

  it('a body nested deeper than any call is 400 saying so, not "not valid JSON", small or big (issue 45)', async () => {
    const decoder = new DecodeThread(() =>
      startWorker(new URL('../../src/host/decode-thread.ts', import.meta.url), null),
    );
    onTestFinished(() => decoder.close());
    const h = await host({ decoder });
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    const post = (b: string) => request(h.port, { path: '/api/call/settings.get', method: 'POST', headers, body: b });
    const deep = (n: number, pad = '') => `{"x": ${'['.repeat(n)}"${pad}"${']'.repeat(n)}}`;
    for (const body of [deep(100_000), deep(100_000, 'p'.repeat(2 * 1024 * 1024))]) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body).toContain('the request is nested more than 64 levels deep, deeper than any call brick-work takes');
    }
    // Brackets inside a string are text, not nesting.
    expect(decodeWire(`{"name": "${'['.repeat(1000)}"}`)).toEqual({ name: '['.repeat(1000) });
    expect((await post('{"x": [1,')).body).toContain('the request is not valid JSON');
  });

  it('answers 413 to a body over the limit without reading it all, and stays well', async () => {
    const h = await host();
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    const MiB = 1024 * 1024;
    // A length over the limit is refused on sight: the 1 MB sent of the 400 announced is all it takes.
    const announced = upload(h.port, {
      path: '/api/call/import.preview',
      headers: { ...headers, 'Content-Length': String(400 * MiB) },
    });
    announced.req.write(Buffer.alloc(MiB, 0x20));
    const r = await within(5000, 'a 400 MB upload', announced.answer);
    expect(r.status).toBe(413);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toMatch(/^brick-work: .*400\.0 MB.*over the 64 MB/);
    // A body sent without its length is cut off once it passes the limit.
    const unannounced = upload(h.port, { path: '/api/call/import.preview', headers });
    const chunk = Buffer.alloc(MiB, 0x20);
    let sent = 0;
    while (!unannounced.answered() && sent < BODY_LIMIT + 32 * MiB) {
      // The host stops reading once it has answered: a write then may fail (EPIPE), which is no answer of its own.
      const drained = once(unannounced.req, 'drain').catch(() => undefined);
      if (!unannounced.req.write(chunk)) await Promise.race([drained, unannounced.answer]);
      sent += chunk.length;
    }
    const cut = await within(5000, 'an endless upload', unannounced.answer);
    expect(cut.status).toBe(413);
    expect(cut.body).toMatch(/^brick-work: .*over the 64 MB/);
    // The host is fine: an ordinary call still goes through.
    const after = await request(h.port, { path: '/api/call/settings.get', method: 'POST', headers, body: '{}' });
    expect(decodeWire(after.body)).toMatchObject({ ok: true });
    expect(h.logs).toEqual([]);
  });

  it('reads only a few big bodies at once: the next waits its turn, small calls go on, and past a queue it answers 503', async () => {
    const h = await host();
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    // Uploads at the limit exactly fill what is read at once: not a byte left over for the screens.
    const big = BODY_LIMIT;
    const reading = Math.floor(READING_BUDGET / big);
    expect(READING_BUDGET % big).toBe(0);
    expect(reading).toBeGreaterThanOrEqual(2);
    expect(reading).toBeLessThanOrEqual(4);
    // Slow uploads that fill what the host reads at once.
    const slow = Array.from({ length: reading }, () => {
      const u = upload(h.port, {
        path: '/api/call/import.preview',
        headers: { ...headers, 'Content-Length': String(big) },
      });
      u.req.write('{"file":');
      return u;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A body of unknown length (it could be up to the limit) waits...
    const waiting = upload(h.port, {
      path: '/api/call/settings.get',
      headers: { ...headers, 'Transfer-Encoding': 'chunked' },
    });
    waiting.req.end('{}');
    expect(await stillPending(700, waiting.answer)).toBe(true);
    // ...while a small call goes through at once: the screens keep working.
    const small = await within(
      2000,
      'a small call',
      request(h.port, { path: '/api/call/settings.get', method: 'POST', headers, body: '{}' }),
    );
    expect(decodeWire(small.body)).toMatchObject({ ok: true });
    // Past MAX_WAITING waiting bodies the host says it is busy, without reading.
    for (let i = 1; i < MAX_WAITING; i++) {
      upload(h.port, {
        path: '/api/call/import.preview',
        headers: { ...headers, 'Content-Length': String(big) },
      }).req.flushHeaders();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = upload(h.port, {
      path: '/api/call/import.preview',
      headers: { ...headers, 'Content-Length': String(big) },
    });
    refused.req.write('{"file":');
    const busy = await within(5000, 'one more upload', refused.answer);
    expect(busy.status).toBe(503);
    expect(busy.headers['content-type']).toMatch(/^text\/plain/);
    expect(busy.body).toMatch(/^brick-work: .*try again/);
    // When a slow upload goes away, the waiting call is read and answered.
    slow[0]?.req.destroy();
    const answered = await within(5000, 'the waiting call', waiting.answer);
    expect(decodeWire(answered.body)).toMatchObject({ ok: true });
    expect(h.logs).toEqual([]);
  });

  it('keeps answering small calls while 72 connections announce 256 KB bodies and never send them; they are dropped in time (issue 26, point 5)', async () => {
    const h = await host({ bodyIdleMs: 800 });
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    const stalled = Array.from({ length: 72 }, () => {
      const u = upload(h.port, {
        path: '/api/call/settings.get',
        headers: { ...headers, 'Content-Length': String(256 * 1024) },
      });
      u.req.flushHeaders();
      return u;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let i = 0; i < 5; i++) {
      const r = await within(
        2000,
        'a small call',
        request(h.port, { path: '/api/call/settings.get', method: 'POST', headers, body: '{}' }),
      );
      expect(r.status).toBe(200);
    }
    // The bodies that never come are dropped: their connections end.
    const ended = await Promise.all(
      stalled.map((u) =>
        u.answer.then(
          () => 'answered',
          () => 'dropped',
        ),
      ),
    );
    expect(ended.every((e) => e === 'dropped')).toBe(true);
    expect(h.logs.some((l) => /a request body stopped coming/.test(l))).toBe(true);
  });

  it('drops an event-stream client that does not read, instead of keeping its events without end (issue 26, point 5)', async () => {
    const h = await host();
    const net = await import('node:net');
    const socket = net.connect({ host: '127.0.0.1', port: h.port });
    await once(socket, 'connect');
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nAuthorization: Bearer ${h.token}\r\n\r\n`);
    socket.pause(); // never reads
    onTestFinished(() => void socket.destroy());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const big = { reason: 'x'.repeat(64 * 1024) };
    for (let i = 0; i < 400; i++) {
      h.broadcast('store.changed', big);
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(h.logs).toContain('host: an event-stream client that did not read its events was dropped');
  });

  it('keeps answering the screens while uploads of unknown length (chunked) hold what big bodies may read', async () => {
    const h = await host();
    const headers = { Host: `127.0.0.1:${h.port}`, Authorization: `Bearer ${h.token}` };
    const holders = Array.from({ length: READING_BUDGET / BODY_LIMIT }, () => {
      const u = upload(h.port, {
        path: '/api/call/import.preview',
        headers: { ...headers, 'Transfer-Encoding': 'chunked' },
      });
      u.req.write('{"file":');
      return u;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The biggest small call, and one more that is just too big to be small (it waits its turn).
    const small = await within(
      2000,
      'a small call beside chunked uploads',
      request(h.port, {
        path: '/api/call/orders.list',
        method: 'POST',
        headers,
        body: `{"query":"${'x'.repeat(SMALL_BODY - 14)}"}`,
      }),
    );
    expect(small.status).toBe(200);
    const notSmall = upload(h.port, {
      path: '/api/call/settings.get',
      headers: { ...headers, 'Content-Length': String(SMALL_BODY + 1) },
    });
    notSmall.req.write('{}');
    expect(await stillPending(500, notSmall.answer)).toBe(true);
    for (const u of holders) u.req.destroy();
    notSmall.req.destroy();
    expect(h.logs).toEqual([]);
  });
});
