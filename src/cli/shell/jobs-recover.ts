import { recoverDeadOwners } from '../../app/recovery.ts';
import { SYSTEM_CLOCK } from '../../clock.ts';
import type { ShellCommand } from '../command.ts';

export const jobsRecover: ShellCommand = {
  name: ['jobs', 'recover'],
  synopsis: '',
  summary: "put dead owners' running jobs back in the queue",
  shellOnly:
    'the app and the browser host recover as they start (SPEC §4) and report it in store.info; the CLI recovers only when told',
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('write', (store) => {
      const r = recoverDeadOwners(store.db, store.path, SYSTEM_CLOCK);
      return {
        json: { recovered: r.jobs.map((j) => j.id), catalogueJob: r.catalogueJob },
        text: r.lines.length === 0 ? 'No job needed recovering.' : r.lines.join('\n'),
      };
    });
  },
};
