import type { GivenItem } from '../placement/rule.ts';

export type DocumentFormat = 'bricklink-order' | 'bricklink-xml' | 'brickstore' | 'brickstock' | 'csv';

/** Each format as staff call it. */
export const FORMAT_NAMES: Readonly<Record<DocumentFormat, string>> = {
  'bricklink-order': 'BrickLink order XML',
  'bricklink-xml': 'BrickLink XML',
  brickstore: 'BrickStore document',
  // BrickStore's predecessor: read as BrickStore, named for what it is.
  brickstock: 'BrickStock file',
  csv: 'CSV part list',
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
}

/** One document of a file (a BrickLink file with several ORDERs holds several). */
export interface ParsedDocument {
  /** `bricklink-order:<ORDERID>`, or the file's base name. */
  readonly key: string;
  readonly fileName: string;
  readonly format: DocumentFormat;
  readonly header: DocumentHeader;
  readonly lines: readonly ParsedLine[];
}

export const NO_HEADER: DocumentHeader = {
  reference: null,
  counterparty: null,
  counterpartyRole: null,
  currency: null,
  orderDate: null,
};
