/**
 * Every call of the contract, by domain, each with its traits beside its handler (`define.ts`). The lists
 * the app's dispatch needs — which calls write, which thread runs each — are read from here.
 */
import type { CallName } from '../contract.ts';
import { CATALOGUE_CALLS } from './catalogue.ts';
import { COMPARE_CALLS } from './compare.ts';
import type { CallTable, Thread } from './define.ts';
import { DOCUMENTS_CALLS } from './documents.ts';
import { DESK_CALLS } from './desk.ts';
import { HISTORY_CALLS } from './history.ts';
import { JOBS_CALLS } from './jobs.ts';
import { ORDERS_CALLS } from './orders.ts';
import { PICK_CALLS } from './pick.ts';
import { PICTURES_CALLS } from './pictures.ts';
import { PUT_AWAY_CALLS } from './put-away.ts';
import { SETTINGS_CALLS } from './settings.ts';
import { SHOP_SERVER_CALLS } from './shop-server.ts';
import { STOCK_CALLS } from './stock.ts';
import { STORE_CALLS } from './store.ts';

/** The typed command map: every call once (the compiler says when one is missing). */
export const CALL_TABLE: CallTable = {
  ...STORE_CALLS,
  ...ORDERS_CALLS,
  ...CATALOGUE_CALLS,
  ...JOBS_CALLS,
  ...DOCUMENTS_CALLS,
  ...HISTORY_CALLS,
  ...DESK_CALLS,
  ...SETTINGS_CALLS,
  ...SHOP_SERVER_CALLS,
  ...COMPARE_CALLS,
  ...PICTURES_CALLS,
  ...STOCK_CALLS,
  ...PICK_CALLS,
  ...PUT_AWAY_CALLS,
};

/** The calls that write to the store (or start a job that does): refused up front on a store that can't be written. */
export const WRITING_CALLS: ReadonlySet<CallName> = new Set(
  (Object.keys(CALL_TABLE) as CallName[]).filter((name) => CALL_TABLE[name].writes),
);

/**
 * Which thread runs a call in the app and the browser host (SPEC §11: the thread that answers the screens
 * never writes, nor waits for the write lock): writes on the writer thread, in turn; a file's preview and a
 * compare on the reader thread (never the writer's: issue 62); suggestions on the suggestion thread, which
 * holds the index; reads on the main thread.
 */
export function threadOf(name: CallName): Thread {
  return CALL_TABLE[name].thread;
}

/** Whether a call reads the desk's BrickLink credentials (so its thread must have them as they are now). */
export function readsCredentials(name: CallName): boolean {
  return CALL_TABLE[name].readsCredentials === true;
}
