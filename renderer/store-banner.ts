import type { StoreView } from '../src/api/contract.ts';

/** What a write's button says when pointed at on a store that can't be written (it is off there). */
export const READ_ONLY_TITLE = "This store can't be written: see the banner above";

/**
 * What the banner says when the store can't be written (SPEC §11): why, that reads work and changes
 * are refused, and when the screens show a private copy, that they do. Null on a writable store.
 */
export function readOnlyBanner(store: StoreView | null): string | null {
  if (!store?.readOnly) return null;
  if (store.readOnly.damaged === true)
    return (
      `Damaged: ${store.readOnly.reason}. brick-work writes nothing more to this store; you can look and export. ` +
      'To go on working, put back a copy from a backup, or ask for help before changing it.'
    );
  const copy = store.readOnly.snapshot
    ? ' You are looking at a private copy taken when brick-work started: changes made elsewhere since then do not show here.'
    : '';
  return (
    `Read only: this store can't be written — ${store.readOnly.reason}. You can look and export; changes are refused. ` +
    `To change it, ask whoever ${store.onServer ? "runs the shop's server" : 'manages this computer'} to make it writable, then start brick-work again.${copy}`
  );
}
