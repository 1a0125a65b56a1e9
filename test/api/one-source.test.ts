import { expect, it } from 'vitest';
import { CALL_NAMES } from '../../src/api/contract.ts';
import path from 'node:path';
import { checkArguments, isCallName } from '../../src/api/validate.ts';
import { serviceFor } from '../helpers/service.ts';
import { buildStore } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';
import { DEFAULT_ITEM_TYPE, ITEM_TYPE_CODES, ITEM_TYPES } from '../../src/vocabulary/item-types.ts';
import { SETTING_KEYS } from '../../src/vocabulary/setting-keys.ts';
import { SETTINGS } from '../../src/store/settings.ts';
import { describeEachStore } from '../helpers/stores.ts';

// Each list is declared once and the others derive from it (issue 12); the compiler holds the rest
// (`satisfies` on the call list and on the settings).
describeEachStore('one source for each list', () => {
  it('item types: the argument checks take exactly the declared codes, and P is the default', () => {
    // BrickLink's eight item types, each with a name for the screens.
    expect(ITEM_TYPE_CODES).toEqual(['P', 'S', 'M', 'B', 'G', 'C', 'I', 'O']);
    for (const type of ITEM_TYPE_CODES) expect(ITEM_TYPES[type]).toMatch(/^[A-Z][a-z]/);
    const files = [{ name: 'parts.csv', content: new Uint8Array([49]) }];
    for (const type of ITEM_TYPE_CODES) expect(checkArguments('catalogue.load', { files, type })).toBeNull();
    expect(checkArguments('catalogue.load', { files, type: 'X' })).toMatch(/must be one of P, S, M, B, G, C, I, O/);
    expect(DEFAULT_ITEM_TYPE).toBe('P');
  });

  it('settings: the store keeps a default and a check for every key staff may set, and the checks take exactly those', () => {
    expect([...SETTING_KEYS]).toEqual([
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
    ]);
    for (const key of SETTING_KEYS) expect(SETTINGS[key].default, key).not.toBe('');
    for (const key of SETTING_KEYS) expect(checkArguments('settings.set', { key, value: '1' })).toBeNull();
    expect(checkArguments('settings.set', { key: 'colour', value: '1' })).not.toBeNull();
  });

  it('calls: every name of the contract is a call, once', () => {
    expect(new Set(CALL_NAMES).size).toBe(CALL_NAMES.length);
    // A name is a call only if the contract lists it: never a name every object has.
    for (const name of ['store.drop', 'toString', 'constructor', '__proto__', 'hasOwnProperty', ''])
      expect(isCallName(name), name).toBe(false);
    // Every call has its argument check and its handler, and nothing else has one.
    const storePath = path.join(tempDir(), 'calls.sqlite');
    const service = serviceFor(buildStore(storePath, '4.2'), storePath);
    // Each call's one declaration refuses a field it does not declare (an object shape, never a free record).
    for (const name of CALL_NAMES)
      expect(checkArguments(name, { unknownField: 1 }), name).toMatch(/unknown fields: unknownField/);
    expect(Object.keys(service.handlers).sort()).toEqual([...CALL_NAMES].sort());
  });
});
