import type http from 'node:http';

/**
 * A body answered before it was read whole: what the client still sends is thrown away, never kept, for
 * this long, so that a browser still sending reads the answer rather than a reset connection; then
 * the connection is closed.
 */
const LINGER_MS = 2000;

/** A refusal in plain words (never a stack), not to be cached. */
export function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`brick-work: ${message}\n`);
}

/** Answers before the body is read (whole): the rest is discarded as it comes, then the connection closed. */
export function refuseUnread(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  message: string,
): void {
  // Node closes a connection whose request it has not read once the answer is written: a client still
  // sending then meets a reset (EPIPE), often before it has read the answer. Kept open, the rest is
  // discarded as it comes (below) until the body ends, or LINGER_MS passes.
  res.shouldKeepAlive = true;
  refuse(res, status, message);
  res.once('finish', () => {
    if (req.complete) return;
    req.resume();
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
  });
}
