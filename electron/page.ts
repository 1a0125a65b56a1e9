import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The app's own page (dist/renderer/index.html) and the folder it loads its files from, told by the file
 * they name rather than by the URL's spelling: Node writes a `%` in the install path as `%25`, Chromium
 * keeps it as `%` (and both write a space as `%20`), so comparing URL strings would refuse the app's own
 * window wherever the install path holds a `%`.
 */
export interface AppPage {
  /** The page's file. */
  readonly index: string;
  /** A file: URL of the page (Node's spelling), for logs and tests. */
  readonly url: string;
  /** Whether a URL names the page's file (any query or fragment aside). */
  isPage(url: string): boolean;
  /** Whether a URL names a file in the page's folder (or below it). */
  isInFolder(url: string): boolean;
}

export function appPage(rendererIndex: string, platform: NodeJS.Platform = process.platform): AppPage {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const index = p.resolve(rendererIndex);
  const folder = p.dirname(index);
  const key = (file: string) => (platform === 'win32' ? file.toLowerCase() : file);
  return {
    index,
    url: pathToFileURL(index).href,
    isPage(url) {
      const file = fileUrlPath(url, platform);
      return file !== null && key(file) === key(index);
    },
    isInFolder(url) {
      const file = fileUrlPath(url, platform);
      if (file === null) return false;
      const relative = p.relative(key(folder), key(file));
      return relative !== '' && !relative.startsWith('..') && !p.isAbsolute(relative);
    },
  };
}

/**
 * The file a file: URL names, read the way Chromium reads it: each valid `%XX` decoded (a `%` that starts
 * none is itself), then normalised. Null for any other URL, or one that can't name a file (a NUL).
 */
export function fileUrlPath(url: string, platform: NodeJS.Platform = process.platform): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'file:') return null;
  const decoded = decodePercents(parsed.pathname);
  if (decoded.includes('\0')) return null;
  if (platform === 'win32') {
    const host = parsed.hostname === 'localhost' ? '' : parsed.hostname;
    const file = host
      ? `\\\\${host}${decoded.replace(/\//g, '\\')}`
      : decoded.replace(/^\/(?=[A-Za-z]:)/, '').replace(/\//g, '\\');
    return /^([A-Za-z]:\\|\\\\)/.test(file) ? path.win32.normalize(file) : null;
  }
  if (parsed.hostname !== '' && parsed.hostname !== 'localhost') return null;
  return path.posix.normalize(decoded);
}

/** Decodes each valid `%XX` as a byte of UTF-8 and leaves a `%` that starts none as it is. */
function decodePercents(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length;) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else {
      const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
