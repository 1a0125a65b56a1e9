import { catalogueIndex, DEFAULT_SUGGESTION_LIMIT } from '../../suggest/catalogue-index.ts';
import { UsageError, type Command } from '../command.ts';

export const suggest: Command = {
  name: ['suggest'],
  synopsis: 'NAME [--limit N] | --number NO',
  summary: 'suggestions for a name (longest prefix, then all words), or for a number',
  options: { number: { type: 'string' }, limit: { type: 'string' } },
  args: { min: 0, max: 1 },
  run(ctx, [name], options) {
    const no = typeof options['number'] === 'string' ? options['number'] : undefined;
    if ((name === undefined) === (no === undefined)) throw new UsageError('suggest takes a NAME or --number NO');
    const rawLimit = options['limit'];
    if (rawLimit !== undefined && (typeof rawLimit !== 'string' || !/^\d+$/.test(rawLimit)))
      throw new UsageError('--limit takes a whole number');
    const limit = rawLimit === undefined ? DEFAULT_SUGGESTION_LIMIT : Number(rawLimit);
    return ctx.withStore('read', (store) => {
      const index = catalogueIndex(store.db);
      const suggestions = no !== undefined ? index.byNumberPrefix(no, limit) : index.byName(name ?? '', limit);
      const text =
        suggestions.length === 0
          ? 'No suggestions.'
          : suggestions.map((s) => `${s.rule.padEnd(7)} ${s.type} ${s.no.padEnd(14)} ${s.name}`).join('\n');
      return { json: { suggestions }, text };
    });
  },
};
