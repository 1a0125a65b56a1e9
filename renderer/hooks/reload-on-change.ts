import { useEffect } from 'react';
import { useApp } from '../state/app.ts';

/**
 * Runs `reload` when the screen shows, and again whenever the store changes (`store.changed`: a write
 * here, the CLI, another process) — the one way every screen keeps what it shows fresh.
 */
export function useReloadOnChange(reload: () => unknown): void {
  const revision = useApp((s) => s.revision);
  useEffect(() => void reload(), [reload, revision]);
}
