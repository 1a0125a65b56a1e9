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
