import { useState } from 'react';
import type { SettingsView } from '../../../src/api/contract.ts';
import { useSettings } from '../../state/settings.ts';

const NONE = { consumerKey: '', consumerSecret: '', token: '', tokenSecret: '' };
const FIELDS = [
  ['consumerKey', 'Consumer key'],
  ['consumerSecret', 'Consumer secret'],
  ['token', 'Token'],
  ['tokenSecret', 'Token secret'],
] as const;

/** The shop's four BrickLink API credentials: stored encrypted in the app, in memory in the browser host. */
export function CredentialsCard({ settings: s }: { settings: SettingsView | null }) {
  const setCredentials = useSettings((st) => st.setCredentials);
  const reload = useSettings((st) => st.reload);
  const [creds, setCreds] = useState(NONE);
  return (
    <div className="card">
      <h3>BrickLink credentials</h3>
      {s?.credentialsRefused ? <KeychainRefused why={s.credentialsRefused} onTryAgain={() => void reload()} /> : null}
      <p>
        {s?.credentialsRefused
          ? 'Credentials are stored, but could not be read'
          : s?.credentialsStored
            ? 'Credentials are stored'
            : 'No credentials yet'}
        {s
          ? s.credentialsEncrypted
            ? ', encrypted by the operating system.'
            : '; this browser host keeps them in memory only, until it stops.'
          : ''}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void setCredentials(creds).then((ok) => ok && setCreds(NONE));
        }}
      >
        {FIELDS.map(([k, label]) => (
          <label key={k} className="field">
            <span>{label}</span>
            <input
              type="password"
              autoComplete="off"
              value={creds[k]}
              onChange={(e) => setCreds({ ...creds, [k]: e.target.value })}
              aria-label={label}
            />
          </label>
        ))}
        <button type="submit">Store the credentials</button>
      </form>
    </div>
  );
}

/**
 * The keychain kept back a stored secret (issue 44): said as it is, never as "nothing stored", with the
 * way out — Try again reads the keychain again (and the system asks again).
 */
export function KeychainRefused({ why, onTryAgain }: { why: string; onTryAgain: () => void }) {
  return (
    <div className="warning" role="alert" data-testid="keychain-refused">
      <p>{why}</p>
      <button type="button" onClick={onTryAgain}>
        Try again
      </button>
    </div>
  );
}
