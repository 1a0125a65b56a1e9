/**
 * The one contract between the screens and the core (SPEC §1): every call the renderer can make, with
 * its arguments and result, and every event it can receive. The Electron IPC adapter and the browser
 * host both serve exactly this; the preload object is checked against `BrickWorkApi` with `satisfies`.
 *
 * Self-contained on purpose: the renderer imports these types, and nothing of the core comes with them
 * (only the root modules' lists — item types, setting keys, reason codes, suggestion rules — plain data).
 * Calls that take a file take `{name, content}`: the renderer never names a path.
 */

import type { ItemType } from '../vocabulary/item-types.ts';
import type { SETTING_FIELDS, SettingKey } from '../vocabulary/setting-keys.ts';
import type { ColourNumbering, ColourNumberingHow, WarningCode } from '../vocabulary/reading.ts';
import type { PlacementConfirmation } from '../vocabulary/confirmations.ts';
import type { CompareGroup } from '../vocabulary/compare-kinds.ts';
import type { ExportTarget, LeftOutLine, SharedNumberLine } from '../vocabulary/export-kinds.ts';
import type { ReasonCode } from '../vocabulary/reasons.ts';
import type { SuggestionRule } from '../vocabulary/suggestion-rules.ts';
import type { ArgumentsOf, CallName } from './arguments.ts';

export type ItemTypeCode = ItemType;
export type { SettingKey };

export interface ErrorValue {
  readonly code: string;
  readonly message: string;
  /** `needs-acknowledgement` of `lines.place`: what to add to `confirm` for it to go ahead (SPEC §9). */
  readonly confirm?: PlacementConfirmation;
  /** `step-conflict`: the other desk's history step it names, which the screens offer to show (SPEC §8). */
  readonly step?: number;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorValue };

export interface FileArg {
  readonly name: string;
  readonly content: Uint8Array;
}

export interface OrderView {
  readonly id: number;
  readonly reference: string;
  readonly counterparty: string | null;
  readonly currency: string;
  readonly orderDate: string | null;
  readonly documents: number;
  readonly lines: number;
  readonly placed: number;
  readonly unplaced: number;
  readonly totalQuantity: number;
  readonly totalValue: string;
  /** 'undone' when every document of the order was taken back: shown as undone, left out of the exports. */
  readonly state: 'open' | 'undone';
  /** When an undone order's last document was taken back; null for an open order. */
  readonly undoneAt: string | null;
}

export interface DocumentView {
  readonly id: number;
  readonly key: string;
  readonly fileName: string;
  readonly format: string;
  /** The format as staff call it ("BrickStock file"). */
  readonly formatName: string;
  readonly state: 'imported' | 'undone';
  readonly importedAt: string;
  readonly undoneAt: string | null;
  readonly lines: number;
  readonly orderId: number;
  readonly orderReference: string;
  /**
   * An imported document's companions: the other documents still imported from the same file in the same
   * import (a BrickLink file with several ORDERs). Taking it back offers to take them back too.
   */
  readonly sameFile: readonly {
    readonly id: number;
    readonly key: string;
    readonly orderId: number;
    readonly orderReference: string;
  }[];
  /**
   * The store's newest history step when this was read: "Take back" names it as what the desk saw, and is
   * refused (`line-changed`) when another desk changed the document or its lines by a later step (SPEC §14).
   */
  readonly historyAt: number;
}

/** What "Take back this import" did: the step Undo now names, the documents taken back, and the file's others still imported. */
export interface TakeBackResultView {
  readonly step: StepView;
  readonly takenBack: readonly DocumentView[];
  readonly stillImported: DocumentView['sameFile'];
}

export interface GivenView {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
}

/** Why a line is unplaced: a stable code to decide by, and the text of SPEC §6 to show. */
export interface ReasonView {
  readonly code: ReasonCode;
  readonly text: string;
}

export interface PlacedView {
  readonly type: string;
  readonly no: string;
  readonly colour: number | null;
  /** The colour by name, as staff read it; null when the line has no colour or the catalogue has no colours. */
  readonly colourName: string | null;
  /** Its swatch (six hex digits), when the catalogue's colour list gave one. */
  readonly colourRgb: string | null;
  /** How another numbering placed it (SPEC §6 step 3): "element 4211050", "BrickLink 4073 = Rebrickable 6141"; else null. */
  readonly via: string | null;
  /**
   * The item's number as staff read it (SPEC §5): in the shop numbering first, the catalogue's beside it
   * when different — `4073 (Rebrickable 6141)`, `3794b (Rebrickable)` when the shop numbering has none.
   * The number is the line's, as its export writes it (issue 60 §4).
   */
  readonly shown?: string;
  /**
   * The other catalogue items its number in the shop numbering names too (`Rebrickable 3048c`): the shop
   * numbering does not tell them apart. Absent or empty when it names only this one.
   */
  readonly sharedWith?: readonly string[];
}

/** The catalogue's colour for the colour id a line gives: its name and swatch; null when it gives none or the catalogue lacks it. */
export type GivenColourView = { readonly name: string; readonly rgb: string | null } | null;

export interface LineRowView {
  readonly id: number;
  readonly documentKey: string;
  readonly position: number;
  readonly given: GivenView;
  readonly quantity: number;
  readonly unitPrice: string | null;
  readonly condition: 'N' | 'U' | null;
  readonly remarks: string | null;
  readonly placed: (PlacedView & { readonly by: string; readonly name: string | null }) | null;
  readonly givenColour: GivenColourView;
  readonly reason: ReasonView | null;
  /**
   * A line unplaced only for its colour already has its item (SPEC §9): the item the placement rule found,
   * which a colour chosen for the line places it on. Null for any other line.
   */
  readonly itemFound: { readonly type: ItemTypeCode; readonly no: string; readonly name: string | null } | null;
  /**
   * The remembered hand placement that placed the line, or refused it for its colour (SPEC §6 step 2): its
   * id for `placements.forget` (kind `item`, `seen` its type and number), and how it was taught
   * (`remembered — 970c00 in Sand Blue → 970c24, desk "front", 7 Dec 2026`). Null for any other line.
   */
  readonly memory?: { readonly id: number; readonly type: string; readonly no: string; readonly taught: string } | null;
}

/** What a hand placement did (SPEC §8): the line, the step Undo now names, what was remembered, and the other lines it placed. */
export interface PlaceResultView {
  readonly line: LineRowView;
  readonly step: StepView;
  readonly remembered: {
    readonly item: 'added' | 'changed' | 'kept' | null;
    readonly colour: 'added' | 'changed' | 'kept' | null;
    /** The line's given name, kept as an extra name of the item for suggestions (SPEC §7); null when it gives none or the item has it. */
    readonly name: 'added' | 'changed' | 'kept' | null;
  };
  readonly others: { readonly placed: number; readonly moved: number; readonly unplaced: number };
  /** The orders those other lines are in (their references). */
  readonly othersIn: readonly string[];
}

export interface SuggestionView {
  readonly type: ItemTypeCode;
  readonly no: string;
  /** Its number as staff read it: the shop numbering first (SPEC §5). `place` takes `no`, and this shop number where it names one item. */
  readonly shown?: string;
  /** The other catalogue items its shop number names too (`Rebrickable 3048c`); absent or empty when none. */
  readonly sharedWith?: readonly string[];
  readonly name: string;
  /** Which rule of SPEC §7 found it: related by the tables, longest prefix, all words, closest names, or by number. */
  readonly rule: SuggestionRule;
  /**
   * For `related`: the part a LEGO element id is (the element tables), the same part in another numbering,
   * an alternate, another mould, the plain part of a print, or a print of it.
   */
  readonly related?: 'element' | 'numbering' | 'alternate' | 'mould' | 'plain' | 'print';
  /** The line's words it matched (folded). */
  readonly matched: readonly string[];
  /** Where the words that matched stand in `name` (UTF-16 offsets, end exclusive), for the screen to highlight. */
  readonly marks: readonly (readonly [number, number])[];
  /** Set when it was found by a name staff taught (SPEC §7)… */
  readonly via?: 'taught';
  /** …and then that name. */
  readonly taughtName?: string;
  /**
   * The colour its picture is shown in (SPEC §15, the catalogue's id): the line's, where the element tables
   * make the item in it or say nothing of it; null — its usual picture — where they make it only in others.
   */
  readonly pictureColour?: number | null;
  /** Set when the tables say it is not made in the line's colour: that colour's name (its picture is its usual one). */
  readonly notMadeIn?: string;
}

/**
 * Suggestions, or none yet: `ready` is false while the suggestion index is being built (at the start,
 * and for a moment after the catalogue changes). The screen then says "Preparing suggestions…" and asks
 * again on `suggestions.status` `{ready: true}`.
 */
export interface SuggestionsView {
  readonly ready: boolean;
  readonly suggestions: readonly SuggestionView[];
  /**
   * Not ready, and not because the index is being built: it could not be (a store found damaged, …), in
   * words. The screen says this instead of "Preparing suggestions…"; the index is tried again when it can be.
   */
  readonly why?: ErrorValue;
}

export interface PreviewLineView {
  readonly position: number;
  readonly given: GivenView;
  readonly quantity: number;
  /** The line's remarks as it will keep them: the file's own, and what the reader noted (another numbering's colour, a spare). */
  readonly remarks: string | null;
  readonly placed: PlacedView | null;
  readonly givenColour: GivenColourView;
  readonly reason: ReasonView | null;
}

export interface PreviewDocumentView {
  readonly key: string;
  readonly format: string;
  /** The format as staff call it ("BrickStock file"). */
  readonly formatName: string;
  readonly header: {
    readonly reference: string | null;
    readonly counterparty: string | null;
    readonly currency: string | null;
    readonly orderDate: string | null;
  };
  readonly target:
    | { readonly kind: 'new'; readonly reference: string; readonly currency: string }
    | { readonly kind: 'order'; readonly orderId: number; readonly reference: string; readonly currency: string }
    | null;
  /** Set when importing this key revives an undone document. */
  readonly revival: {
    readonly documentId: number;
    readonly importedAt: string;
    readonly undoneAt: string | null;
    readonly pairs: readonly {
      readonly position: number;
      readonly lineId: number;
      readonly changed: readonly string[];
    }[];
  } | null;
  /** Its first lines (PREVIEW_PAGE); the others are asked page by page (`import.previewLines`), so that a big document's preview stays small. */
  readonly lines: readonly PreviewLineView[];
  readonly counts: { readonly total: number; readonly placed: number; readonly unplaced: number };
  /** The columns (XML fields) it reads, each with what it reads it as, and the titles of those it does not read (SPEC §8). */
  readonly columns: {
    readonly read: readonly { readonly title: string; readonly as: string }[];
    readonly notRead: readonly string[];
  };
  /**
   * The numbering its colour numbers are read in, how the reader knows (`guessed` carries a warning), and
   * whether staff may choose another (lists, not BrickLink's or BrickStore's files); null when a list gives
   * none (BrickLink's and BrickStore's files always speak BrickLink's).
   */
  readonly colourNumbering: {
    readonly numbering: ColourNumbering;
    readonly how: ColourNumberingHow;
    readonly choosable: boolean;
  } | null;
  /** What the reader assumed: the import is refused (`needs-acknowledgement`) until each is acknowledged. */
  readonly warnings: readonly ImportWarningView[];
  /** What refuses this document's import, unacknowledged warnings aside (the preview's `refusal` names those). */
  readonly refusal: ErrorValue | null;
  /** Set when this is refused as a duplicate: the imported document to take back first. */
  readonly duplicateOf: DocumentView | null;
}

export interface ImportWarningView {
  readonly code: WarningCode;
  readonly message: string;
  /** Whether the call acknowledged it. */
  readonly acknowledged: boolean;
}

export type ImportArgs = ArgsOf<'import.preview'>;

export interface ImportPreviewView {
  /** Names this preview for `import.previewLines` while it is kept (the last few previews are). */
  readonly previewId: string;
  readonly fileName: string;
  readonly documents: readonly PreviewDocumentView[];
  readonly refusal: ErrorValue | null;
}

/** Lines a preview shows at first, per document; the rest come by `import.previewLines`. */
export const PREVIEW_PAGE = 200;

export interface ImportResultView {
  readonly document: { readonly id: number; readonly key: string; readonly state: 'imported' };
  readonly order: { readonly id: number; readonly reference: string; readonly currency: string };
  readonly lines: { readonly total: number; readonly placed: number; readonly unplaced: number };
  readonly revived: boolean;
}

/** The shop's stock (SPEC §16): its current document, what it holds, and where its lots are. */
export interface StockInfoView {
  /** The stock order (its lines are the stock's lots: `lines.list` shows them, unplaced ones with their reasons). */
  readonly orderId: number;
  readonly documentId: number;
  readonly fileName: string;
  readonly importedAt: string;
  /** The desk that imported it; null: before desks were named. */
  readonly desk: string | null;
  readonly lots: number;
  readonly pieces: number;
  readonly unplaced: number;
  /** Different locations among its lots. */
  readonly locations: number;
  readonly lotsWithoutLocation: number;
  /** Lots with BrickLink's lot id (a Mass Update needs it). */
  readonly lotsWithLotId: number;
}

/** A stock document the import replaced, or would. */
export interface StockDocumentView {
  readonly documentId: number;
  readonly fileName: string;
  readonly importedAt: string;
}

/** The stock's preview: the import's, with what it keeps of each lot and the stock it replaces. */
export interface StockPreviewView extends ImportPreviewView {
  readonly stock: {
    /** `remarks`, or the column its locations are read from. */
    readonly locationFrom: string;
    readonly locations: number;
    readonly lotsWithoutLocation: number;
    readonly lotsWithLotId: number;
    readonly replaces: StockDocumentView | null;
  };
}

export interface StockImportView {
  readonly imported: ImportResultView;
  /** The stock it replaced (taken back in the same undo step). */
  readonly replaced: readonly StockDocumentView[];
  readonly stock: StockInfoView;
}

// ── Issue 65: the stock's lists — the pick list (branch i65-pick), the put-away list and the stock from
// BrickLink's API (branch i65-putaway) ────────────────────────────────────────────────────────────────

/** Where a list's lines stand, as staff read them; numbers in the shop numbering (d.numberShower), as every screen shows them. */
export interface StockItemView {
  readonly type: string;
  /** The catalogue's number. */
  readonly no: string;
  /** The number as the shop numbering shows it (ShownNumber.shown). */
  readonly shown: string;
  /** The catalogue's name. */
  readonly name: string | null;
  /** Null: an item without colour. */
  readonly colour: { readonly id: number; readonly name: string } | null;
}

/**
 * What a line lacks (SPEC §16): below the order, none in stock, or only in the other condition; `text` in
 * staff's words ("2 short (the bins hold 3 of 5)", "none in stock", "only used in stock: 4 in B-2").
 */
export interface ShortfallView {
  readonly kind: 'short' | 'none' | 'other-condition';
  readonly missing: number;
  readonly text: string;
}

/** A line of an order a stock list accounts for apart from its walk. */
export interface ListLineView {
  readonly line: number;
  readonly position: number;
  readonly where: string;
  readonly what: string;
  readonly quantity: number;
}

/** An unplaced line, apart, with its reason (code and words). */
export interface UnplacedListLineView extends ListLineView {
  readonly reason: string;
  readonly text: string;
}

/** One stop of a pick list's walk: take `take` pieces from one lot for one order line. */
export interface PickEntryView {
  /** `pickEntryKey(line, lot key)`: what a mark names, the same across imports of the same stock. */
  readonly key: string;
  readonly line: number;
  readonly position: number;
  readonly where: string;
  readonly item: StockItemView;
  readonly condition: 'N' | 'U' | null;
  readonly location: string | null;
  readonly lot: number;
  readonly lotId: string | null;
  readonly inLot: number;
  readonly ordered: number;
  readonly take: number;
  /** On the line's last stop: what it still lacks; null: nothing. */
  readonly short: ShortfallView | null;
  /** The mark, 0..take. */
  readonly picked: number;
  /** The desk that marked it last; null: not marked. */
  readonly pickedBy: string | null;
}

/** How far the picking is; `text`: "31 of 58 lots, 412 of 530 pieces". */
export interface PickProgressView {
  readonly lots: number;
  readonly lotsDone: number;
  readonly pieces: number;
  readonly piecesDone: number;
  readonly text: string;
}

/** An order's pick list against the current stock (SPEC §16), with every desk's marks. */
export interface PickListView {
  readonly order: { readonly id: number; readonly reference: string };
  /** The stock it was made from. */
  readonly stock: StockInfoView;
  /** The walk, in walking order. */
  readonly entries: readonly PickEntryView[];
  /** Placed lines with nothing to take anywhere. */
  readonly missing: readonly (ListLineView & { readonly item: StockItemView; readonly short: ShortfallView })[];
  /** Lines of 0 pieces. */
  readonly nothingAsked: readonly ListLineView[];
  readonly unplaced: readonly UnplacedListLineView[];
  readonly progress: PickProgressView;
}

/** A mark set or taken back: its undo step, the entry as it stands now, and the progress. */
export interface PickMarkView {
  readonly step: StepView;
  readonly entry: PickEntryView;
  readonly progress: PickProgressView;
}

/**
 * A printable list (a pick list on paper): its name, and how it went. In the app the core has printed it
 * through the app's own printing (`printed`: sent, or the dialog cancelled) and `html` is empty; where
 * there is no such printing (the browser host) `printed` is null and the screens print `html`.
 */
export interface PrintableView {
  readonly name: string;
  readonly html: string;
  readonly printed: 'printed' | 'cancelled' | null;
}

/** The pick list as a file (the CLI's --csv, --html, --pdf): `base64`, its bytes so written (a PDF). */
export interface PickFileView {
  readonly name: string;
  readonly content: string;
  readonly base64: boolean;
  /**
   * Where the app saved it (a CSV or HTML list, offered through its save dialog as every export is); null
   * where the page downloads it itself (the browser host), staff cancelled, or for a PDF (the CLI writes it).
   */
  readonly savedTo: string | null;
}

export interface PutAwayEntryView {
  readonly kind: 'existing' | 'new';
  readonly line: number;
  readonly position: number;
  readonly where: string;
  readonly item: StockItemView;
  readonly condition: 'N' | 'U' | null;
  readonly quantity: number;
  readonly location: string | null;
  /** existing: the lot, its BrickLink lot id, the stock's quantity before and after. */
  readonly lot: number | null;
  readonly lotId: string | null;
  readonly before: number | null;
  readonly after: number | null;
  /** new: where the location comes from: typed, the item's other lots, its category's lots; null: none ("type one"). */
  readonly from: 'typed' | 'item' | 'category' | null;
}
export interface PutAwayListView {
  readonly order: { readonly id: number; readonly reference: string };
  readonly stock: StockInfoView;
  /** In walking order (new lots without a location last). */
  readonly entries: readonly PutAwayEntryView[];
  readonly nothingReceived: readonly ListLineView[];
  readonly unplaced: readonly UnplacedListLineView[];
  /** STOCK_UNCHANGED_NOTE: the stock in the store stays what was imported until the next import. */
  readonly note: string;
}
export interface PutAwayExportView {
  /** The Mass Update XML (existing lots), null when none. */
  readonly update: ExportFileView | null;
  /** The Mass Upload XML (new lots), null when none. */
  readonly upload: ExportFileView | null;
  /** Every line not in either, with its reason. */
  readonly leftOut: readonly LeftOutView[];
  readonly note: string;
}
/**
 * The store's inventory taken from BrickLink's API (`stock.lookup`), as its download: the file to preview
 * (`stock.preview`) and import (`stock.import`) as the stock, as a file staff chose would be.
 */
export interface StockLookupView {
  /** `BrickLink store inventory DAY.xml` (`storeInventoryFileName`): BrickLink's inventory download. */
  readonly file: FileArg;
  /** Lots BrickLink's answer held. */
  readonly fetched: number;
  /** The day's look-up budget after this call (counted before it was sent). */
  readonly budget: BudgetView;
}

// ── end of issue 65 put-away ───────────────────────────────────────────────────────────────────────────

export interface StepView {
  readonly id: number;
  readonly kind: string;
  readonly label: string;
  /** The desk that made it (SPEC §8); null: made before desks were named. */
  readonly desk: string | null;
}

/** This desk's name (Settings → This desk, SPEC §8). */
export interface DeskView {
  readonly name: string;
  /** The computer's name: every desk's until it is given another. */
  readonly computer: string;
  /** Whether Settings can change it here (the browser host and the CLI take `--desk`). */
  readonly canChange: boolean;
}

/** A step as the history lists it: every desk's, newest first. */
export interface HistoryStepView extends StepView {
  readonly state: 'done' | 'undone';
  readonly createdAt: string;
}

export interface OwnerView {
  readonly pid: number;
  readonly bootId: string | null;
  readonly startTicks: number | null;
}

export interface JobRowView {
  readonly id: number;
  readonly kind: string;
  readonly state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  readonly progress: { readonly done: number; readonly total: number | null };
  readonly error: string | null;
  readonly notBeforeDay: string | null;
  readonly owner: OwnerView | null;
  readonly alive: boolean | null;
  /** Whether its owner is this app (its job runner), as opposed to another process. */
  readonly ownedHere: boolean;
  /**
   * On a shop server, the desk whose brick-work claimed it (recorded with the claim, so also once that
   * desk's session is gone); null on a file, where `owner.pid` is a process of this computer.
   */
  readonly desk: string | null;
  /** When its owner claimed it. */
  readonly claimedAt: string | null;
  readonly recoveries: number;
  readonly updatedAt: string;
}

export interface CatalogueJobView {
  readonly state: 'running' | 'done' | 'failed' | 'cancelled';
  readonly kind: string;
  readonly owner: OwnerView;
  /** The desk that started it, on a shop server (its words name it); null on a file or before desks. */
  readonly desk: string | null;
  readonly alive: boolean;
  /** Whether this app runs it (its job runner): a desk's own load is never shown as another's (issue 64 §2). */
  readonly ownedHere: boolean;
  readonly progress: { readonly done: number; readonly total: number | null };
  readonly error: string | null;
  readonly files: readonly string[];
  readonly updatedAt: string;
}

export interface BudgetView {
  readonly day: string;
  readonly used: number;
  readonly limit: number;
  readonly left: number;
}

export interface CatalogueStatusView {
  readonly items: number;
  readonly colours: number;
  readonly categories: number;
  readonly sources: readonly { readonly source: string; readonly items: number }[];
  /** What the translation tables hold (SPEC §5): element ids, colours and parts they translate, relationships. */
  readonly translations: {
    readonly elementIds: number;
    readonly colourTranslations: number;
    readonly partTranslations: number;
    readonly relationships: number;
  };
  readonly job: CatalogueJobView | null;
  /** Why catalogue-job.json could not be read, when it could not. */
  readonly jobProblem: string | null;
  readonly budget: BudgetView;
  /** Whether the suggestion index is built (false: "Preparing suggestions…"). */
  readonly suggestionsReady: boolean;
  /** Why the suggestion index could not be built, when it could not (SPEC §11); null otherwise. */
  readonly suggestionsProblem: ErrorValue | null;
}

/** An item remembered for a given number (or, without one, a folded name): never a colour (SPEC §8). */
export interface RememberedPlacementView {
  readonly id: number;
  readonly given: { readonly type: string; readonly no: string | null; readonly name: string | null };
  readonly item: {
    readonly type: string;
    readonly no: string;
    readonly name: string | null;
    /** Its number as staff read it, the shop numbering first (as `PlacedView.shown`, issue 64 §3). */
    readonly shown?: string;
    readonly sharedWith?: readonly string[];
  };
  readonly createdAt: string;
}

/** A colour remembered for a given colour the catalogue does not know, keyed by the document's colour numbering. */
export interface ColourPlacementView {
  readonly id: number;
  readonly given: {
    readonly numbering: 'bricklink-id' | 'name';
    readonly colourId: number | null;
    readonly name: string | null;
  };
  readonly colour: { readonly id: number; readonly name: string | null };
  readonly createdAt: string;
}

/** A name staff placed by hand on an item whose own name differs: suggestions find the item by it too (SPEC §7). */
export interface TaughtNameView {
  readonly id: number;
  readonly name: string;
  readonly item: { readonly type: string; readonly no: string; readonly name: string | null };
  readonly createdAt: string;
}

export interface MemoriesView {
  readonly items: readonly RememberedPlacementView[];
  readonly colours: readonly ColourPlacementView[];
  readonly names: readonly TaughtNameView[];
}

/** Each setting's value, by the field `SETTING_FIELDS` names for its key… */
export type SettingsView = { readonly [K in SettingKey as (typeof SETTING_FIELDS)[K]]: string } & SettingsMore;

/** …and what the screen needs to know of the credentials. */
export interface SettingsMore {
  /** Whether BrickLink credentials are stored (they are never sent to the screen). */
  readonly credentialsStored: boolean;
  /** Whether this host can keep credentials encrypted (Electron's safeStorage). */
  readonly credentialsEncrypted: boolean;
  /** Credentials are stored but the computer's keychain would not give them (issue 44): why, and what to do. */
  readonly credentialsRefused: string | null;
}

/** Settings → Shop server (SPEC §14): the store in use, and the server chosen for the next start. */
export interface ShopServerView {
  /** The store this desk works on now: its file, or its server as `host:port/database`. */
  readonly inUse: { readonly kind: 'file' | 'server'; readonly name: string };
  /** The server chosen (never its password); null: the desk works on its own file. */
  readonly chosen: {
    readonly host: string;
    readonly port: number;
    readonly database: string;
    readonly user: string;
  } | null;
  /** Whether this host keeps the choice encrypted (the app) or in memory until it stops (the browser host). */
  readonly encrypted: boolean;
  /** Whether a choice can be made here at all (false where the store is given by `--db`). */
  readonly canChoose: boolean;
  /** The server is chosen but the computer's keychain would not give its password (issue 44): why, and what to do. */
  readonly refused: string | null;
  /** What happens next, in words (the choice takes effect at the next start). */
  readonly note: string | null;
}

export interface ExportFileView {
  readonly name: string;
  readonly content: string;
  /** Where the app saved it (after the save dialog); null where the page downloads it itself, or staff cancelled. */
  readonly savedTo: string | null;
  /** What the file leaves out, in words (a compare's unplaced lines in BrickLink XML); absent when nothing. */
  readonly note?: string;
  /** Lots or lines written (an order's and a compare's exports). */
  readonly rows?: number;
  /** Every saved line (or compare lot) the file leaves out, and why (SPEC §8): none is left out without a word. */
  readonly leftOut?: readonly LeftOutView[];
  /**
   * Lines (or lots) written under a number that names more than one catalogue item in the file's numbering
   * (BrickLink's 3048c is both of Rebrickable's 3048b and 3048c), each with the item it is; a BrickLink
   * file's lot says so in its remarks (issue 60 §4).
   */
  readonly shared?: readonly SharedNumberView[];
}

export type LeftOutView = LeftOutLine;
export type SharedNumberView = SharedNumberLine;

/** What an export of an order would write and leave out, before it is made (the screen's preview). */
export interface ExportPreviewView {
  readonly target: ExportTarget;
  readonly rows: number;
  readonly leftOut: readonly LeftOutView[];
  /** What it would write under numbers that name more than one catalogue item, each with the item it is. */
  readonly shared: readonly SharedNumberView[];
  /** The acknowledgement the export needs before it leaves out lines its target does not number; null: none. */
  readonly needs: 'no-bricklink-number' | 'no-rebrickable-number' | null;
}

export interface StoreView {
  readonly path: string | null;
  /** Set when the store is on a shop's PostgreSQL server (SPEC §14), not a file on this computer. */
  readonly onServer: boolean;
  readonly schema: string;
  readonly appVersion: string;
  /** Set when this start upgraded the store, with where the backup is. */
  readonly upgrade: { readonly from: string; readonly to: string; readonly backup: string } | null;
  /** Jobs put back in the queue at this start because their owner had died. */
  readonly recovered: readonly { readonly id: number; readonly kind: string }[];
  /**
   * Set when the store can't be written (SPEC §11): why, in plain words, and whether the screens show a
   * private snapshot copy taken at the start. Reads work; writes are refused with `read-only-store`.
   */
  readonly readOnly: { readonly reason: string; readonly snapshot: boolean; readonly damaged?: boolean } | null;
}

/** What a catalogue load did to one order's saved lines: placed some, unplaced some (with why). */
export interface JobOrderLines {
  readonly orderId: number;
  readonly reference: string;
  readonly placed: number;
  readonly unplaced: number;
}

/**
 * Every call's result. Its arguments are declared once, as the checks that refuse bad ones
 * (`arguments.ts`), and their types read from there (`ArgsOf`).
 */
export interface ApiResults {
  /** Compares two sides — orders, documents, or files not imported — by what their lines are (SPEC §13); writes nothing. */
  'compare.run': CompareView;
  /** More rows of one group of a kept compare (`compareId`): `count` at most 5,000 from row `from`. `not-found` when no longer kept. */
  'compare.rows': readonly CompareRowView[];
  /** The difference of a kept compare as a file (SPEC §13): `csv`, a BrickLink wanted list of the shortfall, or a mass upload of the extra. */
  'compare.export': ExportFileView;
  'store.info': StoreView;
  'orders.list': readonly OrderView[];
  'orders.get': { order: OrderView; documents: readonly DocumentView[] };
  'lines.list': readonly LineRowView[];
  /** One line as it stands (`not-found` when there is none): the CLI reads it so before it fixes it, and names its placement as `seen`. */
  'lines.get': LineRowView;
  'lines.suggest': SuggestionsView;
  /**
   * `colourId` null: the line keeps its own colour (refused with `needs-colour` when the catalogue does not
   * know it). Refused with `needs-acknowledgement`, nothing written, until `confirm` holds what it would do
   * beyond the line: move lines a remembered placement had placed, or cross item types (SPEC §9).
   */
  'lines.place': PlaceResultView;
  /**
   * By name and, for a one-word query, by number (the screen's search box); `by` asks for one of the two
   * only; `forLine`, the line the box belongs to, whose colour pulls the parts made in it (ADR 0029).
   */
  'catalogue.search': SuggestionsView;
  'catalogue.status': CatalogueStatusView;
  /** The catalogue's colours, by name: for choosing a line's colour. */
  'catalogue.colours': readonly { readonly id: number; readonly name: string; readonly rgb: string | null }[];
  'catalogue.load': { started: true };
  'catalogue.cancel': { cancelled: boolean };
  'lookup.start': { jobId: number };
  'jobs.list': readonly JobRowView[];
  /** `was`: the state it was cancelled from (a running job stops at its next step). */
  'jobs.cancel': { cancelled: number; was: JobRowView['state'] };
  /** `acknowledge`: the warnings staff accept (SPEC §8); `colourNumbering`: staff's choice for a list's colour numbers. */
  'import.preview': ImportPreviewView;
  'import.confirm': readonly ImportResultView[];
  /**
   * More lines of a preview's document (SPEC §11: a preview answer stays small): `count` at most 5,000
   * from line index `from`. `not-found` when the preview is no longer kept: preview the file again.
   */
  'import.previewLines': readonly PreviewLineView[];
  /**
   * Stops the import previews and confirms under way (they answer `cancelled`, nothing written) while they
   * read and place; a confirm that has begun writing finishes (or rolls back). `cancelled`: whether one was under way.
   */
  'import.cancel': { cancelled: boolean };
  /**
   * The stock's import preview (SPEC §16): the file read as the stock, each lot placed or its reason, its
   * warnings, its locations; writes nothing. Its other lines come by `import.previewLines`.
   */
  'stock.preview': StockPreviewView;
  /**
   * Imports the file as the stock: the stock order's new document, replacing the current stock in the same
   * undo step. Refused as an import is, and (`duplicate-document`) when the file is the stock already.
   */
  'stock.import': StockImportView;
  /** The current stock; null when there is none (never imported, or its import taken back). */
  'stock.info': StockInfoView | null;
  /**
   * An order's pick list against the current stock (SPEC §16): the walk in walking order with every desk's
   * marks, what is missing, and the unplaced lines apart. Refused `no-stock` when there is no stock, and in
   * words for the stock's own order.
   */
  'pick.list': PickListView;
  /**
   * Marks an entry of the walk picked: `picked` pieces of its `take` (set, never added: a mark never
   * double-counts). One undo step. An entry the walk no longer has is refused `not-found`.
   */
  'pick.mark': PickMarkView;
  /** Takes an entry's mark back (picked 0). One undo step; an unmarked entry is refused in words. */
  'pick.unmark': PickMarkView;
  /**
   * The pick list on paper, pictures from the picture cache only: printed by the app's own printing where
   * there is one (answered once its dialog is done), else HTML the screens print.
   */
  'pick.printable': PrintableView;
  /**
   * The pick list as a file, given back (not saved): CSV (every stop, then the missing and unplaced lines),
   * or the printable list as HTML or PDF. Reads; pictures from the picture cache only.
   */
  'pick.file': PickFileView;
  // ── Issue 65 put-away (branch i65-putaway) ──
  /**
   * The put-away list of an order coming in (SPEC §16): each received line into the stock's lot of its item,
   * colour and condition, or a new lot with a location suggested (the item's other lots, its category's) or
   * typed (`locations`, by line id). Refused `no-stock` when there is no stock; reads only.
   */
  'putAway.list': PutAwayListView;
  /**
   * The put-away files (Mass Update for existing lots, Mass Upload for new ones), through the app's save
   * dialog or the page's download; every line not in either in `leftOut`. Refused `needs-acknowledgement`
   * as BrickLink exports are (`accept`). Nothing is sent to BrickLink.
   */
  'putAway.export': PutAwayExportView;
  /**
   * The shop's store inventory from BrickLink's API (one call, counted against the day's budget before it
   * is sent, off the writer thread), written as the inventory download: a file to preview and import as
   * the stock (locations from REMARKS). Nothing but the budget is written.
   */
  'stock.lookup': StockLookupView;
  // ── end of issue 65 put-away ──
  /** The documents of one order, or of every order, with their state (SPEC §10 `documents`). */
  'documents.list': readonly DocumentView[];
  /** Takes back an imported document as a new undo step (SPEC §8); `wholeFile`: with the other documents of its file. */
  'documents.takeBack': TakeBackResultView;
  /** This desk's Undo and Redo (SPEC §8), and its name. */
  'history.state': { undo: StepView | null; redo: StepView | null; desk: string };
  /** This desk's name. */
  'desk.get': DeskView;
  /** Names this desk (null: the computer's name again): its next steps are that desk's, and so are its Undo and Redo. */
  'desk.set': DeskView;
  /**
   * Each item's picture, in the order asked (SPEC §15): ready (its bytes), waiting (being fetched: ask again
   * on `pictures.ready`), or none and why (a placeholder says it). Never waits for the network.
   */
  'pictures.get': { pictures: readonly PictureView[]; lines: readonly PictureView[] };
  /** Pictures fetched and failed since the start, waiting, and what the cache holds. */
  'pictures.status': PicturesStatusView;
  /** Every kept picture gone ("clear pictures"). */
  'pictures.clear': PicturesStatusView;
  /** Every desk's steps, newest first, with their desk and state; `desk`: this one's name. */
  'history.list': { steps: readonly HistoryStepView[]; desk: string };
  /** `expectedStep`: the step the screen's Undo names; any other state is refused with `step-moved` (SPEC §8). */
  'history.undo': StepView;
  /** `expectedStep`: the step Redo would put back, as the screen names it. */
  'history.redo': StepView;
  'placements.list': MemoriesView;
  'placements.forget': { forgotten: number; step: StepView };
  'export.summary': ExportFileView;
  /** An order's saved lines as a BrickLink mass upload, in BrickLink's numbers (SPEC §8). */
  'export.bricklink': ExportFileView;
  /** An order's saved lines as a Rebrickable part list (`Part,Color,Quantity`), in Rebrickable's numbers. */
  'export.rebrickable': ExportFileView;
  'export.preview': ExportPreviewView;
  'settings.get': SettingsView;
  'settings.set': SettingsView;
  'settings.setCredentials': SettingsView;
  'shopServer.get': ShopServerView;
  /** Checks the server (a brick-work store, or an empty database that becomes one) and keeps the choice. */
  'shopServer.choose': ShopServerView;
  'shopServer.forget': ShopServerView;
  /** Opens the app's file dialog and reads the chosen file; null where there is none (the browser host) or staff cancelled. */
  'file.pick': FileArg | null;
}

export type { CallName };
export type ArgsOf<K extends CallName> = ArgumentsOf<K>;
export type ResultOf<K extends CallName> = ApiResults[K];
/** Every call: its arguments and its result. */
export type ApiCalls = { [K in CallName]: { args: ArgsOf<K>; result: ResultOf<K> } };
// A result for every call and a call for every result: a compile error otherwise.
const _everyCallHasAResult: [keyof ApiResults] extends [CallName]
  ? [CallName] extends [keyof ApiResults]
    ? true
    : never
  : never = true;
void _everyCallHasAResult;

/**
 * One key of a compare: an item in a colour and condition, or unplaced lines (named by what the first of
 * them gives), on both sides.
 */
export type CompareRowView = {
  readonly condition: 'N' | 'U' | null;
  readonly left: number;
  readonly right: number;
  /** right − left. */
  readonly difference: number;
  /** Mean unit price on each side where its lines give one (two or more decimals). */
  readonly leftUnitPrice: string | null;
  readonly rightUnitPrice: string | null;
} & (
  | {
      /** The catalogue's item and colour, by name. */
      readonly item: {
        readonly type: string;
        readonly no: string;
        /** Its number as staff read it: the shop numbering first (SPEC §5), as the compare's exports write it. */
        readonly shown?: string;
        /** The other catalogue items its shop number names too (`Rebrickable 3048c`); absent or empty when none. */
        readonly sharedWith?: readonly string[];
        readonly name: string | null;
        readonly colour: number | null;
        readonly colourName: string | null;
        readonly colourRgb: string | null;
      };
      readonly given: null;
    }
  | { readonly item: null; readonly given: GivenView }
);

export interface CompareView {
  /** Names this compare for `compare.rows` and `compare.export` while it is kept (the last few are). */
  readonly compareId: string;
  /** Each group's rows in all; a group below holds its first `first` rows when the call asked for fewer. */
  readonly counts: { readonly [G in CompareGroup]: number };
  readonly left: { readonly label: string; readonly currency: string | null };
  readonly right: { readonly label: string; readonly currency: string | null };
  readonly onlyLeft: readonly CompareRowView[];
  readonly onlyRight: readonly CompareRowView[];
  readonly quantityDiffers: readonly CompareRowView[];
  readonly same: readonly CompareRowView[];
  /** Only when asked (`prices`): rows on both sides whose unit prices differ. */
  readonly priceDiffers: readonly CompareRowView[];
  /** Lines unplaced on either side, matched only with each other. */
  readonly unplaced: readonly CompareRowView[];
  readonly totals: {
    readonly left: { readonly lots: number; readonly pieces: number };
    readonly right: { readonly lots: number; readonly pieces: number };
    readonly missing: number;
    readonly extra: number;
    readonly missingValue: string;
    readonly extraValue: string;
  };
}

/** Every event the renderer can receive. */
export interface ApiEvents {
  /** The store changed (this process or another): views should refresh. */
  /** `reason` in words for the log; `STORE_DAMAGED` when the store was found damaged (screens re-read `store.info`). */
  'store.changed': { readonly reason: string };
  /** A job or the catalogue job moved on. */
  'job.progress': {
    readonly kind: string;
    readonly done: number;
    readonly total: number | null;
    readonly state: string;
    /** When it ends: what it did, in staff's words (a catalogue load: how many lines it placed, in which orders). */
    readonly summary?: string;
    /** A catalogue load, when it ends: per order, the lines it placed and the lines it unplaced (SPEC §9). */
    readonly orders?: readonly JobOrderLines[];
  };
  /**
   * A document opened from outside the window (the app: Finder, a file association, a second start's
   * command line), read by the main process: the screens show it in the Import preview. `problem`: why it
   * could not be read (then `content` is null).
   */
  'document.opened': {
    readonly name: string;
    readonly content: Uint8Array | null;
    readonly problem: string | null;
  };
  /** A command chosen from the app's menu (or its shortcut): Undo, Redo, Import…, Compare, Search the catalogue, Settings…. */
  'menu.command': { readonly command: 'undo' | 'redo' | 'import' | 'compare' | 'search' | 'settings' };
  /**
   * How far an import preview or confirm has come, by phase: reading the file, placing its lines,
   * writing them (a confirm; Cancel works until it writes). `done` and `total` count lines, except while
   * reading, where they count characters of the file; `total` is null while unknown.
   */
  'import.progress': {
    readonly step: 'preview' | 'confirm';
    readonly fileName: string;
    readonly phase: 'reading' | 'placing' | 'writing';
    readonly done: number;
    readonly total: number | null;
  };
  /** How far a compare has come reading its sides (a file side is read and placed as a preview is). */
  'compare.progress': {
    readonly side: 'left' | 'right';
    readonly phase: 'reading' | 'placing';
    readonly done: number;
    readonly total: number | null;
  };
  /** The suggestion index is being built (`ready` false) or is ready: suggestions asked meanwhile can be asked again. */
  'suggestions.status': { readonly ready: boolean; readonly why?: ErrorValue };
  /** Pictures asked for came (or were found missing): the screens ask again for those they wait for. */
  'pictures.ready': Record<string, never>;
  /**
   * A write this desk was asked for has waited about 300 ms for another's work holding the store's writes
   * (issue 61 §3): who and what, in words ("Waiting for desk "front"'s catalogue load…"). The screens say
   * it until the write they asked for answers.
   */
  'store.waiting': { readonly message: string };
}

/** An item's picture as the screens show it (SPEC §15). */
export type PictureView =
  | {
      readonly state: 'ready';
      /** PNG, JPEG, GIF or WebP, by the picture's bytes. */
      readonly type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
      readonly bytes: Uint8Array;
      readonly from: 'bricklink' | 'rebrickable';
      /** In the item's colour (false: the item's default picture, said so). */
      readonly inColour: boolean;
    }
  | { readonly state: 'waiting' }
  | { readonly state: 'none'; readonly why: string };

export interface PicturesStatusView {
  /** Network pictures are on (off: only the cache is used). */
  readonly network: boolean;
  readonly fetched: number;
  readonly failed: number;
  /** Answers refused: not a picture, or sent to another host; `lastRefused` says why of the last. */
  readonly refused: number;
  readonly lastRefused: string | null;
  readonly waiting: number;
  /** Pictures the cache holds, answers that there is none, and its size in bytes. */
  readonly cached: number;
  readonly missing: number;
  readonly bytes: number;
  /** Why pictures are kept in memory for this start (the cache's file left as it is); null: in its file. */
  readonly inMemory: string | null;
}

export type EventName = keyof ApiEvents;

/** What `window.brickWork` is, in the app (preload) and in the browser host (its HTTP client). */
export interface BrickWorkApi {
  call<K extends CallName>(name: K, args: ArgsOf<K>): Promise<Result<ResultOf<K>>>;
  /** Listens to every event; returns the function that stops listening. */
  onEvent(listener: <E extends EventName>(name: E, payload: ApiEvents[E]) => void): () => void;
}

export { CALL_NAMES } from './arguments.ts';

/** The `store.changed` reason that says the store was found damaged while open: it is read-only from then on (SPEC §11). */
export const STORE_DAMAGED = 'store damaged';
