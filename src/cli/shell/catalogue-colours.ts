import { loadColoursAt } from '../../app/store-commands.ts';
import type { ShellCommand } from '../command.ts';

export const catalogueColours: ShellCommand = {
  name: ['catalogue', 'colours'],
  synopsis: '',
  summary: "load the colours from the BrickLink API's colour list (one call; BRICKLINK_* credentials)",
  shellOnly:
    "the app has no button for it (yet): in the app, colours come from BrickLink's colours download, loaded like any catalogue file",
  args: { min: 0, max: 0 },
  async run(ctx) {
    const { summary, warning, ...json } = await loadColoursAt(ctx.storePath, ctx.io.env, ctx.log);
    if (warning) ctx.io.stderr(`brick-work: ${warning}\n`);
    return { json, text: summary };
  },
};
