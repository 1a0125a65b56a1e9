import { useState } from 'react';
import type { ShopServerView } from '../../../src/api/contract.ts';
import { useSettings } from '../../state/settings.ts';
import { KeychainRefused } from './CredentialsCard.tsx';

const EMPTY = { host: '', port: '5432', database: 'brick_work', user: '', password: '' };
const FIELDS = [
  ['host', 'Server', 'text'],
  ['port', 'Port', 'text'],
  ['database', 'Database', 'text'],
  ['user', 'User', 'text'],
  ['password', 'Password', 'password'],
] as const;

/**
 * Settings → Shop server (SPEC §14): which store this desk opens at its start — the computer's own file,
 * or the shop's store on a PostgreSQL server shared by every desk. The server is checked before it is
 * kept; its password is kept like the BrickLink credentials and never shown again.
 */
export function ShopServerCard({ view }: { view: ShopServerView | null }) {
  const choose = useSettings((s) => s.chooseShopServer);
  const forget = useSettings((s) => s.forgetShopServer);
  const reload = useSettings((s) => s.reload);
  const [form, setForm] = useState(EMPTY);
  const [checking, setChecking] = useState(false);
  if (view === null) return null;
  const port = Number(form.port);
  return (
    <div className="card">
      <h3>Shop server</h3>
      <p>
        {view.inUse.kind === 'server'
          ? `This desk works on the shop’s store on ${view.inUse.name}, with every other desk that opens it.`
          : `This desk works on its own store file (${view.inUse.name}).`}
      </p>
      {view.refused !== null ? <KeychainRefused why={view.refused} onTryAgain={() => void reload()} /> : null}
      {view.chosen ? (
        <p>
          From the next start: the store on{' '}
          <strong>
            {view.chosen.host}:{view.chosen.port}/{view.chosen.database}
          </strong>{' '}
          as {view.chosen.user}.{' '}
          <button type="button" onClick={() => void forget()}>
            Use this computer’s file instead
          </button>
        </p>
      ) : null}
      {view.canChoose ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setChecking(true);
            void choose({ ...form, port })
              .then((ok) => ok && setForm(EMPTY))
              .finally(() => setChecking(false));
          }}
        >
          {FIELDS.map(([k, label, type]) => (
            <label key={k} className="field">
              <span>{label}</span>
              <input
                type={type}
                autoComplete="off"
                value={form[k]}
                onChange={(e) => setForm({ ...form, [k]: e.target.value })}
                aria-label={`Shop server ${label.toLowerCase()}`}
              />
            </label>
          ))}
          <button
            type="submit"
            disabled={checking || !Number.isInteger(port) || port < 1 || port > 65_535 || form.host.trim() === ''}
          >
            {checking ? 'Checking the server…' : 'Check and use from the next start'}
          </button>
          <p className="hint">
            {view.encrypted
              ? 'The password is stored encrypted by the operating system.'
              : 'This host keeps the password in memory only, until it stops.'}
          </p>
        </form>
      ) : (
        <p className="hint">{view.note}</p>
      )}
    </div>
  );
}
