export function ProgressBar({ done, total, label }: { done: number; total: number | null; label: string }) {
  const pct = total ? Math.min(100, Math.round((100 * done) / total)) : null;
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuenow={pct ?? undefined} aria-valuemin={0} aria-valuemax={100}>
      <div className="progress-fill" style={{ width: `${pct ?? 100}%` }} data-indeterminate={pct === null} />
      <span className="progress-text">
        {label}: {done.toLocaleString()}
        {total ? ` of ${total.toLocaleString()} (${pct}%)` : ''}
      </span>
    </div>
  );
}
