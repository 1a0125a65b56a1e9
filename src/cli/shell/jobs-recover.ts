import { SYSTEM_CLOCK } from '../../clock.ts';
import { recoverCatalogueJob } from '../../catalogue/catalogue-job.ts';
import { recoverJobs } from '../../jobs/queue.ts';
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
      const recovered = recoverJobs(store.db, { clock: SYSTEM_CLOCK });
      const catalogue = store.path === null ? null : recoverCatalogueJob(store.db, store.path, { clock: SYSTEM_CLOCK });
      const lines = [
        ...recovered.map(
          (r) => `recovered job ${r.id} (${r.kind}): owner pid ${r.deadOwner?.pid ?? '-'} is gone; queued again`,
        ),
        ...(catalogue
          ? [
              `recovered the catalogue job (${catalogue.kind}): owner pid ${catalogue.deadOwner.pid} is gone; marked failed, ${catalogue.placed} unplaced lines placed again`,
            ]
          : []),
      ];
      return {
        json: { recovered: recovered.map((r) => r.id), catalogueJob: catalogue },
        text: lines.length === 0 ? 'No job needed recovering.' : lines.join('\n'),
      };
    });
  },
};
