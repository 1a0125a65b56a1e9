import { describe, expect, it } from 'vitest';
import { CALL_NAMES } from '../../src/api/contract.ts';
import { checkArguments, isCallName } from '../../src/api/validate.ts';
import { DEFAULT_ITEM_TYPE, ITEM_TYPE_CODES, ITEM_TYPES } from '../../src/item-types.ts';
import { SETTING_KEYS } from '../../src/setting-keys.ts';
import { SETTINGS } from '../../src/store/settings.ts';

// Each list is declared once and the others derive from it (issue 12); the compiler holds the rest
// (`satisfies` on the call list and on the settings).
describe('one source for each list', () => {
  it('item types: the argument checks take exactly the declared codes, and P is the default', () => {
    expect(ITEM_TYPE_CODES).toEqual(Object.keys(ITEM_TYPES));
    const files = [{ name: 'parts.csv', content: new Uint8Array([49]) }];
    for (const type of ITEM_TYPE_CODES) expect(checkArguments('catalogue.load', { files, type })).toBeNull();
    expect(checkArguments('catalogue.load', { files, type: 'X' })).toMatch(/must be one of P, S, M, B, G, C, I, O/);
    expect(DEFAULT_ITEM_TYPE).toBe('P');
  });

  it('settings: the store keeps a default and a check for every key staff may set, and the checks take exactly those', () => {
    expect(Object.keys(SETTINGS)).toEqual([...SETTING_KEYS]);
    for (const key of SETTING_KEYS) expect(checkArguments('settings.set', { key, value: '1' })).toBeNull();
    expect(checkArguments('settings.set', { key: 'colour', value: '1' })).not.toBeNull();
  });

  it('calls: every name of the contract is a call, once', () => {
    expect(new Set(CALL_NAMES).size).toBe(CALL_NAMES.length);
    expect(CALL_NAMES.every(isCallName)).toBe(true);
    expect(isCallName('store.drop')).toBe(false);
  });
});
