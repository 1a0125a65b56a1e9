/**
 * Models that are small files and large work (issue 62 §1), made by the tests as the probe made
 * them: Studio files whose directory or model would unfold to gigabytes, and a model of more lines than a
 * document may have.
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

/** An MPD whose main model uses `sub.ldr` in each of `colours` (once each, `times` over), `sub.ldr` holding `parts` distinct parts in colour 16. */
export function submodelMpd(parts: number, colours: readonly number[], times = 1): string {
  return [
    '0 FILE main.ldr',
    ...Array.from({ length: times }, () => colours.map((c) => use(c, 'sub.ldr'))).flat(),
    '0 NOFILE',
    '0 FILE sub.ldr',
    ...Array.from({ length: parts }, (_, i) => use(16, `p${i}.dat`)),
    '0 NOFILE',
    '',
  ].join('\r\n');
}

/** A Studio file holding `model` as its model.ldr. */
export const studioFile = (model: string): Uint8Array => zipFile([{ name: 'model.ldr', data: model }]);

/** A plain model of `n` distinct parts, one line each (480,000 of them are 19 MB). */
export function distinctPartsLdr(n: number): string {
  return Array.from({ length: n }, (_, i) => use(4, `${i}.dat`)).join('\n');
}
