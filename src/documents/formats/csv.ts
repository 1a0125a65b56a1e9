import { BrickWorkError, quote } from '../../vocabulary/errors.ts';
import { itemTypeCode } from '../../vocabulary/item-types.ts';
import { elementRemark, otherNumberingColour } from '../../placement/rule.ts';
import type { CsvTable } from '../../text/csv.ts';
import { parseError } from '../../text/position.ts';
import {
  COLOUR_NUMBERING_NAMES,
  NO_HEADER,
  type ColourNumbering,
  type ColourNumberingHow,
  type DocumentReading,
  type DocumentWarning,
  type KeptColumn,
  type ParsedDocument,
  type ParsedLine,
} from '../model.ts';
import {
  limited,
  parseCondition,
  parseCurrency,
  parseMoneyE4,
  parseOptionalId,
  parseQuantity,
  textOrNull,
} from '../values.ts';
import { columnKey, columnsOf, columnsReport, FIELD_WORDS, UNDERSTOOD_COLUMNS, type CsvField } from './csv-columns.ts';
import { withoutStudioTotals } from './studio-totals.ts';

export interface CsvReadOptions {
  /** Staff's choice of the numbering the list's colour numbers are in (SPEC §8); else the reader's. */
  readonly colourNumbering?: ColourNumbering | null;
  /** A column read beside each line as given (SPEC §16: a stock lot's location). */
  readonly keep?: KeptColumn | null;
}

/**
 * The column a kept column names: the list's remarks column for `remarks` (-1 when it has none: nothing
 * kept), else the column of that title, matched as titles are; refused naming the columns there when none is.
 */
function keptColumnIndex(header: readonly string[], remarks: number, keep: KeptColumn, fileName: string): number {
  const wanted = columnKey(keep.column);
  if (wanted === 'remarks') return remarks;
  const index = header.findIndex((title) => columnKey(title) === wanted);
  if (index >= 0) return index;
  throw new BrickWorkError(
    'invalid-argument',
    `${fileName} has no column "${quote(keep.column)}" to read the ${keep.as} from; its columns are ${header
      .map((t) => t.trim())
      .filter((t) => t !== '')
      .join(', ')}.`,
  );
}

/** Rebrickable's part lists, by their exact columns: `Part,Color,Quantity` or the older `Part,Color,Num`, either with `Is Spare`. */
const REBRICKABLE_COLUMNS = new Set(['part', 'color', 'quantity', 'num', 'isspare']);

function isRebrickableList(keys: readonly string[]): boolean {
  return (
    keys[0] === 'part' &&
    keys.includes('color') &&
    (keys.includes('quantity') || keys.includes('num')) &&
    keys.every((k) => REBRICKABLE_COLUMNS.has(k))
  );
}

/** The colour-number columns whose title names their numbering, in the order one is preferred. */
type TitledColumn = readonly [CsvField, ColourNumbering];
const TITLED_COLOUR_COLUMNS: readonly TitledColumn[] = [
  ['colourId', 'bricklink'],
  ['colourRebrickable', 'rebrickable'],
  ['colourLdraw', 'ldraw'],
];

const WHOLE_NUMBER = /^\d+$/;

/** Each field's column in the header (-1: none). */
type ColumnIndices = Record<CsvField, number>;

/** A spare-part flag as Rebrickable and spreadsheets write it. */
function parseSpare(text: string | null, fileName: string, line: number): boolean {
  if (text === null || /^(false|f|no|n|0)$/i.test(text)) return false;
  if (/^(true|t|yes|y|1)$/i.test(text)) return true;
  throw parseError(fileName, `line ${line}: the spare flag "${quote(text)}" is neither yes nor no`);
}

/**
 * CSV part lists (SPEC §8) with a header row: BrickStore's columns, Rebrickable part lists
 * (`Part,Color,Quantity`, `Part,Color,Num`, with or without `Is Spare`), BrickLink Studio's exported
 * parts lists, small tools' lists, or a plain `number,name,colour,quantity,price`; comma, semicolon or tab.
 * Column titles: `csv-columns.ts`. Nothing is guessed silently: a list without a quantity column, or
 * with colour numbers in no stated numbering, carries a warning staff must acknowledge. A colour number
 * in a numbering other than BrickLink's is the line's colour by that name ("Rebrickable colour 4"), which
 * the colour table translates (SPEC §6).
 */
export function readCsvDocument(table: CsvTable, fileName: string, options: CsvReadOptions = {}): ParsedDocument {
  const keys = table.header.map(columnKey);
  const at = columnsOf(table.header);
  const rows = withoutStudioTotals(table.rows);
  if (rows.length === 0) throw parseError(fileName, 'the file has a header row but no lines');
  // A list keyed by LEGO's element ids (Pick a Brick's `elementId,quantity`): they are its numbers,
  // which the element tables translate (SPEC §6 step 3). Beside a number column they stay in the remarks.
  const elementsAreNumbers = at.no < 0 && at.elementId >= 0;
  if (elementsAreNumbers) {
    at.no = at.elementId;
    at.elementId = -1;
  }
  if (at.no < 0 && at.name < 0) {
    throw new BrickWorkError(
      'parse-error',
      `${fileName} is not a part list brick-work knows: its first row ("${quote(table.header.slice(0, 6).join(', '))}") names no number or name column. ${UNDERSTOOD_COLUMNS}`,
    );
  }
  const keep = options.keep ?? null;
  const keptAt = keep === null ? null : keptColumnIndex(table.header, at.remarks, keep, fileName);
  const decimalComma = table.delimiter === ';';
  const cell = (cells: readonly string[], i: number) => (i < 0 ? null : textOrNull(cells[i]));

  const rebrickable = isRebrickableList(keys);
  const { titled, numberColumn, numbering } = colourNumberingOf(at, rebrickable, options);
  let colourNumbers = 0;
  let bareColumn: number | null = null;

  let currency: { code: string; line: number } | null = null;
  const lines: ParsedLine[] = rows.map(({ line, cells }, i) => {
    const rowCurrency = parseCurrency(cell(cells, at.currency), fileName, line);
    if (rowCurrency !== null) {
      if (currency !== null && currency.code !== rowCurrency) {
        throw parseError(
          fileName,
          `line ${line}: mixed currencies in one document: ${currency.code} (line ${currency.line}) and ${rowCurrency}`,
        );
      }
      currency ??= { code: rowCurrency, line };
    }
    const colourText = limited(cell(cells, at.colour), 'colourName', fileName, line);
    // A bare colour column holds names, or numbers in the list's numbering.
    const colourTextIsNumber = colourText !== null && WHOLE_NUMBER.test(colourText);
    let colourNumber = cell(cells, numberColumn);
    if (colourNumber === null && colourTextIsNumber) colourNumber = colourText;
    if (colourNumber !== null) {
      colourNumbers += 1;
      if (titled === undefined) bareColumn ??= cell(cells, numberColumn) !== null ? numberColumn : at.colour;
    }
    // A number in another numbering is the line's colour by that name ("Rebrickable colour 4"): the colour
    // table translates it to BrickLink's, once loaded (SPEC §6); until then the line shows it, unplaced by it.
    const otherNumber =
      colourNumber !== null && numbering.numbering !== 'bricklink'
        ? otherNumberingColour(
            COLOUR_NUMBERING_NAMES[numbering.numbering] as 'Rebrickable' | 'LDraw',
            String(Number(colourNumber)),
          )
        : null;
    const colourName = otherNumber ?? (colourTextIsNumber ? null : colourText);
    const nameBeside =
      otherNumber !== null && colourText !== null && !colourTextIsNumber ? `colour ${colourText}` : null;
    // Numbers brick-work doesn't place by, kept where staff see them (within the remarks' cap).
    // (An element id is kept in the form the placement rule reads back to place the line by: SPEC §6 step 3.)
    // A list of element ids says so beside each, as a list that gives them beside its numbers does: the
    // rule then knows the line gave an element id (its reason, SPEC §6).
    const element = cell(cells, elementsAreNumbers ? at.no : at.elementId);
    const ids = [labelled('LDraw', cell(cells, at.ldrawId)), element === null ? null : elementRemark(element)];
    const spare = parseSpare(cell(cells, at.spare), fileName, line) ? 'Spare' : null;
    const remarks = limited(
      [nameBeside, spare, ids.filter(Boolean).join(' · '), cell(cells, at.remarks)].filter(Boolean).join('; ') || null,
      'remarks',
      fileName,
      line,
    );
    const type = limited(cell(cells, at.type), 'type', fileName, line);
    const listedNumber = colourNumberOf(colourNumber, numbering.numbering, fileName, line);
    const lotId = limited(cell(cells, at.lotId), 'lotId', fileName, line);
    return {
      position: i + 1,
      given: {
        type: type === null ? null : itemTypeCode(type),
        no: limited(cell(cells, at.no), 'no', fileName, line),
        name: limited(cell(cells, at.name), 'name', fileName, line),
        colourId: numbering.numbering === 'bricklink' ? listedNumber : null,
        colourName,
      },
      quantity: parseQuantity(cell(cells, at.quantity), fileName, line, at.quantity < 0 ? 1 : null),
      unitPriceE4: parseMoneyE4(cell(cells, at.price), fileName, line, decimalComma),
      condition: parseCondition(cell(cells, at.condition), fileName, line),
      remarks,
      sourceLine: line,
      ...(lotId === null ? {} : { lotId }),
      ...(keptAt === null ? {} : { kept: limited(cell(cells, keptAt), 'kept', fileName, line) }),
      ...(listedNumber === null
        ? {}
        : { listedColour: { number: listedNumber, name: colourTextIsNumber ? null : colourText } }),
    };
  });

  const warnings = warningsOf(table.header, at, colourNumbers > 0 && numbering.how === 'guessed', bareColumn);
  const used = columnsUsed(at, titled, elementsAreNumbers, colourNumbers > 0 ? bareColumn : null);
  if (keep !== null && keptAt !== null && keptAt >= 0) {
    const words = used.get(keptAt);
    used.set(keptAt, words === undefined ? keep.as : `${words}; ${keep.as}`);
  }
  const reading: DocumentReading = {
    ...columnsReport(table.header, used, (index) => rows.some((r) => (r.cells[index] ?? '').trim() !== '')),
    colourNumbering: colourNumbers > 0 ? numbering : null,
    warnings,
  };
  return {
    key: fileName,
    fileName,
    format: csvFormat(rebrickable, elementsAreNumbers ? null : (table.header[at.no] ?? null)),
    header: { ...NO_HEADER, currency: currency === null ? null : (currency as { code: string }).code },
    lines,
    reading,
  };
}

/**
 * Which numbering a list's numbers are in, kept as its format (SPEC §6): a Rebrickable part list speaks
 * Rebrickable's; a list whose number column says BrickLink (Studio's `BLItemNo`, `BrickLink ID`) BrickLink's;
 * any other (`Part`, `Number`, LEGO's `Design ID`, element ids) does not say, and is read in any.
 */
function csvFormat(rebrickable: boolean, numberTitle: string | null): 'csv' | 'rebrickable-csv' | 'bricklink-csv' {
  if (rebrickable) return 'rebrickable-csv';
  return numberTitle !== null && /^(bricklink|bl)/.test(columnKey(numberTitle)) ? 'bricklink-csv' : 'csv';
}

/** The column that gives a line's colour number, and in which numbering (SPEC §8): staff's choice, a column's title, the list's shape, or else BrickLink's, guessed. */
function colourNumberingOf(
  at: ColumnIndices,
  rebrickable: boolean,
  options: CsvReadOptions,
): {
  readonly titled: TitledColumn | undefined;
  readonly numberColumn: number;
  readonly numbering: { numbering: ColourNumbering; how: ColourNumberingHow };
} {
  const titled = TITLED_COLOUR_COLUMNS.find(([field]) => at[field] >= 0);
  const numberColumn = titled !== undefined ? at[titled[0]] : at.colourNumber;
  const chosen = options.colourNumbering ?? null;
  const numbering: { numbering: ColourNumbering; how: ColourNumberingHow } =
    chosen !== null
      ? { numbering: chosen, how: 'chosen' }
      : titled !== undefined
        ? { numbering: titled[1], how: 'title' }
        : rebrickable
          ? { numbering: 'rebrickable', how: 'shape' }
          : { numbering: 'bricklink', how: 'guessed' };
  return { titled, numberColumn, numbering };
}

/**
 * What staff must acknowledge of a list: no quantity column; colour numbers in a numbering guessed
 * (`numberingGuessed`), named by the title of their column (`bareColumn`, else the colour column).
 */
function warningsOf(
  header: readonly string[],
  at: ColumnIndices,
  numberingGuessed: boolean,
  bareColumn: number | null,
): DocumentWarning[] {
  const warnings: DocumentWarning[] = [];
  if (at.quantity < 0) {
    warnings.push({
      code: 'no-quantity-column',
      message: 'This list has no quantity column: every line will count 1.',
    });
  }
  if (numberingGuessed) {
    const title = header[bareColumn ?? at.colour]?.trim() ?? 'colour';
    warnings.push({
      code: 'colour-numbering-guessed',
      message:
        `The "${quote(title)}" column gives colour numbers without saying whose: they are read as BrickLink's. ` +
        'Rebrickable and LDraw number colours differently; choose their numbering if the list came from there.',
    });
  }
  return warnings;
}

/**
 * What each column the list was read by gave, for the reading's report: the colour-number columns
 * only the one read (`titled`), the number column as element ids where they are the numbers, and a
 * bare colour column as colour numbers where it gave them (`colourNumberColumn`).
 */
function columnsUsed(
  at: ColumnIndices,
  titled: TitledColumn | undefined,
  elementsAreNumbers: boolean,
  colourNumberColumn: number | null,
): Map<number, string> {
  const used = new Map<number, string>();
  for (const [field, index] of Object.entries(at) as [CsvField, number][]) {
    if (index < 0) continue;
    if (field === 'colourNumber' && titled !== undefined) continue;
    if (field === 'colourRebrickable' || field === 'colourLdraw' || field === 'colourId') {
      if (titled?.[0] !== field) continue;
    }
    const words =
      field === 'no' && elementsAreNumbers
        ? 'LEGO element id'
        : field === 'colour' && colourNumberColumn === index
          ? 'colour number'
          : FIELD_WORDS[field];
    used.set(index, words);
  }
  return used;
}

/**
 * A line's colour number as a number: BrickLink's must be a whole number; another numbering's is not
 * checked here (its colour's name keeps what the file wrote), and is null when it is none.
 */
function colourNumberOf(
  text: string | null,
  numbering: ColourNumbering,
  fileName: string,
  line: number,
): number | null {
  if (numbering === 'bricklink') return parseOptionalId(text, 'colour number', fileName, line);
  return text !== null && /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** "LDraw 3003", or null when there is no value. */
function labelled(label: string, value: string | null): string | null {
  return value === null ? null : `${label} ${value}`;
}
