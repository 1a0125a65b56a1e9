import { useEffect, useState } from 'react';
import type { PicturesStatusView, SettingsView } from '../../../src/api/contract.ts';
import { call } from '../../state/call.ts';
import { useSettings } from '../../state/settings.ts';
import { count } from '../../format.ts';
import { Field } from './ShopCard.tsx';

/**
 * Pictures of items (SPEC §15): fetched from the network or not (a metered connection), how long one is
 * kept before it is fetched again, the cache's cap and what it holds, and "Clear pictures".
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
          <div className="field">
            <label htmlFor="setting-pictures">
              <span>Pictures from the network</span>
            </label>
            <select id="setting-pictures" value={s.pictures} onChange={(e) => void set('pictures', e.target.value)}>
              <option value="on">On</option>
              <option value="off">Off (only those kept are shown)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="setting-row-pictures">
              <span>A picture on each line of an order</span>
            </label>
            <select
              id="setting-row-pictures"
              value={s.rowPictures}
              onChange={(e) => void set('row-pictures', e.target.value)}
            >
              <option value="on">On</option>
              <option value="off">Off</option>
            </select>
          </div>
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
            {status === null
              ? 'Pictures are shown in the app and the browser host.'
              : `${count(status.cached)} picture${status.cached === 1 ? '' : 's'} kept (${(status.bytes / 1_000_000).toFixed(1)} MB); this start fetched ${count(status.fetched)}, ${count(status.failed)} failed, ${count(status.waiting)} on their way.`}{' '}
            <button onClick={() => void call('pictures.clear', {}).then(setStatus, () => undefined)}>
              Clear pictures
            </button>
          </p>
        </>
      ) : null}
    </div>
  );
}
