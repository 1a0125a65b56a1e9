/**
 * `brick-work store copy` (SPEC §14) through the composition root: the CLI reaches nothing below `src/app/`.
 */
export { copyStore, type CopyReport } from '../store/copy/index.ts';
