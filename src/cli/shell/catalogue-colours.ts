import { BrickLinkApi } from '../../catalogue/bricklink/api.ts';
import { credentialsFromEnv } from '../../catalogue/bricklink/oauth.ts';
import { catalogueLoadSummary, loadColoursFromSource } from '../../catalogue/load.ts';
import { Source } from '../../catalogue/source.ts';
import { SYSTEM_CLOCK } from '../../clock.ts';
import { BrickWorkError } from '../../errors.ts';
import { identityOf } from '../../identity/owner.ts';
import { getSetting } from '../../store/settings.ts';
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
      const baseUrl = ctx.io.env['BRICKLINK_API_URL'] || getSetting(store.db, 'api-url');
      const source = new Source(store.db, SYSTEM_CLOCK, new BrickLinkApi(baseUrl, credentials));
      const result = await loadColoursFromSource(store.db, store.path ?? '', source, {
        me: identityOf(),
        clock: SYSTEM_CLOCK,
      });
      if (result.warning) ctx.io.stderr(`brick-work: ${result.warning}\n`);
      return {
        json: {
          colours: result.colours,
          placed: result.placed,
          placedByOrder: result.placedByOrder,
          unplacedByOrder: result.unplacedByOrder,
        },
        text: catalogueLoadSummary({
          items: 0,
          colours: result.colours,
          categories: 0,
          placed: result.placed,
          placedByOrder: result.placedByOrder,
          unplacedByOrder: result.unplacedByOrder,
          unplacedBefore: result.unplacedBefore,
          cancelled: false,
        }).replace(/^Loaded (\S+ colours?)/, 'Loaded $1 from BrickLink'),
      };
    });
  },
};
