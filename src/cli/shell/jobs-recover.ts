import { recoverStoreAt } from '../../app/store-commands.ts';
import type { ShellCommand } from '../command.ts';

export const jobsRecover: ShellCommand = {
  name: ['jobs', 'recover'],
  synopsis: '',
  summary: "put dead owners' running jobs back in the queue",
  shellOnly:
    'the app and the browser host recover as they start (SPEC §4) and report it in store.info; the CLI recovers only when told',
  args: { min: 0, max: 0 },
  async run(ctx) {
    const r = await recoverStoreAt(ctx.storePath, ctx.log);
    return {
      json: { recovered: r.recovered, catalogueJob: r.catalogueJob },
      text: r.lines.length === 0 ? 'No job needed recovering.' : r.lines.join('\n'),
    };
  },
};
