import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiEvents, EventName } from '../api/contract.ts';
import type { ApiService } from '../api/service.ts';
import type { DecodeThread } from './decode-client.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { EventStreams } from './events.ts';
import { requestListener } from './routes.ts';
import { newToken } from './token-and-origin.ts';
import { argumentReader, BODY_IDLE_MS } from './uploads.ts';

/**
 * The browser host (SPEC §1): the contract over HTTP on 127.0.0.1, serving the built renderer, so the
 * whole UI runs in any browser. Every call and the event stream need this start's random token, in an
 * `Authorization: Bearer` header; the page gets it from the fragment of the URL the host prints
 * (`/#token=…`), which browsers never send, and keeps it for its tab — no cookie ever holds it (SPEC §11).
 * The page and its files are served without it. A request whose Host or Origin is not this server's own
 * is refused (no DNS rebinding, no other site calling in). Events reach the page as server-sent events.
 *
 * Its rooms: the token and the Host/Origin checks (`token-and-origin.ts`), the bodies read within their
 * limits and big ones decoded on the decoding thread (`uploads.ts`), the event streams (`events.ts`),
 * the calls and the page's files (`routes.ts`); this module only wires them to one server.
 */
export interface HostServerOptions {
  readonly service: ApiService;
  /** The built renderer (vite's output): index.html and assets/. */
  readonly rendererDir: string;
  readonly port?: number;
  readonly log?: (line: string) => void;
  /** Decodes big bodies off the thread that answers the screens (SPEC §11); without it they are decoded here. */
  readonly decoder?: DecodeThread;
  /** How long a request body may stop coming before its connection is dropped (default BODY_IDLE_MS). */
  readonly bodyIdleMs?: number;
}

export interface HostServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  broadcast<E extends EventName>(name: E, payload: ApiEvents[E]): void;
  close(): Promise<void>;
}

export async function startHostServer(options: HostServerOptions): Promise<HostServer> {
  const token = newToken();
  let port = 0;
  const log = options.log ?? (() => {});
  const events = new EventStreams(log);
  const readArguments = argumentReader({
    ...(options.decoder === undefined ? {} : { decoder: options.decoder }),
    bodyIdleMs: options.bodyIdleMs ?? BODY_IDLE_MS,
    log,
  });
  const server = http.createServer(
    requestListener({
      service: options.service,
      rendererDir: options.rendererDir,
      token,
      port: () => port,
      events,
      readArguments,
      log,
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(listenRefusal(e, options.port ?? 0)));
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  events.startKeepAlive();

  return {
    // The token in the fragment: the browser keeps it to the page and never sends it to any server.
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    broadcast: (name, payload) => events.broadcast(name, payload),
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Why the host could not listen on its port, in words: the port taken, or not ours to take. */
function listenRefusal(e: NodeJS.ErrnoException, port: number): Error {
  if (e.code === 'EADDRINUSE')
    return new BrickWorkError(
      'busy',
      `port ${port} on 127.0.0.1 is already in use by another program; choose another with --port, or leave --port out for any free one`,
    );
  if (e.code === 'EACCES')
    return new BrickWorkError(
      'not-allowed',
      `port ${port} may not be used by this user (ports below 1024 are the system's); choose one from 1024 to 65535`,
    );
  return e;
}
