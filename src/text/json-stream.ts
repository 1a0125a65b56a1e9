import { BrickWorkError } from '../vocabulary/errors.ts';
import { parseErrorAt } from './position.ts';

/**
 * JSON (RFC 8259) read a piece at a time and told to a handler as it goes: never held whole, never built
 * into one value, so what a hostile file nests or repeats costs no memory (issue 62: 50 million `[` took
 * gigabytes as `JSON.parse` built them). Nesting past `maxDepth` and a string or number longer than
 * `maxToken` characters are refused at once (`too-big`, naming the cap); every refusal names the line and
 * column.
 */

export interface JsonHandler {
  openObject(): void;
  openArray(): void;
  /** The innermost open object or array ends. */
  close(): void;
  /** An object's member name; its value comes next. */
  key(key: string): void;
  scalar(value: string | number | boolean | null): void;
}

/**
 * A refusal of what the JSON holds, said by the reader with the line and column it is at: `too-big` for
 * what passes a cap (SPEC §11: what a file would unfold to is refused naming the cap), else `parse-error`.
 */
export class JsonRefusal extends Error {
  constructor(
    message: string,
    readonly code: 'parse-error' | 'too-big' = 'parse-error',
  ) {
    super(message);
  }
}

export interface JsonLimits {
  readonly maxDepth: number;
  readonly maxToken: number;
}

// What may come next.
const VALUE = 0; // at the start, after ":" and after "," in an array
const VALUE_OR_CLOSE = 1; // after "["
const KEY_OR_CLOSE = 2; // after "{"
const KEY = 3; // after "," in an object
const COLON = 4; // after a member name
const COMMA_OR_CLOSE = 5; // after a value in an object or an array
const DONE = 6; // after the whole value: white space only

/** What the JSON needs next, said for a refusal, by state (after a value: `unexpected`). */
const WANTED: readonly string[] = [
  'a value',
  'a value or "]"',
  'a member name in quotes or "}"',
  'a member name in quotes',
  '":"',
];

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A character a number or a literal (true, false, null) is made of, as far as finding its end goes. */
function isBare(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x2d ||
    c === 0x2b ||
    c === 0x2e
  );
}

export class JsonReader {
  /** The unfinished token the last piece ended in (at most `maxToken` long), then the new piece. */
  private text = '';
  /** Characters read before `text`. */
  private base = 0;
  private line = 1;
  /** Where the current line starts, counted as `base` is. */
  private lineStart = 0;
  private afterCr = false;
  private state = VALUE;
  /** The open containers, innermost last: true for an object. */
  private readonly open: boolean[] = [];

  constructor(
    private readonly fileName: string,
    private readonly handler: JsonHandler,
    private readonly limits: JsonLimits,
  ) {}

  write(piece: string): void {
    this.text = this.text.length === 0 ? piece : this.text + piece;
    this.run(false);
  }

  /** The text has all been written: it must have been one whole value. */
  end(): void {
    this.run(true);
    if (this.state !== DONE)
      throw this.refusal(this.text.length, 'the file ends before its JSON does: it is cut short');
  }

  /** The line and column just after what was written, for a refusal the caller makes (bytes that are not UTF-8). */
  where(): { line: number; column: number } {
    return { line: this.line, column: this.base + this.text.length - this.lineStart + 1 };
  }

  private run(final: boolean): void {
    const s = this.text;
    const n = s.length;
    let i = 0;
    try {
      while (i < n) {
        const c = s.charCodeAt(i);
        if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
          // CR, LF and CRLF are each one line end (SPEC §11).
          if (c === 0x0d || (c === 0x0a && !this.afterCr)) this.line++;
          if (c === 0x0d || c === 0x0a) this.lineStart = this.base + i + 1;
          this.afterCr = c === 0x0d;
          i++;
          continue;
        }
        this.afterCr = false;
        if (c === 0x22 /* " */) {
          const end = stringEnd(s, i);
          if (end < 0) break; // the rest comes with the next piece
          this.checkLength(end + 1 - i, 'string');
          this.stringToken(s, i, end);
          i = end + 1;
        } else if (isBare(c)) {
          let end = i + 1;
          while (end < n && isBare(s.charCodeAt(end))) end++;
          if (end === n && !final) break; // it may go on in the next piece
          this.checkLength(end - i, 'number');
          this.bareToken(s.slice(i, end), i);
          i = end;
        } else {
          this.punctuation(c, i);
          i++;
        }
      }
      // An unfinished token waits for the next piece, never longer than a token may be.
      if (i < n) this.checkLength(n - i, s.charCodeAt(i) === 0x22 ? 'string' : 'number');
      if (final && i < n) throw new JsonRefusal('the file ends inside a string of its JSON: it is cut short');
    } catch (e) {
      if (e instanceof JsonRefusal) throw this.refusal(i, e.message, e.code);
      throw e;
    }
    this.base += i;
    this.text = i === 0 ? s : s.slice(i);
  }

  private punctuation(c: number, at: number): void {
    const { state, open } = this;
    const inObject = open.at(-1) === true;
    if ((c === 0x7b || c === 0x5b) /* { [ */ && (state === VALUE || state === VALUE_OR_CLOSE)) {
      if (open.length >= this.limits.maxDepth)
        throw new JsonRefusal(
          `the JSON nests more than ${this.limits.maxDepth} levels deep here; brick-work reads no deeper (no file it reads nests more than a few)`,
          'too-big',
        );
      open.push(c === 0x7b);
      if (c === 0x7b) this.handler.openObject();
      else this.handler.openArray();
      this.state = c === 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
    } else if (c === 0x7d /* } */ && inObject && (state === KEY_OR_CLOSE || state === COMMA_OR_CLOSE)) {
      this.closeOne();
    } else if (c === 0x5d /* ] */ && !inObject && (state === VALUE_OR_CLOSE || state === COMMA_OR_CLOSE)) {
      this.closeOne();
    } else if (c === 0x3a /* : */ && state === COLON) {
      this.state = VALUE;
    } else if (c === 0x2c /* , */ && state === COMMA_OR_CLOSE) {
      this.state = inObject ? KEY : VALUE;
    } else {
      throw new JsonRefusal(this.unexpected(c, at));
    }
  }

  private closeOne(): void {
    this.open.pop();
    this.handler.close();
    this.afterValue();
  }

  private afterValue(): void {
    this.state = this.open.length === 0 ? DONE : COMMA_OR_CLOSE;
  }

  private stringToken(s: string, from: number, end: number): void {
    let value: unknown;
    try {
      value = JSON.parse(s.slice(from, end + 1));
    } catch {
      throw new JsonRefusal('a string of the JSON holds a control character or a bad escape (is the file damaged?)');
    }
    const text = value as string;
    if (this.state === KEY_OR_CLOSE || this.state === KEY) {
      this.handler.key(text);
      this.state = COLON;
    } else if (this.state === VALUE || this.state === VALUE_OR_CLOSE) {
      this.handler.scalar(text);
      this.afterValue();
    } else {
      throw new JsonRefusal(this.unexpected(0x22, from));
    }
  }

  private bareToken(token: string, at: number): void {
    if (this.state !== VALUE && this.state !== VALUE_OR_CLOSE) throw new JsonRefusal(this.unexpected(-1, at, token));
    if (token === 'true' || token === 'false') this.handler.scalar(token === 'true');
    else if (token === 'null') this.handler.scalar(null);
    else if (NUMBER.test(token)) this.handler.scalar(Number(token));
    else throw new JsonRefusal(`"${shown(token)}" is not a JSON value (is the file damaged?)`);
    this.afterValue();
  }

  private checkLength(length: number, what: 'string' | 'number'): void {
    if (length <= this.limits.maxToken) return;
    throw new JsonRefusal(
      `a ${what} of the JSON is longer than ${this.limits.maxToken.toLocaleString('en-US')} characters; brick-work reads none that long`,
      'too-big',
    );
  }

  /** What was found where it may not be: the character `c` at `at`, or a whole `token` (`c` -1). */
  private unexpected(c: number, at: number, token?: string): string {
    if (this.state === DONE) return 'there is more after the end of the JSON';
    if (c >= 0 && c < 0x20)
      return `a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')}) is in the JSON where no text belongs (is the file damaged?)`;
    const found = token ?? this.text.charAt(at);
    const wanted =
      this.state === COMMA_OR_CLOSE ? (this.open.at(-1) === true ? '"," or "}"' : '"," or "]"') : WANTED[this.state];
    return `found "${shown(found)}" where the JSON needs ${wanted ?? 'something else'} (is the file damaged?)`;
  }

  /** A refusal at `at` in `text`: no line ends inside a token, so the line is the one read last. */
  private refusal(at: number, problem: string, code: JsonRefusal['code'] = 'parse-error'): BrickWorkError {
    const column = this.base + at - this.lineStart + 1;
    if (code === 'parse-error') return parseErrorAt(this.fileName, this.line, column, problem);
    return new BrickWorkError(code, `${this.fileName}, line ${this.line}, column ${column}: ${problem}`);
  }
}

/** Where the string starting at `from` ends (its closing quote), or -1 when it goes on past `s`. */
function stringEnd(s: string, from: number): number {
  for (let q = s.indexOf('"', from + 1); q >= 0; q = s.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (s.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

/** A token as a message shows it: short. */
function shown(token: string): string {
  return token.length > 40 ? `${token.slice(0, 39)}…` : token;
}
