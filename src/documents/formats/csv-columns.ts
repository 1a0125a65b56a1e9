/**
 * The one table of CSV column titles each field goes by: BrickStore's (XML names and screen titles),
 * Rebrickable's, BrickLink Studio's, the small BrickLink tools' (`part_no`, `color_id`, …) and plain ones.
 * Titles match without regard to case, spaces and underscores (`columnKey`), so each is listed once.
 */
const COLUMN_TITLES = {
  type: ['Item Type', 'ItemTypeID', 'Type'],
  no: ['Number', 'No', 'Part', 'Part #', 'Part No', 'Part Number', 'Item ID', 'Item No', 'Item Number', 'BL Item No'],
  name: ['Name', 'Item Name', 'Description', 'Part Name', 'Part Description'],
  colourId: ['Color ID', 'Colour ID', 'Color Number', 'Colour Number', 'BL Color ID'],
  colour: ['Colour', 'Color', 'Color Name', 'Colour Name', 'Color Description', 'Colour Description'],
  quantity: ['Quantity', 'Qty', 'Qty.', 'Count'],
  price: ['Price', 'Unit Price'],
  condition: ['Condition', 'Cond.', 'Cond'],
  remarks: ['Remarks', 'Remark', 'Comments', 'Comment'],
  currency: ['Currency'],
  // Studio's other numbers for a part: not used to place it, kept in the remarks for staff.
  ldrawId: ['LDraw ID'],
  elementId: ['Element ID'],
} satisfies Record<string, readonly string[]>;

export type CsvField = keyof typeof COLUMN_TITLES;

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

/** What the table above reads, in staff's words: said when a header names neither a number nor a name. */
export const UNDERSTOOD_COLUMNS =
  'brick-work reads a part number column (such as Number, Part No or Item ID) or a name column ' +
  '(Name or Description), and optionally colour (Color ID or Color), quantity (Qty), price, condition and remarks.';
