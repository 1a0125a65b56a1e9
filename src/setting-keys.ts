/**
 * The settings staff can change (SPEC §10 `settings`), the one list the contract, the argument checks,
 * the store's defaults and checks (`store/settings.ts`) and the screens derive theirs from.
 */
export const SETTING_KEYS = ['daily-call-limit', 'currency', 'api-url'] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];
