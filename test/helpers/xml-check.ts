import { parseXml, parseXmlTree } from '../../src/text/xml.ts';

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

/**
 * What BrickLink's help pages require of an XML file it imports ("Importing items on BrickLink with XML",
 * "Mass Inventory Upload", wanted lists), as a list of problems (empty: none): no XML declaration; an
 * `INVENTORY` root of `ITEM`s; each item with `ITEMTYPE`, `ITEMID` and `COLOR` (0 for items without a
 * colour: sets, minifigures, books, …); a mass upload's `QTY` of at least 1, its `PRICE` (where given) above
 * 0 in at most thousandths, and `CONDITION` N/U; a wanted list's `MINQTY` and `CONDITION` N/U/X; and no
 * remarks that carry what brick-work's readers noted for themselves (issue 64 §4).
 */
export function bricklinkXmlProblems(text: string, kind: 'upload' | 'wanted'): string[] {
  const problems: string[] = [];
  if (/^\uFEFF?\s*<\?xml/.test(text)) problems.push('it starts with an XML declaration, which BrickLink refuses');
  const root = parseXmlTree(text, 'export.xml');
  if (root.name !== 'INVENTORY') problems.push(`its root is ${root.name}, not INVENTORY`);
  root.children.forEach((item, i) => {
    const at = `item ${i + 1}`;
    if (item.name !== 'ITEM') problems.push(`${at} is ${item.name}, not ITEM`);
    const field = (name: string) => item.children.find((c) => c.name === name)?.text.trim();
    const type = field('ITEMTYPE');
    if (type === undefined || !/^[PSMBGCIO]$/.test(type)) problems.push(`${at}: ITEMTYPE ${type ?? 'missing'}`);
    if (!field('ITEMID')) problems.push(`${at}: no ITEMID`);
    const colour = field('COLOR');
    if (colour === undefined || !/^\d+$/.test(colour)) problems.push(`${at}: COLOR ${colour ?? 'missing'}`);
    else if (type !== 'P' && type !== 'G' && colour !== '0')
      problems.push(`${at}: a ${type} item with COLOR ${colour}`);
    // What the readers noted for themselves never goes back (issue 64 §4); a description goes as DESCRIPTION.
    const remarks = field('REMARKS') ?? '';
    if (/(?:^|; | · )(?:LDraw part |Element \d|Description: )/.test(remarks))
      problems.push(`${at}: REMARKS carry a reader's note: ${remarks}`);
    if (kind === 'upload') {
      // A mass upload makes new lots: a lot id is the Mass Update's, which changes lots the store has.
      if (field('LOTID') !== undefined) problems.push(`${at}: a LOTID in a mass upload`);
      const qty = field('QTY');
      if (qty === undefined || !/^[1-9]\d*$/.test(qty)) problems.push(`${at}: QTY ${qty ?? 'missing'}`);
      // A price in BrickLink's thousandths, never 0.00; a lot without one has no PRICE (its verification asks).
      const price = field('PRICE');
      if (price !== undefined && (!/^\d*\.?\d{1,3}$/.test(price) || Number(price) <= 0))
        problems.push(`${at}: PRICE ${price}`);
      if (!['N', 'U'].includes(field('CONDITION') ?? ''))
        problems.push(`${at}: CONDITION ${field('CONDITION') ?? 'missing'}`);
    } else {
      const min = field('MINQTY');
      if (min === undefined || !/^[1-9]\d*$/.test(min)) problems.push(`${at}: MINQTY ${min ?? 'missing'}`);
      if (!['N', 'U', 'X'].includes(field('CONDITION') ?? ''))
        problems.push(`${at}: CONDITION ${field('CONDITION') ?? 'missing'}`);
    }
  });
  return problems;
}

/**
 * What BrickLink's help page "Mass Inventory Update" (help.asp?helpID=251) requires of the XML that
 * changes lots a store already has, as a list of problems (empty: none): no XML declaration; an
 * `INVENTORY` root of `ITEM`s; each with its `LOTID` (the one required tag: the lot's id, a number);
 * a `QTY`, where given, as a change with its sign (`+12`, `-3`: "you can only add or subtract quantity,
 * not set it"), and not 0; nothing that names an item (`ITEMID`, `ITEMTYPE`, `COLOR`: the lot id does);
 * no empty tag (BrickLink reads one as a wrong file); and — brick-work's own rule, since the page does
 * not say what two changes of one lot in one file do — each lot once.
 */
export function bricklinkMassUpdateProblems(text: string): string[] {
  const problems: string[] = [];
  if (/^\uFEFF?\s*<\?xml/.test(text)) problems.push('it starts with an XML declaration, which BrickLink refuses');
  const root = parseXmlTree(text, 'update.xml');
  if (root.name !== 'INVENTORY') problems.push(`its root is ${root.name}, not INVENTORY`);
  if (root.children.length === 0) problems.push('it has no ITEM');
  const seen = new Set<string>();
  root.children.forEach((item, i) => {
    const at = `item ${i + 1}`;
    if (item.name !== 'ITEM') problems.push(`${at} is ${item.name}, not ITEM`);
    const field = (name: string) => item.children.find((c) => c.name === name)?.text.trim();
    const lot = field('LOTID');
    if (lot === undefined || !/^[1-9]\d*$/.test(lot)) problems.push(`${at}: LOTID ${lot ?? 'missing'}`);
    else if (seen.has(lot)) problems.push(`${at}: LOTID ${lot} a second time`);
    else seen.add(lot);
    const qty = field('QTY');
    if (qty !== undefined && !/^[+-][1-9]\d*$/.test(qty)) problems.push(`${at}: QTY ${qty}, not a change (+N or -N)`);
    for (const named of ['ITEMID', 'ITEMTYPE', 'COLOR'])
      if (field(named) !== undefined) problems.push(`${at}: ${named} in a mass update (the lot id names the lot)`);
    for (const c of item.children) if (c.text.trim() === '') problems.push(`${at}: an empty ${c.name}`);
  });
  return problems;
}
