import { quote } from '../../vocabulary/errors.ts';
import { parseError } from '../../text/position.ts';

/** Field checks shared by the catalogue formats: each names the file and the line of a bad value. */
export function requiredText(value: string | undefined, what: string, file: string, line: number): string {
  const v = value?.trim() ?? '';
  if (v === '') throw parseError(file, `line ${line}: the ${what} is empty`);
  return v;
}

export function optionalId(value: string | undefined, what: string, file: string, line: number): number | null {
  const v = value?.trim() ?? '';
  if (v === '') return null;
  if (!/^-?\d{1,9}$/.test(v)) throw parseError(file, `line ${line}: the ${what} "${quote(v)}" is not a whole number`);
  return Number(v);
}

export function requiredId(value: string | undefined, what: string, file: string, line: number): number {
  const id = optionalId(value, what, file, line);
  if (id === null) throw parseError(file, `line ${line}: the ${what} is empty`);
  return id;
}
