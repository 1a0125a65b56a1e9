/** What the PostgreSQL tests need, in the words a skipped one prints. */
export const NEEDS_POSTGRES =
  "PostgreSQL's server programs (Debian: apt-get install -y postgresql; macOS: brew install postgresql@17)";

/** What the browser tests need, in the words a skipped one prints. */
export const NEEDS_CHROMIUM =
  'Chromium or Google Chrome (Debian: apt-get install -y chromium; macOS: Google Chrome in /Applications, brew install --cask google-chrome; or BRICK_WORK_CHROMIUM=its path)';

/** What CI always has (`.ci/run` installs them): a test there that lacks one fails instead of skipping. */
const CI_HAS: readonly string[] = [NEEDS_POSTGRES, NEEDS_CHROMIUM];

/**
 * The guard of a test that needs something this machine may lack (Chromium, `../shared/data`, root,
 * faketime, a platform): `it.runIf(needs(ok, 'what', 'the test'))`. When it is missing, the run's output
 * says which test is skipped and why — a skip is never silent. In CI (`CI=true`), a missing PostgreSQL
 * or Chromium is not skipped but fails the file, naming what is missing.
 */
export function needs(present: boolean, what: string, test: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!present && env['CI'] === 'true' && CI_HAS.includes(what))
    throw new Error(`${test} needs ${what}, which CI must have (CI=true): it is not skipped there`);
  if (!present) console.warn(`skipped: ${test} — it needs ${what}`);
  return present;
}
