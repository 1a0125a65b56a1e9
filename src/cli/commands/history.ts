import { BrickWorkError } from '../../vocabulary/errors.ts';
import { numberArg, type ContractCommand } from '../command.ts';

function undoRedo(direction: 'undo' | 'redo'): ContractCommand {
  const call = direction === 'undo' ? 'history.undo' : 'history.redo';
  return {
    name: [direction],
    synopsis: '[--step ID]',
    summary:
      direction === 'undo'
        ? 'take back the newest step (with --step, only if it is that step)'
        : 'put back the step undone last (with --step, only if it is that step)',
    options: { step: { type: 'string' } },
    args: { min: 0, max: 0 },
    calls: ['history.state', call],
    async run(api, _args, options) {
      const given = options['step'];
      let expectedStep = typeof given === 'string' ? numberArg(given) : null;
      if (expectedStep === null) {
        // Without --step, the step the history names now: the same compare-and-set the app makes.
        const next = (await api.call('history.state', {}))[direction];
        if (next === null) {
          throw direction === 'undo'
            ? new BrickWorkError('nothing-to-undo', 'There is nothing to undo.')
            : new BrickWorkError('nothing-to-redo', 'There is nothing to redo.');
        }
        expectedStep = next.id;
      }
      const step = await api.call(call, { expectedStep });
      return {
        json: { step },
        text: `${direction === 'undo' ? 'Undid' : 'Redid'} step ${step.id}: ${step.label}`,
      };
    },
  };
}
export const undoCommand = undoRedo('undo');
export const redoCommand = undoRedo('redo');

/** `history [--limit N]`: every desk's steps, newest first, with their desk and state (SPEC §8). */
export const historyCommand: ContractCommand = {
  name: ['history'],
  synopsis: '[--limit N]',
  summary: "every desk's undo steps, newest first: which desk made each, and whether it is undone",
  options: { limit: { type: 'string' } },
  args: { min: 0, max: 0 },
  calls: ['history.list'],
  async run(api, _args, options) {
    const given = options['limit'];
    const history = await api.call('history.list', typeof given === 'string' ? { limit: numberArg(given) } : {});
    const text = history.steps.map(
      (s) =>
        `${String(s.id).padStart(6)}  ${s.state === 'undone' ? 'undone' : 'done  '}  ${(s.desk ?? '(no desk)').padEnd(20)}  ${s.label}${s.desk === history.desk ? '  ← this desk' : ''}`,
    );
    return {
      json: history,
      text: text.length === 0 ? 'The history is empty.' : text.join('\n'),
    };
  },
};
