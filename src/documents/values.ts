import { quote } from '../vocabulary/errors.ts';
import { parseError } from '../text/position.ts';

/**
 * The longest text each document field may hold (SPEC §11), in UTF-16 code units. Real values are far
 * shorter; the caps keep a damaged or hostile file from filling the store (a 19 MB ItemID once doubled it).
 */
export const FIELD_LIMITS = {
  type: { what: 'item type', max: 20 },
  no: { what: 'item number', max: 40 },
  name: { what: 'item name', max: 300 },
  colourName: { what: 'colour name', max: 100 },
  remarks: { what: 'remarks', max: 2_000 },
  reference: { what: 'order reference', max: 100 },
  counterparty: { what: 'counterparty', max: 200 },
  currency: { what: 'currency', max: 3 },
  lotId: { what: 'lot id', max: 40 },
  kept: { what: 'chosen column', max: 2_000 },
} as const;

export type LimitedField = keyof typeof FIELD_LIMITS;

function where(file: string, line: number | null, problem: string) {
  return parseError(file, line === null ? problem : `line ${line}: ${problem}`);
}

/** `text` as it is, or a refusal naming the file, the line, the field and its limit when it is too long. */
export function limited(text: string | null, field: LimitedField, file: string, line: number | null): string | null {
  const { what, max } = FIELD_LIMITS[field];
  if (text === null || text.length <= max) return text;
  throw where(
    file,
    line,
    `the ${what} field holds ${text.length.toLocaleString('en-US')} characters; brick-work takes at most ${max.toLocaleString('en-US')} there ("${quote(text)}")`,
  );
}

/**
 * Values of document lines, checked as SPEC §8 says: money exact (up to 4 decimal places, kept as
 * ten-thousandths, never a float); quantities whole and ≥ 0; each refusal names the file and line.
 */
export function parseMoneyE4(
  text: string | null | undefined,
  file: string,
  line: number,
  decimalComma = false,
): number | null {
  const raw = (text ?? '').trim();
  if (raw === '') return null;
  const normal = decimalComma ? raw.replace(/\./g, '').replace(',', '.') : raw.replace(/,(?=\d{3}(\D|$))/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(normal);
  if (!m) {
    if (/^-/.test(normal)) throw parseError(file, `line ${line}: the price ${quote(raw)} is negative`);
    throw parseError(file, `line ${line}: the price "${quote(raw)}" is not a number`);
  }
  const whole = m[1] ?? '0';
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 4)
    throw parseError(file, `line ${line}: the price ${quote(raw)} has more than 4 decimal places`);
  const e4 = Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
  if (!Number.isSafeInteger(e4) || whole.length > 11)
    throw parseError(file, `line ${line}: the price ${quote(raw)} is too large`);
  return e4;
}

/** Ten-thousandths back to a decimal string with at least 2 and at most 4 decimal places. */
export function formatMoneyE4(e4: number): string {
  const negative = e4 < 0;
  const abs = Math.abs(e4);
  const whole = Math.floor(abs / 10_000);
  let fraction = String(abs % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** A whole quantity ≥ 0; BrickLink's thousands comma ("1,752") is accepted. Missing means 1 only where the format says so. */
export function parseQuantity(
  text: string | null | undefined,
  file: string,
  line: number,
  fallback: number | null = null,
): number {
  const raw = (text ?? '').trim();
  if (raw === '') {
    if (fallback !== null) return fallback;
    throw parseError(file, `line ${line}: the quantity is missing`);
  }
  const normal = /^\d{1,3}(,\d{3})+$/.test(raw) ? raw.replace(/,/g, '') : raw;
  if (/^-\s*\d/.test(normal)) {
    throw parseError(
      file,
      `line ${line}: the quantity ${quote(raw)} is negative; quantities are whole numbers of 0 or more`,
    );
  }
  if (/^\d*[.,]\d+$/.test(normal) && !/^\d+[.,]0+$/.test(normal)) {
    throw parseError(file, `line ${line}: the quantity ${quote(raw)} is not a whole number`);
  }
  const m = /^(\d+)(?:[.,]0+)?$/.exec(normal);
  if (!m) throw parseError(file, `line ${line}: the quantity "${quote(raw)}" is not a whole number`);
  // The store keeps quantities of up to 9 digits; a longer number is whole, just too large.
  const digits = (m[1] ?? '').replace(/^0+(?=\d)/, '');
  if (digits.length > 9)
    throw parseError(file, `line ${line}: the quantity ${quote(raw)} is too large (at most 999,999,999)`);
  return Number(digits);
}

export function parseCondition(text: string | null | undefined, file: string, line: number): 'N' | 'U' | null {
  const raw = (text ?? '').trim().toUpperCase();
  if (raw === '') return null;
  if (raw === 'N' || raw === 'NEW') return 'N';
  if (raw === 'U' || raw === 'USED') return 'U';
  throw parseError(file, `line ${line}: the condition "${quote(text ?? '')}" is neither N (new) nor U (used)`);
}

/** A three-letter currency code; `line` is where the document gives it (null when unknown). */
export function parseCurrency(text: string | null | undefined, file: string, line: number | null): string | null {
  const raw = (text ?? '').trim().toUpperCase();
  if (raw === '') return null;
  if (raw.length !== FIELD_LIMITS.currency.max || !/^[A-Z]{3}$/.test(raw)) {
    throw where(file, line, `the currency "${quote(text ?? '')}" is not a three-letter code`);
  }
  return raw;
}

/** An id given as text: a whole number, or null when empty. */
export function parseOptionalId(
  text: string | null | undefined,
  what: string,
  file: string,
  line: number,
): number | null {
  const raw = (text ?? '').trim();
  if (raw === '') return null;
  if (!/^\d{1,9}$/.test(raw)) throw parseError(file, `line ${line}: the ${what} "${quote(raw)}" is not a whole number`);
  return Number(raw);
}

export function textOrNull(text: string | null | undefined): string | null {
  const t = (text ?? '').trim();
  return t === '' ? null : t;
}

/** BrickLink's M/d/yyyy (e.g. 7/22/2012) as yyyy-mm-dd; a time after it is ignored. */
export function parseUsDate(text: string | null | undefined, file: string, line: number | null = null): string | null {
  const raw = (text ?? '').trim();
  if (raw === '') return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(raw);
  if (!m) throw where(file, line, `the order date "${quote(raw)}" is not a BrickLink date (M/d/yyyy)`);
  const [month, day] = [Number(m[1]), Number(m[2])];
  if (month < 1 || month > 12 || day < 1 || day > 31)
    throw where(file, line, `the order date "${quote(raw)}" is not a real date`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
