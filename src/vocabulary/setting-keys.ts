/**
 * The settings staff can change (SPEC §10 `settings`), the one list the contract, the argument checks,
 * the store's defaults and checks (`store/settings.ts`) and the screens derive theirs from: each key with
 * the field that carries it in the contract's `SettingsView`, and what it is, in staff's words.
 */
export const SETTING_KEYS = [
  'daily-call-limit',
  'currency',
  'api-url',
  'numbering',
  'pictures',
  'picture-days',
  'picture-cache-mb',
  'picture-url',
  'render-url',
  'row-pictures',
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

export const SETTING_FIELDS = {
  'daily-call-limit': 'dailyCallLimit',
  currency: 'currency',
  'api-url': 'apiUrl',
  numbering: 'numbering',
  pictures: 'pictures',
  'picture-days': 'pictureDays',
  'picture-cache-mb': 'pictureCacheMb',
  'picture-url': 'pictureUrl',
  'render-url': 'renderUrl',
  'row-pictures': 'rowPictures',
} as const satisfies Record<SettingKey, string>;

export const SETTING_SUMMARIES: Readonly<Record<SettingKey, string>> = {
  'daily-call-limit': "BrickLink API calls allowed per UTC day (BrickLink's own limit is 5,000)",
  currency: "the shop's currency, for documents that name none (ISO 4217 code)",
  'api-url': "the BrickLink API's base URL (BRICKLINK_API_URL overrides it for the CLI)",
  numbering: 'the shop numbering items are shown in first: bricklink (the default) or rebrickable',
  pictures: 'pictures of items fetched from the network: on (the default) or off (only those kept are shown)',
  'picture-days': 'days a kept picture is shown before it is fetched again (the old one shown meanwhile)',
  'picture-cache-mb': 'the picture cache at most, in MB (the pictures shown longest ago go first)',
  'picture-url': "BrickLink's picture server (https://img.bricklink.com)",
  'render-url': "Rebrickable's picture server, for its LDraw renders (https://cdn.rebrickable.com)",
  'row-pictures': "a small picture on each line of an order's table: on (the default) or off",
};
