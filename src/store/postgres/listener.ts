/**
 * Hears other desks' writes on a PostgreSQL store (SPEC §14, ADR 0027 §6): every write's statement
 * trigger calls `pg_notify('brick_work_changed')`, delivered at its commit; this keeps one connection
 * listening, on the caller's own event loop (it needs no answer in step with anything), and connects
 * again by itself after a fault, saying each time it could not.
 */
import pg from 'pg';
import { storeName } from '../../vocabulary/store-location.ts';
import { applicationName } from './application-name.ts';
import { givePassword } from './password.ts';

export const CHANGED_CHANNEL = 'brick_work_changed';

export interface Listening {
  /** Resolves when the first LISTEN is in place (tests wait for it; the app needs not). */
  readonly ready: Promise<void>;
  stop(): void;
}

export function listenForWrites(
  url: string,
  onNotice: () => void,
  options: { readonly log?: (line: string) => void; readonly retryMs?: number } = {},
): Listening {
  const retryMs = options.retryMs ?? 1_000;
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let said = false;
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((r) => (resolveReady = r));

  const again = () => {
    if (stopped || timer !== null) return;
    const c = client;
    client = null;
    void c?.end().catch(() => undefined);
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, retryMs);
    timer.unref();
  };

  const connect = () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, application_name: applicationName(), keepAlive: true });
    // The password the desk's own connection has (libpq's rules); a warning was said there.
    givePassword(url, c, process.env);
    client = c;
    c.on('notification', (n) => {
      if (n.channel === CHANGED_CHANNEL) onNotice();
    });
    c.on('error', again);
    c.on('end', again);
    c.connect()
      .then(() => c.query(`LISTEN ${CHANGED_CHANNEL}`))
      .then(() => {
        if (said) options.log?.(`listening again for other desks' writes on ${storeName(url)}`);
        said = false;
        resolveReady();
        // Whatever was written while nobody listened: said once now.
        onNotice();
      })
      .catch((e: unknown) => {
        if (!said)
          options.log?.(
            `can't listen for other desks' writes on ${storeName(url)} (${(e as Error).message}); trying again`,
          );
        said = true;
        again();
      });
  };
  connect();
  return {
    ready,
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      void client?.end().catch(() => undefined);
      client = null;
    },
  };
}
