import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import type { ErrorValue } from '../errors.ts';

/** What the main thread asks of the runner thread. */
export type HostMessage =
  | { type: 'catalogue-load'; files: { name: string; content: Uint8Array }[]; itemType: string }
  | { type: 'lookup'; jobId: number; limit: number | null; credentials: Credentials; apiUrl: string }
  | { type: 'credentials'; credentials: Credentials; apiUrl: string }
  | { type: 'wake' }
  | { type: 'stop' };

/** What the runner thread tells the main thread. */
export type ThreadMessage =
  | { type: 'ready' }
  | { type: 'progress'; kind: string; done: number; total: number | null; state: string }
  | { type: 'finished'; kind: string; error: ErrorValue | null; summary: string | null }
  | { type: 'changed'; reason: string }
  | { type: 'log'; line: string };
