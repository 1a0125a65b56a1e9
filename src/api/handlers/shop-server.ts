/**
 * Settings → Shop server (SPEC §14): which store a desk opens at its start — its own file, or the
 * shop's store on a PostgreSQL server. A server is checked before it is kept (it must answer, and be a
 * brick-work store or an empty database that becomes one), so a desk never starts on a wrong one.
 */
import type { ShopServerView } from '../contract.ts';
import type { ShopServerConfig, ShopServerPort } from '../ports.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { isServerAddress, serverUrl, storeName } from '../../vocabulary/store-location.ts';
import { openStore } from '../../store/open.ts';
import { type ReadDeps, outsideStore, type PartialCallTable } from './define.ts';

const NOT_HERE =
  'This desk’s store is given when it starts (the browser host’s or the command line’s --db, or BRICK_WORK_DB): ' +
  'start it with --db postgres://user@host:port/database to work on a shop server.';

function view(d: ReadDeps, note: string | null = null): ShopServerView {
  const port = d.ctx.shopServer ?? null;
  let chosen: ShopServerConfig | null = null;
  let refused: string | null = null;
  try {
    chosen = port?.get() ?? null;
  } catch (e) {
    if (!(e instanceof BrickWorkError && e.code === 'keychain-refused')) throw e;
    refused = e.message;
  }
  const path = d.ctx.storePath;
  return {
    inUse: { kind: isServerAddress(path) ? 'server' : 'file', name: storeName(path) },
    chosen: chosen && { host: chosen.host, port: chosen.port, database: chosen.database, user: chosen.user },
    encrypted: port?.encrypted ?? false,
    canChoose: port !== null,
    refused,
    // Where no choice can be made here, what to do instead.
    note: note ?? (port === null ? NOT_HERE : null),
  };
}

function portOf(d: ReadDeps): ShopServerPort {
  const port = d.ctx.shopServer ?? null;
  if (port === null) throw new BrickWorkError('not-allowed', NOT_HERE);
  return port;
}

export const SHOP_SERVER_CALLS = {
  'shopServer.get': outsideStore((d) => () => view(d)),
  'shopServer.choose': outsideStore((d) => async (config) => {
    const port = portOf(d);
    const empty = (['host', 'database', 'user'] as const).filter((k) => config[k].trim() === '');
    if (empty.length > 0) {
      throw new BrickWorkError(
        'invalid-argument',
        `Enter the shop server’s ${empty.join(', the ')}: ${empty.length === 1 ? 'it is' : 'they are'} empty.`,
      );
    }
    const chosen = { ...config, host: config.host.trim(), database: config.database.trim(), user: config.user.trim() };
    // Opened once as the next start will: a store is made in an empty database, anything else is refused here.
    const store = await openStore(serverUrl(chosen));
    const unwritable = store.unwritable;
    store.close();
    port.set(chosen);
    // A login that may only read is kept too (a desk that only looks), and told so now rather than at the start.
    const reading = unwritable === null ? '' : ` It can only be read from this desk: ${unwritable}.`;
    return view(
      d,
      `brick-work opens the store on ${storeName(serverUrl(chosen))} from its next start: close it and open it again to work there.${reading}`,
    );
  }),
  'shopServer.forget': outsideStore((d) => () => {
    portOf(d).clear();
    return view(d, 'brick-work opens this computer’s own store file from its next start.');
  }),
} satisfies PartialCallTable;
