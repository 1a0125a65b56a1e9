/**
 * The guard of a test that needs something this machine may lack (Chromium, `../shared/data`, root,
 * faketime, a platform): `it.runIf(needs(ok, 'what', 'the test'))`. When it is missing, the run's output
 * says which test is skipped and why — a skip is never silent.
 */
export function needs(present: boolean, what: string, test: string): boolean {
  if (!present) console.warn(`skipped: ${test} — it needs ${what}`);
  return present;
}
