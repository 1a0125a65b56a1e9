import type { GivenItem } from '../placement/rule.ts';
import type { ColourNumbering, ColourNumberingHow, WarningCode } from '../vocabulary/reading.ts';

export type DocumentFormat =
  | 'bricklink-order'
  | 'bricklink-order-csv'
  | 'bricklink-xml'
  | 'brickstore'
  | 'brickstock'
  | 'csv'
  | 'rebrickable-csv'
  | 'bricklink-csv'
  | 'ldraw-model'
  | 'studio-model';

/** Each format as staff call it. */
export const FORMAT_NAMES: Readonly<Record<DocumentFormat, string>> = {
  'bricklink-order': 'BrickLink order XML',
  'bricklink-order-csv': 'BrickLink order download (CSV)',
  'bricklink-xml': 'BrickLink XML',
  brickstore: 'BrickStore document',
  // BrickStore's predecessor: read as BrickStore, named for what it is.
  brickstock: 'BrickStock file',
  csv: 'CSV part list',
  // Its numbers and colours are Rebrickable's (SPEC §6): the format says which numbering it speaks.
  'rebrickable-csv': 'Rebrickable part list',
  'bricklink-csv': 'CSV part list in BrickLink numbers',
  'ldraw-model': 'LDraw model',
  'studio-model': 'BrickLink Studio model',
};

/** The header a document gives, any part of which may be missing. */
export interface DocumentHeader {
  readonly reference: string | null;
  readonly counterparty: string | null;
  readonly counterpartyRole: 'seller' | 'buyer' | null;
  readonly currency: string | null;
  /** ISO date, yyyy-mm-dd. */
  readonly orderDate: string | null;
}

export interface ParsedLine {
  /** 1-based, in document order: revival pairs lines by it. */
  readonly position: number;
  readonly given: GivenItem;
  readonly quantity: number;
  /** Exact money: ten-thousandths of the currency unit. */
  readonly unitPriceE4: number | null;
  readonly condition: 'N' | 'U' | null;
  readonly remarks: string | null;
  /** Where the line is in the file, for messages. */
  readonly sourceLine: number;
  /** The file gives the colour only at the head of the name ("Black Plate 1 x 2"): the import reads it from there. */
  readonly colourInName?: boolean;
  /**
   * A list's colour number, in whichever numbering, and the colour name beside it, as the file gave them:
   * what the import reads the list's numbering by, and checks each against the other by (SPEC §8).
   */
  readonly listedColour?: { readonly number: number; readonly name: string | null };
  /** BrickLink's lot id, where the file gives one (a store's inventory download, BrickStore's LotID). */
  readonly lotId?: string | null;
  /** The column the read was asked to keep (`KeptColumn`), as the file gives it, trimmed; null where empty. */
  readonly kept?: string | null;
}

/**
 * A column read beside each line as the file gives it, for what it is to the caller (SPEC §16: a stock
 * lot's location): the format's remarks field, or a column — an XML field — named by its title, matched
 * regardless of case and spaces. A title the file does not have is refused, naming those it has.
 */
export interface KeptColumn {
  /** `remarks`: the format's remarks field (REMARKS, Remarks, a Remarks or Comments column); else a title. */
  readonly column: string;
  /** What it is read as, in the preview's words ("location"). */
  readonly as: string;
}

export { COLOUR_NUMBERING_NAMES, COLOUR_NUMBERINGS, WARNING_CODES } from '../vocabulary/reading.ts';
export type { ColourNumbering, ColourNumberingHow, WarningCode } from '../vocabulary/reading.ts';

/** What the reader assumed, which staff must see and acknowledge before the import (SPEC §8). */
export interface DocumentWarning {
  readonly code: WarningCode;
  readonly message: string;
}

/** How the reader read a document: the columns (or XML fields) it read and those it did not, its colour numbering, its warnings. */
export interface DocumentReading {
  /** Each column title read, with what it is read as ("quantity"); in the file's order. */
  readonly read: readonly { readonly title: string; readonly as: string }[];
  /** Titles of the columns (XML fields) present and not read: never invisible. */
  readonly notRead: readonly string[];
  /** The numbering of its colour numbers, or null when it gives none. */
  readonly colourNumbering: { readonly numbering: ColourNumbering; readonly how: ColourNumberingHow } | null;
  readonly warnings: readonly DocumentWarning[];
}

/** BrickLink's files and BrickStore's speak BrickLink's colour numbers by definition. */
export const BRICKLINK_BY_FORMAT = {
  numbering: 'bricklink',
  how: 'format',
} as const satisfies DocumentReading['colourNumbering'];

/** One document of a file (a BrickLink file with several ORDERs holds several). */
export interface ParsedDocument {
  /** `bricklink-order:<ORDERID>`, or the file's base name. */
  readonly key: string;
  readonly fileName: string;
  readonly format: DocumentFormat;
  readonly header: DocumentHeader;
  readonly lines: readonly ParsedLine[];
  readonly reading: DocumentReading;
}

export const NO_HEADER: DocumentHeader = {
  reference: null,
  counterparty: null,
  counterpartyRole: null,
  currency: null,
  orderDate: null,
};
