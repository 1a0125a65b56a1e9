import { useEffect, useState } from 'react';
import type { PicturesStatusView, SettingsView } from '../../../src/api/contract.ts';
import { call } from '../../state/call.ts';
import { useSettings } from '../../state/settings.ts';
import { picturesInMemoryWords, picturesStatusWords } from '../../pictures-words.ts';
import { Field } from './ShopCard.tsx';

/** A setting that is on or off, chosen from a list (its "off" in the words that say what it means). */
function OnOff(props: { id: string; label: string; value: string; off: string; onSave(value: string): void }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>
        <span>{props.label}</span>
      </label>
      <select id={props.id} value={props.value} onChange={(e) => props.onSave(e.target.value)}>
        <option value="on">On</option>
        <option value="off">{props.off}</option>
      </select>
    </div>
  );
}

/**
 * Pictures of items (SPEC §15): fetched from the network or not (a metered connection), how long one is
 * kept before it is fetched again, the cache's cap and what it holds (in memory, where its file's path holds
 * something else), and "Clear pictures".
 */
export function PicturesCard({ settings: s }: { settings: SettingsView | null }) {
  const set = useSettings((st) => st.set);
  const [status, setStatus] = useState<PicturesStatusView | null>(null);
  const look = () => void call('pictures.status', {}).then(setStatus, () => setStatus(null));
  useEffect(look, [s]);
  return (
    <div className="card" data-testid="pictures-card">
      <h3>Pictures</h3>
      {s ? (
        <>
          <OnOff
            id="setting-pictures"
            label="Pictures from the network"
            value={s.pictures}
            off="Off (only those kept are shown)"
            onSave={(v) => void set('pictures', v)}
          />
          <OnOff
            id="setting-row-pictures"
            label="A picture on each line of an order"
            value={s.rowPictures}
            off="Off"
            onSave={(v) => void set('row-pictures', v)}
          />
          <Field
            label="Days a picture is kept before it is fetched again"
            value={s.pictureDays}
            onSave={(v) => void set('picture-days', v)}
          />
          <Field
            label="Picture cache at most (MB)"
            value={s.pictureCacheMb}
            onSave={(v) => void set('picture-cache-mb', v)}
          />
          <p className="muted" data-testid="pictures-status">
            {status === null ? 'Pictures are shown in the app and the browser host.' : picturesStatusWords(status)}{' '}
            <button onClick={() => void call('pictures.clear', {}).then(setStatus, () => undefined)}>
              Clear pictures
            </button>
          </p>
          {status !== null && status.inMemory !== null ? (
            <p className="muted" data-testid="pictures-in-memory">
              {picturesInMemoryWords(status)}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
