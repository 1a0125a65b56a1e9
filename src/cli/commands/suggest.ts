import { UsageError, numberArg, type ContractCommand } from '../command.ts';
import { numberText } from './orders.ts';

export const suggest: ContractCommand = {
  name: ['suggest'],
  synopsis: 'NAME [--line ID] [--limit N] | --number NO',
  summary:
    "suggestions for a name (longest prefix, all words, closest names; --line: the parts made in that line's colour closer), or for a number",
  options: { number: { type: 'string' }, limit: { type: 'string' }, line: { type: 'string' } },
  args: { min: 0, max: 1 },
  calls: ['catalogue.search'],
  words: { query: 'NAME', forLine: '--line' },
  async run(api, [name], options) {
    const no = typeof options['number'] === 'string' ? options['number'] : undefined;
    if ((name === undefined) === (no === undefined)) throw new UsageError('suggest takes a NAME or --number NO');
    const limit = typeof options['limit'] === 'string' ? numberArg(options['limit']) : undefined;
    const forLine = typeof options['line'] === 'string' ? numberArg(options['line']) : undefined;
    const view = await api.call('catalogue.search', {
      query: no ?? name ?? '',
      by: no === undefined ? 'name' : 'number',
      ...(limit === undefined ? {} : { limit }),
      ...(forLine === undefined ? {} : { forLine }),
    });
    const text =
      view.suggestions.length === 0
        ? 'No suggestions.'
        : view.suggestions.map((s) => `${s.rule.padEnd(7)} ${s.type} ${numberText(s).padEnd(14)} ${s.name}`).join('\n');
    return { json: view, text };
  },
};
