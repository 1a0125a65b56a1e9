/**
 * Desks (SPEC §8): a desk is one place of work — a computer's app, browser host or CLI — named in
 * Settings or by `--desk`, by default the computer's name. Every undo step records the desk that made
 * it, and Undo and Redo on a desk take back and put back that desk's steps. Who is working is told to
 * what writes with the connection it writes through (`store/session.ts`), never looked up beside it.
 */
import os from 'node:os';

/** The longest name a desk may have (`api/desk-name.ts` checks the names shells give). */
const DESK_NAME_MAX = 60;

/** This computer's name: every desk's name until it is given one. */
export function thisComputer(): string {
  return os.hostname().trim().slice(0, DESK_NAME_MAX) || 'this computer';
}
