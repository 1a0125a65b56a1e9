import { allSettings, getSetting, isSettingKey, setSetting, SETTINGS } from '../../store/settings.ts';
import { UsageError, type Command } from '../command.ts';

export const settings: Command = {
  name: ['settings'],
  synopsis: '[KEY [VALUE]]',
  summary: `show or change a setting (${Object.keys(SETTINGS).join(', ')})`,
  args: { min: 0, max: 2 },
  run(ctx, [key, value]) {
    if (key !== undefined && !isSettingKey(key)) {
      throw new UsageError(`there is no setting "${key}"; the settings are ${Object.keys(SETTINGS).join(', ')}`);
    }
    if (key === undefined) {
      return ctx.withStore('read', (store) => {
        const all = allSettings(store.db);
        const text = Object.entries(all)
          .map(([k, v]) => `${k.padEnd(18)} ${v.padEnd(40)} ${SETTINGS[k as keyof typeof SETTINGS].summary}`)
          .join('\n');
        return { json: { settings: all }, text };
      });
    }
    if (value === undefined) {
      return ctx.withStore('read', (store) => {
        const v = getSetting(store.db, key);
        return { json: { key, value: v }, text: v };
      });
    }
    return ctx.withStore('write', (store) => {
      const stored = setSetting(store.db, key, value);
      return { json: { key, value: stored }, text: `${key} = ${stored}` };
    });
  },
};
