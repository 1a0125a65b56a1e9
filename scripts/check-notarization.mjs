// `npm run dist:mac:release` starts here, before anything is built: a release dmg must be notarized, or
// macOS blocks the app on every Mac it is copied to. electron-builder notarizes only when Apple's
// credentials are in the environment and otherwise only warns ("skipped macOS notarization") and makes a
// signed, un-notarized dmg. So this refuses, in words, unless one whole set of credentials is there —
// the sets electron-builder 26 reads (app-builder-lib's MacTargetHelper.getNotarizeOptions), in its order:
//
//   APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID      an Apple ID and an app-specific password
//   APPLE_API_KEY (the .p8 file), APPLE_API_KEY_ID, APPLE_API_ISSUER   an App Store Connect API key
//   APPLE_KEYCHAIN_PROFILE (and APPLE_KEYCHAIN)               saved by `xcrun notarytool store-credentials`
//
// Signing itself is electron-builder's `forceCodeSigning` (the release script sets it).
import fs from 'node:fs';

const problem = notarizationProblem(process.env);
if (problem !== null) {
  console.error(
    `brick-work: a release build must be notarized, and ${problem} Nothing was built.\n` +
      'Set one of these, then run  npm run dist:mac:release  again:\n' +
      '  APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID (an Apple ID and an app-specific password), or\n' +
      '  APPLE_API_KEY (the path of the .p8 file), APPLE_API_KEY_ID and APPLE_API_ISSUER (an App Store Connect API key), or\n' +
      '  APPLE_KEYCHAIN_PROFILE (a profile saved with  xcrun notarytool store-credentials).\n' +
      'For a dmg to try on this Mac only, run  npm run dist:mac  (not notarized, not for shops).',
  );
  process.exit(1);
}

/** Why electron-builder would not notarize with these variables, as the end of a sentence; null when it would. */
function notarizationProblem(env) {
  const set = (name) => typeof env[name] === 'string' && env[name] !== '';
  const missing = (names) => names.filter((n) => !set(n));
  const list = (names) => (names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
  const incomplete = (names) => {
    const left = missing(names);
    return left.length === 0
      ? null
      : `${list(names.filter(set))} ${names.filter(set).length === 1 ? 'is' : 'are'} set but not ${list(left)}.`;
  };
  // The first set any of whose variables is there is the one electron-builder takes, whole or not.
  const appleId = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'];
  if (set('APPLE_ID') || set('APPLE_APP_SPECIFIC_PASSWORD')) return incomplete(appleId);
  const apiKey = ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'];
  if (apiKey.some(set)) {
    const gap = incomplete(apiKey);
    if (gap !== null) return gap;
    if (!fs.existsSync(env.APPLE_API_KEY)) return `APPLE_API_KEY names ${env.APPLE_API_KEY}, which is not there.`;
    return null;
  }
  if (set('APPLE_KEYCHAIN_PROFILE')) return null;
  // A part of a set that electron-builder does not look at on its own: said as what it lacks.
  if (set('APPLE_TEAM_ID')) return 'APPLE_TEAM_ID is set but not APPLE_ID and APPLE_APP_SPECIFIC_PASSWORD.';
  if (set('APPLE_KEYCHAIN')) return 'APPLE_KEYCHAIN is set but not APPLE_KEYCHAIN_PROFILE.';
  return 'none of Apple’s notarization settings is set.';
}
