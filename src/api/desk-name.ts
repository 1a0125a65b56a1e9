/** A desk's name as a shell gives it (`--desk`, Settings): shown in every desk's history (SPEC §8). */

/** The longest name a desk may have. */
export const DESK_NAME_MAX = 60;

/** Why `name` can't name a desk, or null. */
export function deskNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'a desk needs a name';
  if (trimmed.length > DESK_NAME_MAX) return `a desk's name is at most ${DESK_NAME_MAX} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return "a desk's name can't hold control characters";
  return null;
}
