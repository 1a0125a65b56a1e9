import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSettings } from '../state/settings.ts';
import { useReloadOnChange } from '../hooks/reload-on-change.ts';

/** One setting: Enter saves it, as the Save button does. */
function Field({ label, value, onSave }: { label: string; value: string; onSave(v: string): void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <form
      className="field"
      onSubmit={(e) => {
        e.preventDefault();
        if (text !== value) onSave(text);
      }}
    >
      <label htmlFor={`setting-${label}`}>
        <span>{label}</span>
      </label>
      <input id={`setting-${label}`} value={text} onChange={(e) => setText(e.target.value)} aria-label={label} />
      <button type="submit" disabled={text === value}>
        Save
      </button>
    </form>
  );
}

export function Settings() {
  const st = useSettings(
    useShallow((s) => ({
      settings: s.settings,
      placements: s.placements,
      reload: s.reload,
      set: s.set,
      setCredentials: s.setCredentials,
      forget: s.forget,
    })),
  );
  const [creds, setCreds] = useState({ consumerKey: '', consumerSecret: '', token: '', tokenSecret: '' });
  const reload = st.reload;
  useReloadOnChange(reload);
  const s = st.settings;
  return (
    <section className="screen" aria-label="Settings">
      <div className="toolbar">
        <h2>Settings</h2>
      </div>
      <div className="cards">
        <div className="card">
          <h3>Shop</h3>
          {s ? (
            <>
              <Field
                label="Currency of documents that name none"
                value={s.currency}
                onSave={(v) => void st.set('currency', v)}
              />
              <Field
                label="BrickLink calls per day"
                value={s.dailyCallLimit}
                onSave={(v) => void st.set('daily-call-limit', v)}
              />
              <Field label="BrickLink API address" value={s.apiUrl} onSave={(v) => void st.set('api-url', v)} />
            </>
          ) : null}
        </div>
        <div className="card">
          <h3>BrickLink credentials</h3>
          <p>
            {s?.credentialsStored ? 'Credentials are stored' : 'No credentials yet'}
            {s
              ? s.credentialsEncrypted
                ? ', encrypted by the operating system.'
                : '; this browser host keeps them in memory only, until it stops.'
              : ''}
          </p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void st
                .setCredentials(creds)
                .then((ok) => ok && setCreds({ consumerKey: '', consumerSecret: '', token: '', tokenSecret: '' }));
            }}
          >
            {(
              [
                ['consumerKey', 'Consumer key'],
                ['consumerSecret', 'Consumer secret'],
                ['token', 'Token'],
                ['tokenSecret', 'Token secret'],
              ] as const
            ).map(([k, label]) => (
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
      </div>
      <h3>Remembered hand placements</h3>
      <p className="hint">
        Placing a line by hand remembers its item for the number (or name) it gives; each line keeps its own colour.
      </p>
      {st.placements.items.length === 0 ? (
        <p className="empty">None yet: placing a line by hand remembers it for later imports.</p>
      ) : (
        <table className="table" aria-label="Remembered placements">
          <thead>
            <tr>
              <th>Given</th>
              <th>Placed on</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {st.placements.items.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.given.type} {p.given.no ?? `“${p.given.name ?? ''}”`}
                </td>
                <td>
                  {p.item.type} {p.item.no} {p.item.name}
                </td>
                <td>{p.createdAt.slice(0, 10)}</td>
                <td>
                  <button onClick={() => void st.forget('item', p.id)}>Forget</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Remembered colours</h3>
      <p className="hint">
        When a line gives a colour the catalogue does not know and you choose one for it, lines giving that same colour
        get it too.
      </p>
      {st.placements.colours.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <table className="table" aria-label="Remembered colours">
          <thead>
            <tr>
              <th>Given colour</th>
              <th>Placed as</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {st.placements.colours.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.given.numbering === 'bricklink-id'
                    ? `BrickLink colour ${p.given.colourId ?? ''}`
                    : `“${p.given.name ?? ''}”`}
                </td>
                <td title={`colour ${p.colour.id}`}>{p.colour.name ?? `colour ${p.colour.id}`}</td>
                <td>{p.createdAt.slice(0, 10)}</td>
                <td>
                  <button onClick={() => void st.forget('colour', p.id)}>Forget</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Names taught</h3>
      <p className="hint">
        When a line placed by hand names its part differently from the catalogue, suggestions find the part by that name
        too.
      </p>
      {st.placements.names.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <table className="table" aria-label="Names taught">
          <thead>
            <tr>
              <th>Name</th>
              <th>Finds</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {st.placements.names.map((p) => (
              <tr key={p.id}>
                <td>“{p.name}”</td>
                <td>
                  {p.item.type} {p.item.no} {p.item.name}
                </td>
                <td>{p.createdAt.slice(0, 10)}</td>
                <td>
                  <button onClick={() => void st.forget('name', p.id)}>Forget</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
