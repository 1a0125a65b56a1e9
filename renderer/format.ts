/**
 * Numbers as staff read them (SPEC §9): thousands separators, money in the order's currency with two
 * decimals unless the value has more. In the desktop's own locale.
 */
const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function count(n: number): string {
  return counts.format(n);
}

/** `value` is the exact decimal text the core sends ("14.8331"); shown with as many decimals as it has, at least two. */
export function money(value: string, currency: string | null): string {
  const decimals = Math.max(2, (value.split('.')[1] ?? '').replace(/0+$/, '').length);
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  try {
    return new Intl.NumberFormat(undefined, {
      ...(currency ? { style: 'currency', currency } : {}),
      minimumFractionDigits: 2,
      maximumFractionDigits: decimals,
    }).format(n);
  } catch {
    // A currency code Intl does not know: the number, then the code.
    return `${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: decimals }).format(n)} ${currency ?? ''}`.trim();
  }
}

/** How many decimals a currency is written with (USD 2, JPY 0, KWD 3); 2 for none or one Intl does not know. */
export function currencyDigits(currency: string | null): number {
  if (!currency) return 2;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * `value` (exact decimal text, "26.4969") rounded half-even to `digits` decimals, as exact decimal text:
 * for the eye only — what is stored and exported keeps every digit.
 */
export function roundHalfEven(value: string, digits: number): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (m === null) return value;
  const [, sign = '', whole = '', fraction = ''] = m;
  const kept = fraction.slice(0, digits).padEnd(digits, '0');
  const dropped = fraction.slice(digits);
  let n = BigInt(`${whole || '0'}${kept}`);
  const first = dropped.charCodeAt(0) - 48;
  const beyond = /[1-9]/.test(dropped.slice(1));
  // Up when past the half, or at exactly the half with an odd last kept digit.
  if (first > 5 || (first === 5 && (beyond || n % 2n === 1n))) n += 1n;
  const text = n.toString().padStart(digits + 1, '0');
  const out = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return n === 0n ? out : `${sign}${out}`;
}

/** A total (an order's value): in its currency's digits, rounded half-even for the eye (SPEC §9, issue 47). */
export function moneyTotal(value: string, currency: string | null): string {
  const digits = currencyDigits(currency);
  const rounded = roundHalfEven(value, digits);
  const n = Number(rounded);
  if (!Number.isFinite(n)) return value;
  const exact = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  try {
    return new Intl.NumberFormat(undefined, { ...(currency ? { style: 'currency', currency } : {}), ...exact }).format(
      n,
    );
  } catch {
    return `${new Intl.NumberFormat(undefined, exact).format(n)} ${currency ?? ''}`.trim();
  }
}

/** A time stamp (ISO, UTC) in the desktop's own time: "2 Dec 2026, 09:14". */
export function when(iso: string | null): string {
  if (iso === null) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "1 line", "3 lines". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}
