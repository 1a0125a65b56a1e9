/** The store itself: where it is, its schema, what its start did, whether it can be written. */
import { APP_VERSION } from '../../platform/version.ts';
import { isServerAddress, storeName } from '../../vocabulary/store-location.ts';
import { reads, type PartialCallTable } from './define.ts';

export const STORE_CALLS = {
  'store.info': reads((d) => () => ({
    // A server is named without its password: this goes to the screen.
    path: storeName(d.ctx.storePath),
    onServer: isServerAddress(d.ctx.storePath),
    schema: d.ctx.schema,
    appVersion: APP_VERSION,
    upgrade: d.ctx.upgrade,
    recovered: d.ctx.recovered.map((r) => ({ id: r.id, kind: r.kind })),
    readOnly: d.unwritable(),
  })),
} satisfies PartialCallTable;
