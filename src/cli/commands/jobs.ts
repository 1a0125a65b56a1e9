import type { CatalogueStatusView, JobRowView } from '../../api/contract.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import { numberArg, type ContractCommand } from '../command.ts';

function ownerText(job: { owner: JobRowView['owner']; alive: boolean | null; desk?: string | null }): string {
  if (job.owner === null) return '-';
  const state = job.alive ? 'alive' : 'gone';
  // On a shop server the owner is the server's session, no process: the desk says who (SPEC §14).
  return job.desk ? `desk "${job.desk}" (${state})` : `pid ${job.owner.pid} (${state})`;
}

function progressText(p: JobRowView['progress']): string {
  return p.total ? `${p.done}/${p.total}` : p.done ? String(p.done) : '';
}

function catalogueText(c: CatalogueStatusView): string {
  if (c.jobProblem !== null)
    return `catalogue job: catalogue-job.json could not be read (${c.jobProblem}); treated as none`;
  const r = c.job;
  if (r === null) return 'catalogue job: none';
  return `catalogue job: ${r.kind} ${r.state}${r.state === 'running' ? `, ${ownerText(r)}` : ''} ${progressText(r.progress)}${r.error ? ` — ${r.error}` : ''}`;
}

export const jobsList: ContractCommand = {
  name: ['jobs'],
  synopsis: '',
  summary: 'the jobs, with their owners and whether each owner is alive',
  args: { min: 0, max: 0 },
  calls: ['jobs.list', 'catalogue.status'],
  async run(api) {
    const jobs = await api.call('jobs.list', {});
    const catalogue = await api.call('catalogue.status', {});
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
      catalogueText(catalogue),
    ].join('\n');
    return { json: { jobs, catalogueJob: catalogue.job, catalogueJobProblem: catalogue.jobProblem }, text };
  },
};

export const jobsCancel: ContractCommand = {
  name: ['jobs', 'cancel'],
  synopsis: 'ID | catalogue',
  summary: 'cancel a queued or running job (or the catalogue job)',
  args: { min: 1, max: 1 },
  calls: ['catalogue.cancel', 'jobs.cancel'],
  async run(api, [arg]) {
    if (arg === 'catalogue') {
      const { cancelled } = await api.call('catalogue.cancel', {});
      if (!cancelled) throw new BrickWorkError('not-found', 'No catalogue job is running.');
      return { json: { cancelled: 'catalogue' }, text: 'Asked the catalogue job to stop; it stops at its next step.' };
    }
    const r = await api.call('jobs.cancel', { jobId: numberArg(arg) });
    const text =
      r.was === 'running'
        ? `Cancelled job ${r.cancelled}; it stops at its next step.`
        : `Cancelled job ${r.cancelled}.`;
    return { json: r, text };
  },
};
