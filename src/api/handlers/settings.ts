/** Settings, the BrickLink credentials, and the app's file dialog (SPEC §9). */
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { setSetting } from '../../store/settings.ts';
import { outsideStore, reads, writes, type PartialCallTable } from './define.ts';

export const SETTINGS_CALLS = {
  'settings.get': reads((d) => () => d.settingsView()),
  'settings.set': writes((d) => ({ key, value }) => {
    setSetting(d.db, key, value);
    d.changed('settings');
    return d.settingsView();
  }),
  'settings.setCredentials': outsideStore((d) => (credentials) => {
    const names: Record<string, string> = {
      consumerKey: 'consumer key',
      consumerSecret: 'consumer secret',
      token: 'token',
      tokenSecret: 'token secret',
    };
    const empty = Object.entries(credentials)
      .filter(([, v]) => v.trim() === '')
      .map(([k]) => names[k] ?? k);
    if (empty.length > 0) {
      throw new BrickWorkError(
        'invalid-argument',
        `Enter all four BrickLink API credentials: the ${empty.slice(0, -1).join(', the ')}${empty.length > 1 ? ' and the ' : ''}${empty.at(-1) ?? ''} ${empty.length === 1 ? 'is' : 'are'} empty. ` +
          'BrickLink shows them to the shop’s account on its API registration page (bricklink.com/v2/api/register_consumer.page).',
      );
    }
    d.ctx.credentials.set(credentials);
    return d.settingsView();
  }),
  'file.pick': outsideStore(
    (d) =>
      ({ purpose }) =>
        d.ctx.files ? d.ctx.files.pick(purpose) : null,
  ),
} satisfies PartialCallTable;
