import { parseXml } from '../../src/text/xml.ts';

/**
 * A strict check of XML that brick-work writes: every character is one XML 1.0 allows (its `Char`
 * production), every `&` starts one of XML's five entities or a character reference to an allowed
 * character, `]]>` never appears, and the project's own parser reads it. The parser alone is
 * not enough: it is tolerant of a bare `&` and of unknown entities, as BrickLink's own files need.
 * Returns what is wrong, or null.
 */
export function strictXmlProblem(text: string): string | null {
  const forbidden =
    // eslint-disable-next-line no-control-regex -- looking for the characters XML forbids
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(
      text,
    );
  if (forbidden !== null) {
    return `the character U+${forbidden[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at offset ${forbidden.index} is not allowed in XML`;
  }
  const reference = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9A-Fa-f]+));/y;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    reference.lastIndex = at;
    const m = reference.exec(text);
    if (m === null) return `a bare "&" at offset ${at}`;
    const cp = m[2] !== undefined ? Number(m[2]) : m[3] !== undefined ? parseInt(m[3], 16) : null;
    const allowed =
      cp === null ||
      cp === 0x9 ||
      cp === 0xa ||
      cp === 0xd ||
      (cp >= 0x20 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0xfffd) ||
      (cp >= 0x10000 && cp <= 0x10ffff);
    if (!allowed) return `the reference ${m[0]} at offset ${at} names a character XML does not allow`;
  }
  // Outside CDATA (which brick-work never writes) "]]>" is not allowed.
  if (text.includes(']]>')) return 'the text holds "]]>"';
  try {
    parseXml(text, 'export.xml', {});
  } catch (e) {
    return (e as Error).message;
  }
  return null;
}
