/**
 * SQLite's statements as PostgreSQL reads them (ADR 0027), for the phrases the two dialects spell
 * differently but mean alike: `?` and `@name` parameters become `$n`; an `INSERT` into a table keyed by
 * `id` returns it (better-sqlite3's `lastInsertRowid`). Phrases that differ in substance are not
 * rewritten here: the store module of their concern has a PostgreSQL form of its own.
 */

export interface PostgresStatement {
  readonly text: string;
  /** For each `$n`, the name of the `@name` parameter it stands for, or null for a positional `?`. */
  readonly params: readonly (string | null)[];
  /** A statement that writes (takes the store's one writer lock first, as SQLite's writers do). */
  readonly writes: boolean;
  /** An `INSERT` made to return the new row's `id`. */
  readonly returnsId: boolean;
  /**
   * The statement's names given with capitals (`AS orderId`), by the lower-case name PostgreSQL gives
   * them back under (it folds names it is not given quoted); SQLite keeps them as written.
   */
  readonly aliases: ReadonlyMap<string, string>;
}

/** Whether a statement writes (and so takes the store's one writer lock first, as SQLite's writers do). */
export function isWrite(sql: string): boolean {
  if (ownTablesOnly(sql)) return false;
  return (
    /^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i.test(sql) ||
    // A statement of several writes in one (`WITH step AS (INSERT …) INSERT …`, a round trip saved).
    (/^\s*WITH\b/i.test(sql) && /\b(INSERT|UPDATE|DELETE)\b/i.test(unquoted(sql)))
  );
}

/**
 * Whether a statement writes only the session's own temporary tables (`pg_temp`: a catalogue file's
 * staged rows, ADR 0034): no other session sees them, so they are no write of the store and take no
 * writer lock.
 */
function ownTablesOnly(sql: string): boolean {
  return (
    (/^\s*CREATE\s+TEMP(ORARY)?\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?[a-z_][a-z0-9_]*\s*\(/i.test(sql) ||
      /^\s*(INSERT\s+INTO|DELETE\s+FROM|TRUNCATE(\s+TABLE)?)\s+pg_temp\.[a-z_][a-z0-9_]*(\s|\(|$)/i.test(sql)) &&
    !sql.includes(';')
  );
}

/**
 * Phrases only SQLite reads. A statement holding one is refused when it is prepared, naming the phrase, so
 * a SQLite-only statement can't reach a server store silently (the store module of its concern gives
 * the server its own form: `../dialect.ts`).
 */
const SQLITE_ONLY: readonly [RegExp, string][] = [
  [/\bsqlite_(master|schema|sequence|stat\d)\b/i, "SQLite's own tables"],
  [
    /\bjson_(each|tree|set|insert|replace|remove|patch|extract|valid|type|group_array|group_object)\s*\(/i,
    "SQLite's JSON functions",
  ],
  [/\bpragma_\w+\s*\(|^\s*PRAGMA\b/i, 'a pragma'],
  [/\bINSERT\s+OR\s+(IGNORE|REPLACE|ABORT|FAIL|ROLLBACK)\b/i, 'INSERT OR …'],
  [/\bGLOB\b/i, 'GLOB'],
  [
    /\bIS\s+(NOT\s+)?(\?|\$\d|'|\d|[a-z_][a-z0-9_]*\.[a-z_])/i,
    'IS / IS NOT between values (write IS [NOT] DISTINCT FROM)',
  ],
  [/\bEXPLAIN\s+QUERY\s+PLAN\b/i, 'EXPLAIN QUERY PLAN'],
  // Written as SQLite's keyword is (an alias such as `rowId` is a name of the statement's own).
  [/\bWITHOUT\s+ROWID\b|\b(rowid|ROWID)\b/, 'rowid'],
];

/** The SQLite-only phrase in `sql` (texts and quoted names aside), in words, or null. */
export function sqliteOnlyPhrase(sql: string): string | null {
  const bare = unquoted(sql);
  for (const [pattern, what] of SQLITE_ONLY) if (pattern.test(bare)) return what;
  return null;
}

/**
 * Rewrites one statement's parameters, skipping string literals, quoted names and comments.
 * `tablesWithId`: the tables whose rows are keyed by an `id` column.
 */
export function toPostgres(sql: string, tablesWithId: ReadonlySet<string> = new Set()): PostgresStatement {
  const sqliteOnly = sqliteOnlyPhrase(sql);
  if (sqliteOnly !== null) {
    throw new Error(`a statement only SQLite reads (${sqliteOnly}) reached a PostgreSQL store: ${sql.slice(0, 160)}`);
  }
  const params: (string | null)[] = [];
  const named = new Map<string, number>();
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end + 1);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      out += sql.slice(i, end < 0 ? sql.length : end);
      i = end < 0 ? sql.length : end - 1;
    } else if (c === '?') {
      params.push(null);
      out += `$${params.length}`;
    } else if ((c === '@' || c === ':') && /[A-Za-z_]/.test(sql[i + 1] ?? '') && sql[i - 1] !== ':') {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))?.[0] ?? '';
      let at = named.get(name);
      if (at === undefined) {
        params.push(name);
        at = params.length;
        named.set(name, at);
      }
      out += `$${at}`;
      i += name.length;
    } else out += c;
  }
  const aliases = new Map<string, string>();
  for (const m of unquoted(out).matchAll(/\bAS\s+([A-Za-z_][A-Za-z0-9_]*)/gi)) {
    const name = m[1] ?? '';
    if (name !== name.toLowerCase()) aliases.set(name.toLowerCase(), name);
  }
  const insert = /^\s*INSERT\s+INTO\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i.exec(out);
  const returnsId = insert !== null && tablesWithId.has((insert[1] ?? '').toLowerCase()) && !/\bRETURNING\b/i.test(out);
  return {
    text: returnsId ? `${out.replace(/;\s*$/, '')} RETURNING id` : out,
    params,
    writes: isWrite(out),
    returnsId,
    aliases,
  };
}

/** The statement with its texts and quoted names blanked out, so words inside them are not read as SQL. */
function unquoted(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, (q) => ' '.repeat(q.length));
}

/** Where a quoted text or name that starts at `start` ends (a doubled quote is one quote). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i;
    } else i += 1;
  }
  return sql.length - 1;
}

/** The values for a statement's `$n`s from better-sqlite3's arguments: positional values, and an object for the named. */
export function bindValues(statement: PostgresStatement, args: readonly unknown[]): unknown[] {
  // better-sqlite3 takes values one by one, or an array of them, and an object for the named ones.
  const positional = args.flatMap((a) => (Array.isArray(a) ? a : isNamedBag(a) ? [] : [a]));
  const bag = args.find(isNamedBag) as Record<string, unknown> | undefined;
  let next = 0;
  // As better-sqlite3: a value given as undefined is NULL; one not given at all is a mistake.
  return statement.params.map((name) => {
    const given = name === null ? next < positional.length : bag !== undefined && name in bag;
    if (!given) {
      throw new RangeError(
        `a statement was given too few values (${name ?? `#${next + 1}`}): ${statement.text.slice(0, 160)}`,
      );
    }
    const v = name === null ? positional[next++] : bag?.[name];
    return v === undefined ? null : v;
  });
}

function isNamedBag(a: unknown): boolean {
  return typeof a === 'object' && a !== null && !(a instanceof Uint8Array) && !Array.isArray(a) && !(a instanceof Date);
}
