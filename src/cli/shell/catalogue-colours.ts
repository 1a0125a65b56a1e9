import { credentialsFromEnv } from '../../app/environment.ts';
import { apiUrlOf, loadColoursFromApi } from '../../app/work.ts';
import { SYSTEM_CLOCK } from '../../clock.ts';
import { BrickWorkError } from '../../errors.ts';
import type { ShellCommand } from '../command.ts';

export const catalogueColours: ShellCommand = {
  name: ['catalogue', 'colours'],
  synopsis: '',
  summary: "load the colours from the BrickLink API's colour list (one call; BRICKLINK_* credentials)",
  shellOnly:
    "the app has no button for it (yet): in the app, colours come from BrickLink's colours download, loaded like any catalogue file",
  args: { min: 0, max: 0 },
  run(ctx) {
    return ctx.withStore('write', async (store) => {
      const { credentials, missing } = credentialsFromEnv(ctx.io.env);
      if (credentials === null) {
        throw new BrickWorkError('no-credentials', `The BrickLink credentials are missing: set ${missing.join(', ')}.`);
      }
      const { result, summary } = await loadColoursFromApi(store.db, store.path ?? '', {
        clock: SYSTEM_CLOCK,
        credentials,
        apiUrl: apiUrlOf(store.db, ctx.io.env),
      });
      if (result.warning) ctx.io.stderr(`brick-work: ${result.warning}\n`);
      return {
        json: {
          colours: result.colours,
          placed: result.placed,
          placedByOrder: result.placedByOrder,
          unplacedByOrder: result.unplacedByOrder,
        },
        text: summary,
      };
    });
  },
};
