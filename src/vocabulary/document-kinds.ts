/**
 * The kinds of document brick-work imports (src/documents/read-document.ts tells them apart by what they
 * hold), each with the readers in src/documents/formats/ that read it and the file names it comes under:
 * named once for every side — the open dialog's filter, a command line's documents, and the document
 * types the Mac app declares (package.json's `build`, so each can be dropped on the Dock icon).
 */
export interface DocumentKind {
  /** As Finder names it (Get Info's Kind). */
  readonly name: string;
  /** The functions of src/documents/formats/ that read it. */
  readonly readers: readonly string[];
  /** The extensions it comes under, lower case, without the dot. */
  readonly extensions: readonly string[];
}

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  { name: 'BrickStore document', readers: ['readBrickStore'], extensions: ['bsx'] },
  { name: 'BrickLink XML', readers: ['readBrickLinkOrders', 'readBrickLinkXml'], extensions: ['xml'] },
  {
    name: 'Part list',
    readers: ['readCsvDocument', 'readBrickLinkOrdersCsv'],
    extensions: ['csv', 'tsv', 'txt'],
  },
  { name: 'LDraw model', readers: ['readLdrawModel'], extensions: ['ldr', 'mpd', 'dat'] },
  { name: 'BrickLink Studio model', readers: ['readStudioModel'], extensions: ['io'] },
];

/** What an order document may be called (the open dialog's filter, a command line, a drop). */
export const DOCUMENT_EXTENSIONS: readonly string[] = DOCUMENT_KINDS.flatMap((k) => k.extensions);
