/**
 * A loopback TCP proxy in front of a real PostgreSQL server that makes it say it is another version: the
 * server's answers are read message by message (type byte, length, body) and the version in a row or a
 * parameter status is replaced. Only one PostgreSQL is installed here; this is how a test meets an old one.
 * A process of its own (`test/helpers/pg-version-proxy.ts` starts it): the store's bridge blocks the
 * thread that calls it, so a proxy on the test's own thread would never answer.
 *
 *   node --import tsx pg-version-proxy.ts TARGET_PORT '[["150018","120017"], …]'   → prints "port N"
 */
import net from 'node:net';

const target = Number(process.argv[2]);
const replace = new Map(JSON.parse(process.argv[3] ?? '[]') as [string, string][]);
{
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const out: Buffer[] = [];
      while (pending.length >= 5) {
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        out.push(rewritten(pending.subarray(0, 1 + length), replace));
        pending = pending.subarray(1 + length);
      }
      if (out.length > 0) client.write(Buffer.concat(out));
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  server.listen(0, '127.0.0.1', () => console.log(`port ${(server.address() as net.AddressInfo).port}`));
  process.stdin.on('end', () => {
    for (const s of sockets) s.destroy();
    server.close(() => process.exit(0));
  });
  process.stdin.resume();
}

/** A DataRow ('D') or ParameterStatus ('S') message with its values replaced; any other unchanged. */
function rewritten(message: Buffer, replace: ReadonlyMap<string, string>): Buffer {
  const type = String.fromCharCode(message[0] ?? 0);
  if (type === 'S') {
    const [name = '', value = ''] = message
      .subarray(5, message.length - 1)
      .toString('utf8')
      .split('\0');
    const body = Buffer.from(`${name}\0${replace.get(value) ?? value}\0`, 'utf8');
    return frame('S', [body]);
  }
  if (type !== 'D') return message;
  const columns = message.readInt16BE(5);
  const parts: Buffer[] = [message.subarray(5, 7)];
  let at = 7;
  for (let i = 0; i < columns; i++) {
    const length = message.readInt32BE(at);
    if (length < 0) {
      parts.push(message.subarray(at, at + 4));
      at += 4;
      continue;
    }
    const value = message.subarray(at + 4, at + 4 + length).toString('utf8');
    const now = Buffer.from(replace.get(value) ?? value, 'utf8');
    const head = Buffer.alloc(4);
    head.writeInt32BE(now.length);
    parts.push(head, now);
    at += 4 + length;
  }
  return frame('D', parts);
}

function frame(type: string, body: readonly Buffer[]): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(4 + body.reduce((n, b) => n + b.length, 0), 1);
  return Buffer.concat([head, ...body]);
}
