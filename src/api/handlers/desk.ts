/**
 * Settings → This desk (SPEC §8): the desk's name, which every step it writes records and by which its
 * Undo and Redo find their steps. Kept by the app beside its other choices of this computer, never in
 * the store; the browser host and the CLI are named at their start (`--desk`).
 */
import type { DeskView } from '../contract.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { deskNameProblem } from '../desk-name.ts';
import { thisComputer } from '../../identity/desk.ts';
import { type ReadDeps, outsideStore, type PartialCallTable } from './define.ts';

function view(d: ReadDeps): DeskView {
  return { name: d.desk(), computer: thisComputer(), canChange: (d.ctx.deskName ?? null) !== null };
}

export const DESK_CALLS = {
  'desk.get': outsideStore((d) => () => view(d)),
  'desk.set': outsideStore((d) => ({ name }) => {
    const port = d.ctx.deskName ?? null;
    if (port === null)
      throw new BrickWorkError(
        'invalid-argument',
        'This desk is named when it starts: start the browser host or the command line with --desk NAME.',
      );
    const given = name === null ? null : name.trim();
    const problem = given === null ? null : deskNameProblem(given);
    if (problem !== null) throw new BrickWorkError('invalid-argument', `That name can't be used: ${problem}.`);
    const desk = given === null || given === thisComputer() ? null : given;
    port.set(desk);
    // This service and the app's threads write the next steps as this desk's.
    d.renameDesk(desk ?? thisComputer());
    d.changed('this desk was renamed');
    return view(d);
  }),
} satisfies PartialCallTable;
