/**
 * The one table of CSV column titles each field goes by: BrickStore's (XML names and screen titles),
 * Rebrickable's, BrickLink Studio's, BrickLink's order download, the small tools' (`part_no`, `color_id`,
 * `BrickLink ID`, …) and plain ones. Titles match without regard to case, spaces and underscores
 * (`columnKey`), so each is listed once. A colour-number column says its numbering by its title where it
 * can (`BLColorId`, `LDraw Color`); `colourNumber` and `colour` are bare: their numbering is the list's
 * shape, staff's choice, or a guess the preview warns of (SPEC §8).
 */
const COLUMN_TITLES = {
  type: ['Item Type', 'ItemTypeID', 'Type'],
  no: [
    'Number',
    'No',
    'Part',
    'Part #',
    'Part No',
    'Part Number',
    'Item ID',
    'Item No',
    'Item Number',
    'BL Item No',
    'BL Item Number',
    'BrickLink ID',
    'BrickLink No',
    'BrickLink Number',
    'BrickLink Item No',
    'BrickLink Item Number',
    'BrickLink Part',
    'BrickLink Part No',
    'BrickLink Part Number',
    'BL ID',
    'BL No',
    'BL Part',
    'BL Part No',
    'BL Part Number',
    // LEGO's design id is the mould's number, which BrickLink's numbers follow for most parts.
    'Design ID',
    'Design No',
    'Design Number',
  ],
  name: ['Name', 'Item Name', 'Description', 'Item Description', 'Part Name', 'Part Description'],
  // The title says BrickLink's numbering: BrickLink's own field name (API `color_id`, BrickStore's `ColorID`).
  colourId: [
    'Color ID',
    'Colour ID',
    'BL Color ID',
    'BL Colour ID',
    'BL Color',
    'BL Colour',
    'BrickLink Color',
    'BrickLink Colour',
    'BrickLink Color ID',
    'BrickLink Colour ID',
  ],
  colourRebrickable: [
    'Rebrickable Color',
    'Rebrickable Colour',
    'Rebrickable Color ID',
    'Rebrickable Colour ID',
    'RB Color',
    'RB Colour',
    'RB Color ID',
    'RB Colour ID',
  ],
  colourLdraw: [
    'LDraw Color',
    'LDraw Colour',
    'LDraw Color ID',
    'LDraw Colour ID',
    'LDraw Color Code',
    'LDraw Colour Code',
    'LDraw Color Number',
    'LDraw Colour Number',
  ],
  // A colour number whose title names no numbering.
  colourNumber: ['Color Code', 'Colour Code', 'Color Number', 'Colour Number', 'Color No', 'Colour No'],
  // A colour name, or (a bare column of numbers) a colour number whose title names no numbering.
  colour: ['Colour', 'Color', 'Color Name', 'Colour Name', 'Color Description', 'Colour Description'],
  quantity: [
    'Quantity',
    'Qty',
    'Qty.',
    // Rebrickable's older part lists (`Part,Color,Num`).
    'Num',
    'Count',
    'Amount',
    'Pieces',
    'Pcs',
    'Pcs.',
    'Piece Count',
    'Number of Pieces',
    'Quantity Wanted',
    'Wanted Qty',
    'Min Qty',
    'Quantity Ordered',
    'Qty Ordered',
  ],
  price: ['Price', 'Unit Price', 'Each', 'Price Each'],
  condition: ['Condition', 'Cond.', 'Cond'],
  remarks: ['Remarks', 'Remark', 'Comments', 'Comment'],
  currency: ['Currency'],
  // Rebrickable's spare parts flag: the line stays, and says so in its remarks.
  spare: ['Is Spare', 'Spare'],
  // Other numbers for a part, kept in the remarks beside a number column; LEGO's element id places a line
  // its number does not (SPEC §6 step 3), and a list whose only number it is places by it (csv.ts).
  ldrawId: ['LDraw ID', 'LDraw No', 'LDraw Part'],
  elementId: ['Element ID', 'Element', 'Element No', 'Element Number', 'LEGO Element ID'],
  // BrickLink's id of a lot in a store's inventory, kept for its Mass Update (SPEC §16).
  lotId: ['Lot ID', 'LotID', 'Lot No', 'Lot Number', 'BrickLink Lot ID'],
} satisfies Record<string, readonly string[]>;

export type CsvField = keyof typeof COLUMN_TITLES;

/** What each field's column is read as, in the preview's words. */
export const FIELD_WORDS: Readonly<Record<CsvField, string>> = {
  type: 'item type',
  no: 'number',
  name: 'name',
  colourId: 'BrickLink colour number',
  colourRebrickable: 'Rebrickable colour number',
  colourLdraw: 'LDraw colour number',
  colourNumber: 'colour number',
  colour: 'colour',
  quantity: 'quantity',
  price: 'price',
  condition: 'condition',
  remarks: 'remarks',
  currency: 'currency',
  spare: 'spare (in the remarks)',
  ldrawId: 'LDraw number (in the remarks)',
  elementId: 'LEGO element id (in the remarks; it places a line its number does not)',
  lotId: 'BrickLink lot id',
};

/** A column title as matched: lower case, without spaces and underscores (`Part_No`, `part no`, `PartNo` alike). */
export function columnKey(title: string): string {
  return title.toLowerCase().replace(/[\s_]+/g, '');
}

const KEYS: readonly (readonly [CsvField, ReadonlySet<string>])[] = Object.entries(COLUMN_TITLES).map(
  ([field, titles]) => [field as CsvField, new Set(titles.map(columnKey))],
);

/** Where each field's column is in a header row (its first matching column), or -1 when it has none. */
export function columnsOf(header: readonly string[]): Record<CsvField, number> {
  const keys = header.map(columnKey);
  return Object.fromEntries(KEYS.map(([field, names]) => [field, keys.findIndex((k) => names.has(k))])) as Record<
    CsvField,
    number
  >;
}

/**
 * The columns a reader read (each with what it read it as) and the titles of those it did not, in the
 * file's order. `used` maps a column's index to its words; an untitled column counts only when it holds
 * something, and is named by its place.
 */
export function columnsReport(
  header: readonly string[],
  used: ReadonlyMap<number, string>,
  holdsSomething: (index: number) => boolean,
): { read: { title: string; as: string }[]; notRead: string[] } {
  const read: { title: string; as: string }[] = [];
  const notRead: string[] = [];
  header.forEach((raw, i) => {
    const as = used.get(i);
    const title = raw.trim() === '' ? `(untitled column ${i + 1})` : raw.trim();
    if (as !== undefined) read.push({ title, as });
    else if (raw.trim() !== '' || holdsSomething(i)) notRead.push(title);
  });
  return { read, notRead };
}

/** What the table above reads, in staff's words: said when a header names neither a number nor a name. */
export const UNDERSTOOD_COLUMNS =
  'brick-work reads a part number column (such as Number, Part No, Item ID or BrickLink ID) or a name column ' +
  '(Name or Description), and optionally colour (Color ID or Color), quantity (Qty), price, condition and remarks.';
