/**
 * What a build of the screens was made from (issue 64 §6): every source file the bundle took in (as the
 * bundler resolved them: an import added or removed changes the file that names it), the build's config
 * and the installed packages' lock, each with its hash. Written beside the build by the plugin; read by
 * `scripts/screens.ts`, which builds again only when one of them changed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The stamp's name in the build's folder. */
export const STAMP = '.built-from.json';
/** Files every build depends on besides its modules: its config, and what is installed. */
const ALWAYS = ['vite.renderer.config.ts', 'package-lock.json', 'scripts/screens-stamp.ts'];

const hashOf = (file: string): string | null => {
  try {
    return createHash('sha256')
      .update(fs.readFileSync(path.join(ROOT, file)))
      .digest('hex');
  } catch {
    return null; // gone: differs from any hash recorded
  }
};

/** The checkout's own files among a build's module ids, relative to the checkout (not packages, not virtual modules). */
function ownFiles(ids: readonly string[]): string[] {
  const files = new Set<string>(ALWAYS);
  for (const id of ids) {
    if (id.startsWith('\0')) continue;
    const file = id.split('?')[0] ?? id;
    const rel = path.relative(ROOT, file);
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).includes('node_modules')) continue;
    if (fs.existsSync(file)) files.add(rel.split(path.sep).join('/'));
  }
  return [...files].sort();
}

/** The vite plugin that writes the stamp once the bundle is written. */
export function screensStamp(): Plugin {
  let ids: string[] = [];
  return {
    name: 'brick-work-screens-stamp',
    apply: 'build',
    generateBundle() {
      ids = [...this.getModuleIds()];
    },
    writeBundle(options) {
      if (options.dir === undefined) return;
      const files = Object.fromEntries(ownFiles(ids).map((f) => [f, hashOf(f)]));
      fs.writeFileSync(
        path.join(options.dir, STAMP),
        `${JSON.stringify({ builtAt: new Date().toISOString(), files }, null, 1)}\n`,
      );
    },
  };
}

/**
 * Why the build in `outDir` is not the sources' build, in a few words; null when it is. Reads the stamp
 * and hashes its files again (a few hundred small files: milliseconds).
 */
export function staleness(outDir: string): { why: string | null; builtAt: string | null } {
  let stamp: { builtAt?: string; files?: Record<string, string | null> };
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8')) as typeof stamp;
  } catch {
    return { why: 'no build of the screens here yet', builtAt: null };
  }
  if (!fs.existsSync(path.join(outDir, 'index.html'))) return { why: 'the build has no index.html', builtAt: null };
  const changed = Object.entries(stamp.files ?? {})
    .filter(([file, hash]) => hashOf(file) !== hash)
    .map(([f]) => f);
  if (changed.length === 0) return { why: null, builtAt: stamp.builtAt ?? null };
  const named = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  return { why: `changed since the last build: ${named}`, builtAt: stamp.builtAt ?? null };
}
