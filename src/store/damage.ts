/**
 * A store found damaged while it is open (SPEC §11): SQLite's quick check at the read-write open can't
 * see every damage, so whenever SQLite later reports `SQLITE_CORRUPT` (or `SQLITE_NOTADB`), anywhere in
 * the process, the store is marked damaged for the rest of the process and every write is refused.
 *
 * "The process" is several threads with a connection each (the main thread, the writer, the suggestion
 * thread, the job runner): the mark is one shared cell that each thread's `DamageMark` wraps, handed to
 * a thread in its start data, so a damage one of them meets stops the writes of all. (Its second slot
 * says whether the screens have been told.)
 */
export class DamageMark {
  private readonly cell: Int32Array;

  /** `shared`: the cell of the main thread's mark (a thread's start data); none: a new one. */
  constructor(shared?: SharedArrayBuffer) {
    this.cell = new Int32Array(shared ?? new SharedArrayBuffer(8));
  }

  /** The cell to hand to another thread of this process. */
  get shared(): SharedArrayBuffer {
    return this.cell.buffer as SharedArrayBuffer;
  }

  /** What SQLite found, in words, once the store is marked; null while it is not. */
  found(): string | null {
    const code = Atomics.load(this.cell, 0);
    return code === 0 ? null : (FOUND[code] ?? CORRUPT_FOUND);
  }

  /**
   * Once the store is marked, true for exactly one caller in the whole process: the one to tell the
   * screens (whichever thread met the damage, they are told once).
   */
  firstToTell(): boolean {
    return this.found() !== null && Atomics.compareExchange(this.cell, 1, 0, 1) === 0;
  }

  /** Marks the store if `e` is SQLite saying the file is damaged; whether this marked it now (it was not before). */
  note(e: unknown): boolean {
    const code = damageCode(e);
    if (code === 0) return false;
    return Atomics.compareExchange(this.cell, 0, 0, code) === 0;
  }
}

const CORRUPT = 1;
const NOT_A_DATABASE = 2;
const CORRUPT_FOUND = 'SQLite found a damaged page in it while brick-work was working (SQLITE_CORRUPT)';
const FOUND: Record<number, string> = {
  [CORRUPT]: CORRUPT_FOUND,
  [NOT_A_DATABASE]: 'SQLite no longer reads it as a database (SQLITE_NOTADB)',
};

/** SQLite's report of a damaged file, by its result code (read as a string, so this module needs no driver). */
function damageCode(e: unknown): number {
  const code = typeof (e as { code?: unknown } | null)?.code === 'string' ? (e as { code: string }).code : '';
  if (code.startsWith('SQLITE_CORRUPT')) return CORRUPT;
  if (code === 'SQLITE_NOTADB') return NOT_A_DATABASE;
  return 0;
}

/** Whether `e` is SQLite saying the file is damaged: never a refusal of the work at hand, always the store's. */
export function isDamage(e: unknown): boolean {
  return damageCode(e) !== 0;
}
