import zlib from 'node:zlib';

/** Catalogue files as BrickLink and Rebrickable publish them, made by the tests. */
export const files = {
  bricklinkItemsXml: (items: { type: string; no: string; name: string; category?: number }[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<CATALOG>\n${items
      .map(
        (i) =>
          `<ITEM>\n<ITEMTYPE>${i.type}</ITEMTYPE>\n<ITEMID>${i.no}</ITEMID>\n<ITEMNAME>${i.name}</ITEMNAME>\n<CATEGORY>${i.category ?? 5}</CATEGORY>\n</ITEM>`,
      )
      .join('\n')}\n</CATALOG>\n`,
  bricklinkColoursXml: (colours: { id: number; name: string }[]) =>
    `<CATALOG>${colours.map((c) => `<ITEM><COLOR>${c.id}</COLOR><COLORNAME>${c.name}</COLORNAME><COLORRGB>FFFFFF</COLORRGB><COLORTYPE>Solid</COLORTYPE></ITEM>`).join('')}</CATALOG>`,
  bricklinkCategoriesXml: (cats: { id: number; name: string }[]) =>
    `<CATALOG>${cats.map((c) => `<ITEM><CATEGORY>${c.id}</CATEGORY><CATEGORYNAME>${c.name}</CATEGORYNAME></ITEM>`).join('')}</CATALOG>`,
  bricklinkItemsTab: (items: { no: string; name: string; category?: number }[]) =>
    `Category ID\tCategory Name\tNumber\tName\tWeight (in Grams)\n${items.map((i) => `${i.category ?? 5}\tBrick\t${i.no}\t${i.name}\t2.3`).join('\n')}\n`,
  bricklinkColoursTab: (colours: { id: number; name: string }[]) =>
    `Color ID\tColor Name\tRGB\tType\tParts\tIn Sets\n${colours.map((c) => `${c.id}\t${c.name}\tFFFFFF\tSolid\t1\t1`).join('\r\n')}\r\n`,
  bricklinkCategoriesTab: (cats: { id: number; name: string }[]) =>
    `Category ID\tCategory Name\n${cats.map((c) => `${c.id}\t${c.name}`).join('\n')}\n`,
  rebrickableParts: (parts: { no: string; name: string; category?: number }[]) =>
    `part_num,name,part_cat_id,part_material\n${parts.map((p) => `${p.no},${csvCell(p.name)},${p.category ?? 11},Plastic`).join('\n')}\n`,
  rebrickableCategories: (cats: { id: number; name: string }[]) =>
    `id,name\n${cats.map((c) => `${c.id},${csvCell(c.name)}`).join('\n')}\n`,
  rebrickableSets: (sets: { no: string; name: string }[]) =>
    `set_num,name,year,theme_id,num_parts,img_url\n${sets.map((s) => `${s.no},${csvCell(s.name)},2010,1,100,https://x/y.jpg`).join('\n')}\n`,
  rebrickableColours: () => 'id,name,rgb,is_trans,num_parts,num_sets,y1,y2\n0,Black,05131D,False,1,1,1957,2026\n',
  rebrickableMinifigs: () => 'fig_num,name,num_parts,img_url\nfig-000001,Toy Store Employee,4,https://x\n',
  /** BrickLink's codes download: item, BrickLink colour name, LEGO element id. */
  bricklinkCodes: (codes: { no: string; colour: string; element: string }[]) =>
    `Item No\tColor\tCode\n${codes.map((c) => `${c.no}\t${c.colour}\t${c.element}`).join('\n')}\n`,
  /** Rebrickable's elements.csv: element id, Rebrickable part and colour id. */
  rebrickableElements: (elements: { element: string; part: string; colour: number }[]) =>
    `element_id,part_num,color_id,design_id\n${elements.map((e) => `${e.element},${e.part},${e.colour},`).join('\n')}\n`,
  rebrickableRelationships: (rels: { type: string; child: string; parent: string }[]) =>
    `rel_type,child_part_num,parent_part_num\n${rels.map((r) => `${r.type},${r.child},${r.parent}`).join('\n')}\n`,
  /** Rebrickable's colour list as its API gives it, each colour with its BrickLink, LDraw and LEGO ids and names. */
  rebrickableColourTable: (
    colours: {
      id: number;
      name: string;
      bricklink?: { id: number; name: string };
      ldraw?: { id: number; name: string };
      lego?: { id: number; names: string[] };
    }[],
  ) =>
    JSON.stringify({
      count: colours.length,
      results: colours.map((c) => ({
        id: c.id,
        name: c.name,
        rgb: 'FFFFFF',
        is_trans: false,
        external_ids: {
          ...(c.bricklink ? { BrickLink: { ext_ids: [c.bricklink.id], ext_descrs: [[c.bricklink.name]] } } : {}),
          ...(c.ldraw ? { LDraw: { ext_ids: [c.ldraw.id], ext_descrs: [[c.ldraw.name]] } } : {}),
          ...(c.lego ? { LEGO: { ext_ids: [c.lego.id], ext_descrs: [c.lego.names] } } : {}),
        },
      })),
    }),
  /** Rebrickable's part cross-references, as the RON text that carries them. */
  partCrossrefs: (parts: { rebrickable: string; ldraw?: string; bricklink: string[] }[]) =>
    `// Rebrickable part_num -> external-id cross-references.\n\nRbCrossRefPin(\n    generated: "2026-06-23",\n    parts: {\n${parts
      .map(
        (p) =>
          `        "${p.rebrickable}": (ldraw: "${p.ldraw ?? p.rebrickable}", external_ids: {${p.bricklink.length ? `"BrickLink": [${p.bricklink.map((b) => `"${b}"`).join(', ')}], ` : ''}"BrickOwl": ["1"]}),`,
      )
      .join('\n')}\n    },\n)\n`,
};

function csvCell(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function gzip(text: string): Uint8Array {
  return zlib.gzipSync(text);
}

/** The translation tables (issue 24), small: BrickLink codes, Rebrickable elements, colour table, cross-references, relationships. */
export const TABLES = {
  codes: files.bricklinkCodes([
    { no: '3001', colour: 'Red', element: '300121' },
    { no: '3001', colour: 'Bright Light Orange', element: '4211050' },
    { no: '4073', colour: 'Black', element: '614126' },
  ]),
  elements: files.rebrickableElements([
    { element: '300121', part: '3001', colour: 4 },
    { element: '6141265', part: '6141', colour: 70 },
  ]),
  colourTable: files.rebrickableColourTable([
    {
      id: 4,
      name: 'Red',
      bricklink: { id: 5, name: 'Red' },
      ldraw: { id: 4, name: 'Red' },
      lego: { id: 21, names: ['Bright Red', 'BR.RED'] },
    },
    {
      id: 70,
      name: 'Reddish Brown',
      bricklink: { id: 88, name: 'Reddish Brown' },
      ldraw: { id: 70, name: 'Reddish_Brown' },
      lego: { id: 192, names: ['Reddish Brown', 'RE. BROWN'] },
    },
    {
      id: 1,
      name: 'Blue',
      bricklink: { id: 7, name: 'Blue' },
      ldraw: { id: 1, name: 'Blue' },
      lego: { id: 23, names: ['Bright Blue', 'BR.BLUE'] },
    },
    { id: 1088, name: 'Medium Brown', lego: { id: 368, names: ['MEDIUM BROWN'] } },
  ]),
  crossrefs: files.partCrossrefs([
    { rebrickable: '6141', bricklink: ['4073'] },
    { rebrickable: '3069b', bricklink: ['3069'] },
    { rebrickable: '100662pat0001pr0001', ldraw: '100662p01', bricklink: ['100662pb01', '100662pb04'] },
  ]),
  relationships: files.rebrickableRelationships([
    { type: 'M', child: '3794a', parent: '3794b' },
    { type: 'P', child: '3069bpr0001', parent: '3069b' },
    { type: 'A', child: '30241', parent: '60475b' },
  ]),
};
