import type { PicturesStatusView } from '../src/api/contract.ts';
import { count } from './format.ts';

/** What the pictures card says of the cache and of this start's fetching, refusals with the last one's why. */
export function picturesStatusWords(s: PicturesStatusView): string {
  const kept = `${count(s.cached)} picture${s.cached === 1 ? '' : 's'} kept (${(s.bytes / 1_000_000).toFixed(1)} MB); this start fetched ${count(s.fetched)}, ${count(s.failed)} failed, ${count(s.waiting)} on their way.`;
  return s.refused === 0 ? kept : `${kept} ${count(s.refused)} refused (the last: ${s.lastRefused ?? 'no reason'}).`;
}

/** Where the pictures are kept in memory for this start (the cache's path holds something else), why; else null. */
export function picturesInMemoryWords(s: PicturesStatusView): string | null {
  return s.inMemory === null ? null : `Pictures are kept in memory for this start: ${s.inMemory}.`;
}
