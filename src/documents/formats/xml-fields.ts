import { childText, type XmlElement } from '../../text/xml.ts';

/** The children of `el` named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** A child's text, or null when missing or empty. */
export function field(el: XmlElement, name: string): string | null {
  const t = childText(el, name);
  return t === null || t === '' ? null : t;
}

/** BrickLink escapes `<` and `>` in remarks twice: undo the second escaping. */
export function unescapeTwice(text: string | null): string | null {
  return text === null ? null : text.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
