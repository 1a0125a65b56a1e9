import { SETTING_FIELDS, SETTING_KEYS, SETTING_SUMMARIES, type SettingKey } from '../../vocabulary/setting-keys.ts';
import { UsageError, type ContractCommand } from '../command.ts';

const isSettingKey = (key: string): key is SettingKey => (SETTING_KEYS as readonly string[]).includes(key);

export const settings: ContractCommand = {
  name: ['settings'],
  synopsis: '[KEY [VALUE]]',
  summary: `show or change a setting (${SETTING_KEYS.join(', ')})`,
  args: { min: 0, max: 2 },
  calls: ['settings.get', 'settings.set'],
  writes: (args) => args.length === 2,
  async run(api, [key, value]) {
    if (key !== undefined && !isSettingKey(key)) {
      throw new UsageError(`there is no setting "${key}"; the settings are ${SETTING_KEYS.join(', ')}`);
    }
    if (key === undefined) {
      const view = await api.call('settings.get', {});
      const text = SETTING_KEYS.map(
        (k) => `${k.padEnd(18)} ${view[SETTING_FIELDS[k]].padEnd(40)} ${SETTING_SUMMARIES[k]}`,
      ).join('\n');
      return { json: { settings: view }, text };
    }
    const view =
      value === undefined ? await api.call('settings.get', {}) : await api.call('settings.set', { key, value });
    const stored = view[SETTING_FIELDS[key]];
    return { json: { key, value: stored }, text: value === undefined ? stored : `${key} = ${stored}` };
  },
};
