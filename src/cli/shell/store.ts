import { APP_SCHEMA, formatApplicationId, inspectStore, type StoreInfo } from '../../app/store-facts.ts';
import type { ShellCommand } from '../command.ts';
import { storeName } from '../../store-location.ts';

function describeStatus(info: StoreInfo): string {
  switch (info.status) {
    case 'current':
      return 'current';
    case 'needs-upgrade':
      return `older than this brick-work's ${info.appSchema}: open it read-write once (e.g. \`brick-work store upgrade\`) to upgrade it`;
    case 'too-new':
      return `newer than this brick-work (${info.appVersion}, schema ${info.appSchema}) can read`;
    case 'too-old':
      return `too old for this brick-work (${info.appVersion}) to upgrade`;
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
    const info = inspectStore(ctx.storePath);
    const counts = Object.entries(info.counts).map(([k, v]) => `  ${k.padEnd(16)} ${v}`);
    const text = [
      `store           ${info.path}`,
      `schema          ${info.schema ?? '-'} (${describeStatus(info)})`,
      `application id  ${info.applicationId === null ? '-' : formatApplicationId(info.applicationId)}`,
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
  run(ctx) {
    return ctx.withStore('write', (store) => {
      const up = store.upgrade;
      const json = {
        schema: APP_SCHEMA,
        upgradedFrom: up?.from ?? null,
        backup: up?.backup ?? null,
        path: store.path === null ? null : storeName(store.path),
      };
      const where = store.path === null ? 'the store' : storeName(store.path);
      const text = up
        ? `Upgraded ${where} from schema ${up.from} to ${up.to}.\nBackup of the ${up.from} file: ${up.backup}`
        : store.created
          ? `Made a new store at ${where} (schema ${APP_SCHEMA}).`
          : `${where} is already schema ${APP_SCHEMA}; nothing to upgrade.`;
      return { json, text };
    });
  },
};
