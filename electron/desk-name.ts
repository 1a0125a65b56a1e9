/**
 * Settings → This desk (SPEC §8): the desk's name, kept in the app's user-data folder beside its other
 * choices of this computer (never in the store: a shop server's store is every desk's). Not a secret.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DeskNamePort } from '../src/api/ports.ts';
import { writeFileAtomically } from '../src/platform/files.ts';

export function fileDeskName(userData: string): DeskNamePort {
  const file = path.join(userData, 'desk.json');
  return {
    get() {
      try {
        const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown } | null;
        return typeof kept?.name === 'string' && kept.name.trim() !== '' ? kept.name.trim() : null;
      } catch {
        return null; // none kept, or unreadable: the computer's name
      }
    },
    set(name) {
      if (name === null) fs.rmSync(file, { force: true });
      else writeFileAtomically(file, `${JSON.stringify({ name })}\n`);
    },
  };
}
