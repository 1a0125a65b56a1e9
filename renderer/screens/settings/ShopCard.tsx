import { useEffect, useState } from 'react';
import type { SettingsView } from '../../../src/api/contract.ts';
import { useSettings } from '../../state/settings.ts';

/** One setting: Enter saves it, as the Save button does. */
export function Field({ label, value, onSave }: { label: string; value: string; onSave(v: string): void }) {
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

/** The numbering the shop sells in (SPEC §5): items are shown in it first, the catalogue's number beside. */
function NumberingField({ value, onSave }: { value: string; onSave(v: string): void }) {
  return (
    <div className="field">
      <label htmlFor="setting-numbering">
        <span>Shop numbering (shown first)</span>
      </label>
      <select id="setting-numbering" value={value} onChange={(e) => onSave(e.target.value)} data-testid="numbering">
        <option value="bricklink">BrickLink</option>
        <option value="rebrickable">Rebrickable</option>
      </select>
    </div>
  );
}

/** The shop's settings: its numbering and currency, the day's BrickLink calls, the API's address. */
export function ShopCard({ settings: s }: { settings: SettingsView | null }) {
  const set = useSettings((st) => st.set);
  return (
    <div className="card">
      <h3>Shop</h3>
      {s ? (
        <>
          <NumberingField value={s.numbering} onSave={(v) => void set('numbering', v)} />
          <Field
            label="Currency of documents that name none"
            value={s.currency}
            onSave={(v) => void set('currency', v)}
          />
          <Field
            label="BrickLink calls per day"
            value={s.dailyCallLimit}
            onSave={(v) => void set('daily-call-limit', v)}
          />
          <Field label="BrickLink API address" value={s.apiUrl} onSave={(v) => void set('api-url', v)} />
        </>
      ) : null}
    </div>
  );
}
