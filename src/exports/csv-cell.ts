/**
 * One CSV cell: quoted when it holds a delimiter, a quote or a line break; a text that a spreadsheet
 * would run as a formula (= + - @, or a leading tab or carriage return) is escaped with a leading '.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
