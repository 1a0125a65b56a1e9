import type http from 'node:http';
import type { ApiEvents, EventName } from '../api/contract.ts';

/** An event-stream client that has this much not yet taken is not reading: it is dropped. */
const EVENT_BACKLOG_LIMIT = 1024 * 1024;
/** How often each client is sent a comment, so that nothing between closes a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/** The pages' event streams (server-sent events): each event to every page that reads. */
export class EventStreams {
  private readonly clients = new Set<http.ServerResponse>();
  private keepAlive: NodeJS.Timeout | null = null;

  constructor(private readonly log: (line: string) => void) {}

  /** Answers `GET /api/events` with a stream that stays open until the page leaves. */
  open(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': brick-work events\n\n');
    this.clients.add(res);
    req.on('close', () => this.clients.delete(res));
  }

  /** Starts the keep-alive comments (once the server listens). */
  startKeepAlive(): void {
    this.keepAlive = setInterval(() => {
      for (const c of this.clients) c.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  broadcast<E extends EventName>(name: E, payload: ApiEvents[E]): void {
    const data = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const c of this.clients) {
      // A client that does not read is dropped, never buffered without end (SPEC §11).
      if (c.writableLength > EVENT_BACKLOG_LIMIT) {
        this.clients.delete(c);
        c.destroy();
        this.log('host: an event-stream client that did not read its events was dropped');
      } else c.write(data);
    }
  }

  /** Ends every stream and the keep-alives. */
  close(): void {
    if (this.keepAlive !== null) clearInterval(this.keepAlive);
    for (const c of this.clients) c.end();
  }
}
