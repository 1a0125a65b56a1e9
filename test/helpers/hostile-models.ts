/**
 * Models that are small files and large work (issue 62 §1), made by the tests as the probe made
 * them: Studio files whose directory would unfold to gigabytes.
 */
import { zipFile } from './zip.ts';

/** A type-1 line: `file` in `colour`, where it stands being no part of the count. */
export const use = (colour: number | string, name: string) => `1 ${colour} 0 0 0 1 0 0 0 1 0 0 0 1 ${name}`;

/** A model of two plain parts: what a hostile archive carries beside its trap. */
const SMALL_MODEL = [use(4, '3001.dat'), use(1, '3003.dat')].join('\r\n');

/** `model.ldr` and four empty entries each named with 32,767 `x/` (525 kB): a folder for each of its prefixes. */
export function slashNamesIo(): Uint8Array {
  return zipFile([
    { name: 'model.ldr', data: SMALL_MODEL },
    ...['a', 'b', 'c', 'd'].map((c) => ({ name: `${c}/`.repeat(32_767), data: '' })),
  ]);
}

/** A Studio file of `n` empty entries beside its model. */
export function manyEntriesIo(n: number): Uint8Array {
  return zipFile([
    { name: 'model.ldr', data: SMALL_MODEL },
    ...Array.from({ length: n - 1 }, (_, i) => ({ name: `CustomParts/p${i}.dat`, data: '' })),
  ]);
}
