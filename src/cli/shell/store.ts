import { counted } from '../../vocabulary/words.ts';
import {
  copyStoreTo,
  SERVER_FIRST_SCHEMA,
  storeFacts,
  upgradeStoreAt,
  type StoreInfo,
} from '../../app/store-commands.ts';
import { storeFromOption } from '../../app/store-place.ts';
import { APP_NAME } from '../../platform/version.ts';
import { UsageError, type ShellCommand } from '../command.ts';

function describeStatus(info: StoreInfo): string {
  switch (info.status) {
    case 'current':
      return 'current';
    case 'needs-upgrade':
      return `older than this brick-work's ${info.appSchema}: open it read-write once (e.g. \`brick-work store upgrade\`) to upgrade it`;
    case 'too-new':
      return `newer than this brick-work (${info.appVersion}, schema ${info.appSchema}) can read`;
    case 'too-old':
      // Not `store upgrade`, which refuses it: a server store is made at 4.2, and a file is brought there by copy.
      return info.onServer
        ? `too old: a store on a server begins at ${SERVER_FIRST_SCHEMA}, and no brick-work upgrades one marked older; ` +
            'it was left as it is. A store file of an older schema goes to a server with `brick-work store copy --from FILE --to postgres://…`'
        : `too old for this brick-work (${info.appVersion}) to upgrade`;
    case 'none':
      return 'no store yet: the first command that writes makes it';
  }
}

export const storeInfo: ShellCommand = {
  name: ['store', 'info'],
  synopsis: '',
  summary: 'schema version, application id and counts (read-only, any version)',
  shellOnly:
    "it reads a store of any version, even one this brick-work refuses to open (too new, too old, another app's); the app shows its own store's version in its banner (store.info)",
  args: { min: 0, max: 0 },
  async run(ctx) {
    const { info, applicationId } = storeFacts(ctx.storePath);
    const counts = Object.entries(info.counts).map(([k, v]) => `  ${k.padEnd(16)} ${v}`);
    const text = [
      `store           ${info.path}`,
      `schema          ${info.schema ?? '-'} (${describeStatus(info)})`,
      `application id  ${applicationId ?? '-'}`,
      ...(info.readOnly === null ? [] : [`read-only       ${info.readOnly}: it can be read, not changed`]),
      ...(info.snapshot
        ? ["read from       a private copy: SQLite can't read it in place in a folder it can't write"]
        : []),
      ...(counts.length > 0 ? ['counts', ...counts] : []),
    ].join('\n');
    return { json: info, text };
  },
};

export const storeUpgrade: ShellCommand = {
  name: ['store', 'upgrade'],
  synopsis: '',
  summary: 'open read-write: upgrade an older store, print where its backup is',
  shellOnly:
    'the app upgrades its store as it starts, before any call can be made; from a shell the upgrade is a step of its own, run on purpose',
  args: { min: 0, max: 0 },
  async run(ctx) {
    const { schema, upgrade: up, path, created } = await upgradeStoreAt(ctx.storePath, ctx.log);
    const json = { schema, upgradedFrom: up?.from ?? null, backup: up?.backup ?? null, path };
    const where = path ?? 'the store';
    const text = up
      ? `Upgraded ${where} from schema ${up.from} to ${up.to}.\nBackup of the ${up.from} file: ${up.backup}`
      : created
        ? `Made a new store at ${where} (schema ${schema}).`
        : `${where} is already schema ${schema}; nothing to upgrade.`;
    return { json, text };
  },
};

export const storeCopy: ShellCommand = {
  name: ['store', 'copy'],
  synopsis: '--from DB --to DB',
  summary: 'copy a store into an empty one: a SQLite file to a PostgreSQL server, or back (§14)',
  shellOnly:
    "it moves a shop's whole store between two places, neither of which need be the app's own; it is done once, from a shell, with every desk closed",
  options: { from: { type: 'string' }, to: { type: 'string' } },
  args: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const from = options['from'];
    const to = options['to'];
    if (typeof from !== 'string' || typeof to !== 'string' || from === '' || to === '') {
      throw new UsageError(`usage: ${APP_NAME} store copy --from DB --to DB`);
    }
    // A password on the command line shows in `ps` (SPEC §14): PGPASSWORD or ~/.pgpass instead.
    const place = (given: string) => {
      const chosen = storeFromOption(given, {});
      if (!chosen.ok) throw new UsageError(chosen.problem.replace('--db holds', 'the address holds'));
      return chosen.path;
    };
    const report = await copyStoreTo(place(from), place(to), ctx.log);
    const width = Math.max(...report.tables.map((t) => t.table.length));
    const text = [
      `Copied ${report.from} to ${report.to} in ${(report.ms / 1000).toFixed(1)} s: ${report.rows} rows in ` +
        `${report.tables.length} tables, each table checked row for row, and the tallies of ${counted(report.tallies, 'document')}.`,
      ...(report.upgradedFrom === null
        ? []
        : [
            `The source is schema ${report.upgradedFrom}: a private copy of it was upgraded and copied; the file itself is unchanged.`,
          ]),
      ...report.tables.map((t) => `  ${t.table.padEnd(width)} ${t.rows}`),
    ].join('\n');
    return { json: report, text };
  },
};
