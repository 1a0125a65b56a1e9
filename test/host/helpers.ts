import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { ApiService, ServiceContext } from '../../src/api/service.ts';
import type { DecodeThread } from '../../src/host/decode-client.ts';
import { startHostServer } from '../../src/host/server.ts';
import { openStore } from '../../src/store/open.ts';
import { serviceFor } from '../helpers/service.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * A browser host on 127.0.0.1 over a fresh store (or the given service), serving a one-page renderer,
 * closed when the test ends; `logs` is what it logged.
 */
export async function host(
  options: {
    service?: ApiService;
    overrides?: Partial<ServiceContext>;
    port?: number;
    decoder?: DecodeThread;
    bodyIdleMs?: number;
  } = {},
) {
  const dir = tempDir();
  const storePath = path.join(dir, 'brick-work.sqlite');
  const store = await openStore(storePath);
  const service = options.service ?? serviceFor(store.db, storePath, options.overrides);
  const renderer = path.join(dir, 'renderer');
  fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>brick-work</title>');
  fs.writeFileSync(path.join(renderer, 'assets', 'app.js'), 'export {};');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');
  const logs: string[] = [];
  const server = await startHostServer({
    service,
    rendererDir: renderer,
    port: options.port,
    log: (line) => logs.push(line),
    ...(options.decoder ? { decoder: options.decoder } : {}),
    ...(options.bodyIdleMs !== undefined ? { bodyIdleMs: options.bodyIdleMs } : {}),
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
  };
  onTestFinished(async () => {
    await close();
    store.close();
  });
  return {
    url: server.url,
    port: server.port,
    token: server.token,
    logs,
    close,
    broadcast: server.broadcast.bind(server),
  };
}

export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: http.IncomingHttpHeaders;
}

/** One whole request over a connection of its own. */
export function request(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        // As a browser sends a body it has whole: with its length.
        headers:
          options.body === undefined
            ? options.headers
            : { 'Content-Length': String(Buffer.byteLength(options.body)), ...options.headers },
        agent: false,
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/**
 * A POST whose body the test sends as it likes (`req.write`, `req.end`, or never): `answer` settles when
 * the host has answered in full, even while the body is still being sent.
 */
export function upload(port: number, options: { path: string; headers: Record<string, string> }) {
  let answered = false;
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: options.path,
    method: 'POST',
    headers: options.headers,
    agent: false,
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  onTestFinished(() => {
    req.destroy();
  });
  return { req, answer, answered: () => answered };
}

/** The promise's value, or a rejection naming what did not come within `ms`. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Whether the promise is still unsettled after `ms`. */
export async function stillPending(ms: number, promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  const outcome = await Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((resolve) => setTimeout(() => resolve(pending), ms)),
  ]);
  return outcome === pending;
}
