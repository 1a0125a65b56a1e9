import { SYSTEM_CLOCK } from '../../clock.ts';
import {
  catalogueJobStatus,
  recoverCatalogueJob,
  requestCatalogueJobCancel,
  type CatalogueJobStatus,
} from '../../catalogue/catalogue-job.ts';
import { cancelJob, listJobs, recoverJobs } from '../../jobs/queue.ts';
import type { JobView } from '../../jobs/types.ts';
import { BrickWorkError } from '../../errors.ts';
import { UsageError, type Command } from '../command.ts';

function ownerText(job: { owner: JobView['owner']; alive: boolean | null }): string {
  if (job.owner === null) return '-';
  return `pid ${job.owner.pid} (${job.alive ? 'alive' : 'gone'})`;
}

function progressText(p: JobView['progress']): string {
  return p.total ? `${p.done}/${p.total}` : p.done ? String(p.done) : '';
}

function catalogueText(c: CatalogueJobStatus): string {
  if (c.problem !== null) return `catalogue job: ${c.file} could not be read (${c.problem}); treated as none`;
  if (c.record === null) return 'catalogue job: none';
  const r = c.record;
  return `catalogue job: ${r.kind} ${r.state}${r.state === 'running' ? `, ${ownerText({ owner: r.owner, alive: c.alive })}` : ''} ${progressText(r.progress)}${r.error ? ` — ${r.error}` : ''}`;
}

export const jobsList: Command = {
  name: ['jobs'],
  synopsis: '',
  summary: 'the jobs, with their owners and whether each owner is alive',
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('read', (store) => {
      const jobs = listJobs(store.db);
      const catalogue = store.path === null ? null : catalogueJobStatus(store.path);
      const rows = jobs.map((j) =>
        [
          String(j.id).padStart(5),
          j.kind.padEnd(18),
          j.state.padEnd(9),
          ownerText(j).padEnd(22),
          progressText(j.progress).padEnd(12),
          [
            j.recoveries ? `recovered ×${j.recoveries}` : '',
            j.notBeforeDay ? `waits for ${j.notBeforeDay}` : '',
            j.error ?? '',
          ]
            .filter(Boolean)
            .join('; '),
        ].join(' '),
      );
      const text = [
        jobs.length === 0
          ? 'No jobs.'
          : ['   id kind               state     owner                  progress', ...rows].join('\n'),
        ...(catalogue ? [catalogueText(catalogue)] : []),
      ].join('\n');
      return { json: { jobs, catalogueJob: catalogue }, text };
    });
  },
};

export const jobsRecover: Command = {
  name: ['jobs', 'recover'],
  synopsis: '',
  summary: "put dead owners' running jobs back in the queue",
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

export const jobsCancel: Command = {
  name: ['jobs', 'cancel'],
  synopsis: 'ID | catalogue',
  summary: 'cancel a queued or running job (or the catalogue job)',
  args: { min: 1, max: 1 },
  run(ctx, [arg]) {
    return ctx.withStore('write', (store) => {
      if (arg === 'catalogue') {
        if (store.path === null || !requestCatalogueJobCancel(store.db, store.path, SYSTEM_CLOCK)) {
          throw new BrickWorkError('not-found', 'No catalogue job is running.');
        }
        return {
          json: { cancelled: 'catalogue' },
          text: 'Asked the catalogue job to stop; it stops at its next step.',
        };
      }
      const id = Number(arg);
      if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError(`not a job id: ${arg ?? ''}`);
      const result = cancelJob(store.db, id, { clock: SYSTEM_CLOCK });
      const text =
        result.was === 'running' ? `Cancelled job ${id}; it stops at its next step.` : `Cancelled job ${id}.`;
      return { json: { cancelled: id, was: result.was }, text };
    });
  },
};
