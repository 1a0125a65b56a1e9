/**
 * A list on paper as one HTML page (SPEC §16): what Electron prints through its own printing, and what the
 * CLI writes with `--html`. Self-contained (pictures inlined, no script, no remote address), so it prints
 * the same offline, and `@page` sets the paper and its orientation.
 */
import { rowWhat, rowWhere, type PrintableList, type PrintLayout } from './printable.ts';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const PAPER_CSS = { a4: 'A4', letter: 'letter' } as const;

const STYLE = `
  * { box-sizing: border-box; }
  body { font: 10pt/1.3 "Helvetica Neue", Helvetica, Arial, sans-serif; color: #000; margin: 0; }
  h1 { font-size: 15pt; margin: 0 0 2pt; }
  p.subtitle { margin: 0 0 8pt; color: #333; }
  table { width: 100%; border-collapse: collapse; }
  thead { display: table-header-group; }
  th { text-align: left; font-size: 8pt; color: #333; border-bottom: 1pt solid #000; padding: 2pt 4pt; }
  td { border-bottom: 0.5pt solid #999; padding: 3pt 4pt; vertical-align: middle; }
  tr { break-inside: avoid; }
  td.tick span { display: inline-block; width: 11pt; height: 11pt; border: 1pt solid #000; }
  td.where { font-size: 15pt; font-weight: bold; white-space: nowrap; }
  td.where.none { font-size: 9pt; font-weight: normal; font-style: italic; }
  td.qty { font-size: 13pt; font-weight: bold; text-align: right; white-space: nowrap; }
  td.picture img { width: 34pt; height: 34pt; object-fit: contain; display: block; }
  td.note { font-size: 9pt; }
  section.apart { margin-top: 10pt; break-inside: avoid; }
  section.apart h2 { font-size: 11pt; margin: 0 0 2pt; }
  section.apart ul { margin: 0; padding-left: 14pt; }
`;

function pictureCell(picture: Uint8Array | null): string {
  if (picture === null) return '<td class="picture"></td>';
  const data = Buffer.from(picture).toString('base64');
  return `<td class="picture"><img alt="" src="data:image/png;base64,${data}"></td>`;
}

/** The list as a printable HTML page laid out as `layout` says. */
export function printableHtml(list: PrintableList, layout: PrintLayout): string {
  const head = [
    '<th class="tick"></th>',
    '<th>Location</th>',
    layout.pictures ? '<th></th>' : '',
    '<th>Item</th>',
    '<th>Colour</th>',
    `<th class="qty">${esc(list.quantityHeading)}</th>`,
    '<th>Note</th>',
  ].join('');
  const rows = list.rows.map((r) =>
    [
      '<tr>',
      '<td class="tick"><span></span></td>',
      `<td class="where${r.location === null ? ' none' : ''}">${esc(rowWhere(r))}</td>`,
      layout.pictures ? pictureCell(r.picture) : '',
      `<td class="what">${esc(rowWhat(r))}</td>`,
      `<td class="colour">${esc(r.colour ?? '')}</td>`,
      `<td class="qty">${r.quantity.toLocaleString('en-US')}</td>`,
      `<td class="note">${esc(r.note ?? '')}</td>`,
      '</tr>',
    ].join(''),
  );
  const apart = list.apart
    .filter((a) => a.lines.length > 0)
    .map(
      (a) =>
        `<section class="apart"><h2>${esc(a.heading)}</h2><ul>${a.lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul></section>`,
    );
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Nothing but itself: no script, no address, pictures only as data.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    `<title>${esc(list.title)}</title>`,
    `<style>@page { size: ${PAPER_CSS[layout.paper]} ${layout.orientation}; margin: 12mm; }${STYLE}</style>`,
    '</head><body>',
    `<h1>${esc(list.title)}</h1>`,
    `<p class="subtitle">${esc(list.subtitle)}</p>`,
    `<table><thead><tr>${head}</tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
    ...apart,
    '</body></html>',
    '',
  ].join('\n');
}
