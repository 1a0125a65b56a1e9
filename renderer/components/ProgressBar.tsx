import { count } from '../format.ts';

/** Progress of long work, in words: "Loading the catalogue: 12,000 of 61,770 (19%)"; without a label, the numbers alone. */
export function ProgressBar({
  done,
  total,
  label,
  unit = '',
}: {
  done: number;
  total: number | null;
  label: string;
  unit?: string;
}) {
  const pct = total ? Math.min(100, Math.round((100 * done) / total)) : null;
  const numbers = total
    ? `${count(done)} of ${count(total)}${unit ? ` ${unit}` : ''} (${pct}%)`
    : done > 0
      ? `${count(done)}${unit ? ` ${unit}` : ''}`
      : 'starting…';
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label || 'Progress'}
      aria-valuenow={pct ?? undefined}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="progress-fill" style={{ width: `${pct ?? 100}%` }} data-indeterminate={pct === null} />
      <span className="progress-text">{label ? `${label}: ${numbers}` : numbers}</span>
    </div>
  );
}
