import http from 'node:http';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeWire, encodeWire } from '../../src/api/wire.ts';
import { startHostServer } from '../../src/host/server.ts';
import { openStore } from '../../src/store/open.ts';
import { serviceFor } from '../helpers/service.ts';
import { tempDir } from '../helpers/temp.ts';

async function host() {
  const dir = tempDir();
  const storePath = path.join(dir, 'brick-work.sqlite');
  const store = await openStore(storePath);
  const service = serviceFor(store.db, storePath);
  const renderer = path.join(dir, 'renderer');
  await import('node:fs').then((fs) => {
    fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>brick-work</title>');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');
  });
  const server = await startHostServer({ service, rendererDir: renderer });
  onTestFinished(async () => {
    await server.close();
    store.close();
  });
  return server;
}

function request(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

describe('the browser host', () => {
  it('listens on 127.0.0.1 only, with a random token per start', async () => {
    const a = await host();
    const b = await host();
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{40,}$/);
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
    expect((await request(h.port, { path: '/', headers: { Host: host_ } })).status).toBe(401);
    expect(
      (await request(h.port, { path: '/api/call/orders.list', method: 'POST', headers: { Host: host_ }, body: '{}' }))
        .status,
    ).toBe(401);
    expect((await request(h.port, { path: '/api/events', headers: { Host: host_ } })).status).toBe(401);
    expect((await request(h.port, { path: '/?token=wrong', headers: { Host: host_ } })).status).toBe(401);
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

  it('answers its own page: the token in the first URL becomes a cookie; calls and files work with it', async () => {
    const h = await host();
    const hostHeader = `127.0.0.1:${h.port}`;
    const first = await request(h.port, { path: `/?token=${h.token}`, headers: { Host: hostHeader } });
    expect(first.status).toBe(303);
    const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const page = await request(h.port, { path: '/', headers: { Host: hostHeader, Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const call = await request(h.port, {
      path: '/api/call/settings.get',
      method: 'POST',
      headers: { Host: hostHeader, Origin: `http://${hostHeader}`, Cookie: cookie },
      body: encodeWire({}),
    });
    expect(decodeWire(call.body)).toMatchObject({ ok: true, value: { currency: 'USD' } });
    const bad = await request(h.port, {
      path: '/api/call/orders.get',
      method: 'POST',
      headers: { Host: hostHeader, Cookie: cookie },
      body: encodeWire({ orderId: 'x' }),
    });
    expect(decodeWire(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    const traversal = await request(h.port, {
      path: '/..%2fsecret.txt',
      headers: { Host: hostHeader, Cookie: cookie },
    });
    expect(traversal.status).toBe(404);
  });
});
