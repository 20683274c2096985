// Line numbers for JSON documents: where each top-level array element starts, and which line a
// JSON.parse error position falls on; and a one-pass check of JSON text run before JSON.parse.
// Small scanners, no recursion; they never build values.

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Start lines of the elements of a top-level JSON array (assumes the text parsed as JSON). */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\n") continue;
    if (depth === 1 && expectElement && c !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectElement = true;
  }
  return lines;
}

/**
 * The line of a JSON.parse SyntaxError, from the "position N" or "line N" in its message, or else
 * (Node 20's "Unexpected token" messages have neither) from checkJsonText's offset.
 */
export function syntaxErrorLine(text: string, error: unknown): number | null {
  const msg = error instanceof Error ? error.message : String(error);
  const lineMatch = /line (\d+)/.exec(msg);
  if (lineMatch) return Number(lineMatch[1]);
  const pos = /position (\d+)/.exec(msg);
  if (pos) return lineAt(text, Number(pos[1]));
  // Node 20's "Unexpected token" errors say nowhere where: find the error with our own scanner.
  const problem = checkJsonText(text);
  if (problem) return lineAt(text, problem.offset);
  if (/Unexpected end of JSON input/.test(msg)) return lineAt(text, text.length);
  return null;
}

export function shortSyntaxError(error: unknown): string {
  const msg = error instanceof Error ? error.message : String(error);
  return `invalid JSON (${msg.replace(/^.*?SyntaxError: /, "").replace(/ (?:in JSON )?at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)/, "").replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").slice(0, 160)})`;
}

// ---- One-pass check of JSON text before JSON.parse ------------------------------------------
// JSON.parse accepts text PostgreSQL then refuses (\u0000, unpaired surrogates), overflows the
// stack of recursive code on very deep values, and (Node 20) gives "Unexpected token" errors no
// position. This scanner validates the syntax itself with an explicit stack (no recursion), so
// every refusal has an offset, and refuses those three things with a clear message.

/** Arrays and objects nested deeper than this are refused (real records nest < 20 levels). */
export const MAX_JSON_DEPTH = 256;

export interface JsonTextProblem {
  /** Offset in the text (UTF-16 units) of the first problem. */
  offset: number;
  /** One printable line: "invalid JSON (…)" for syntax errors, else what is refused and why. */
  message: string;
}

const NUL_MESSAGE = "contains a NUL character (\\u0000), which PostgreSQL cannot store";

const syntax = (offset: number, reason: string): JsonTextProblem => ({ offset, message: `invalid JSON (${reason})` });
const hex4 = (c: number) => c.toString(16).padStart(4, "0");

function describeChar(c: number): string {
  if (c === 0x27) return `"'"`;
  if (c > 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  const u = `U+${hex4(c).toUpperCase()}`;
  if (c === 0xfffd) return `${u} (not valid UTF-8: a binary file?)`;
  if (c === 0xfeff) return `${u} (a byte order mark)`;
  if (c >= 0xa0 && (c < 0xd800 || c > 0xdfff)) return `'${String.fromCharCode(c)}' (${u})`;
  return u;
}

function unexpected(text: string, i: number, context = ""): JsonTextProblem {
  const c = text.charCodeAt(i);
  if (c === 0) return { offset: i, message: NUL_MESSAGE };
  return syntax(i, `Unexpected token ${describeChar(c)}${context}`);
}

const surrogate = (offset: number, unit: string): JsonTextProblem => ({
  offset,
  message: `contains an unpaired surrogate (${unit}), which is not valid Unicode and PostgreSQL cannot store`,
});

/** The code unit of a \uXXXX escape at i (text[i] is the backslash), or -1. */
function unicodeEscape(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x5c || text.charCodeAt(i + 1) !== 0x75 || i + 6 > text.length) return -1;
  let v = 0;
  for (let k = i + 2; k < i + 6; k++) {
    const c = text.charCodeAt(k);
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/** Scans the string starting at the quote at `start`; returns the offset after its closing quote. */
function scanString(text: string, start: number): number | JsonTextProblem {
  const n = text.length;
  let i = start + 1;
  for (;;) {
    // Fast path: a run of ordinary characters (all but quote, backslash, control characters and
    // surrogate halves), skipped by the regex engine: about twice as fast as a charCodeAt loop.
    PLAIN_RUN.lastIndex = i;
    PLAIN_RUN.test(text);
    i = PLAIN_RUN.lastIndex;
    if (i >= n) return syntax(n, "Unterminated string");
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c === 0x5c) {
      const e = text.charCodeAt(i + 1);
      if (e === 0x75) {
        const v = unicodeEscape(text, i);
        if (v < 0) return i + 6 > n && /^[0-9a-fA-F]*$/.test(text.slice(i + 2)) ? syntax(n, "Unterminated string") : syntax(i, "Bad Unicode escape");
        if (v === 0) return { offset: i, message: NUL_MESSAGE };
        if (v >= 0xd800 && v <= 0xdfff) {
          const low = v <= 0xdbff ? unicodeEscape(text, i + 6) : -1;
          const rawLow = v <= 0xdbff ? text.charCodeAt(i + 6) : 0;
          if (low >= 0xdc00 && low <= 0xdfff) i += 12;
          else if (rawLow >= 0xdc00 && rawLow <= 0xdfff) i += 7;
          else return surrogate(i, text.slice(i, i + 6));
          continue;
        }
        i += 6;
        continue;
      }
      // " \ / b f n r t
      if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        i += 2;
        continue;
      }
      if (i + 1 >= n) return syntax(n, "Unterminated string");
      return syntax(i, `Bad escaped character: a backslash before ${describeChar(e)} (a backslash itself is written \\\\)`);
    }
    if (c >= 0xd800) {
      if (c > 0xdfff) {
        i++;
        continue;
      }
      if (c <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        const low = unicodeEscape(text, i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i += 2;
        else if (low >= 0xdc00 && low <= 0xdfff) i += 7;
        else return surrogate(i, `U+${hex4(c).toUpperCase()}`);
        continue;
      }
      return surrogate(i, `U+${hex4(c).toUpperCase()}`);
    }
    // A control character.
    if (c === 0) return { offset: i, message: NUL_MESSAGE };
    return syntax(i, `Bad control character ${describeChar(c)} in string literal`);
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Scans the number starting at `start`; returns the offset after it. */
function scanNumber(text: string, start: number): number | JsonTextProblem {
  const n = text.length;
  let i = start;
  if (text.charCodeAt(i) === 0x2d) i++;
  let c = text.charCodeAt(i);
  if (c === 0x30) {
    i++;
    if (isDigit(text.charCodeAt(i))) return syntax(i, "Unexpected number (no leading zeros)");
  } else if (isDigit(c)) {
    while (isDigit(text.charCodeAt(i))) i++;
  } else {
    return i >= n ? syntax(n, "Unexpected end of JSON input") : syntax(i, "No number after minus sign");
  }
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return syntax(i, "Unterminated fractional number");
    while (isDigit(text.charCodeAt(i))) i++;
  }
  c = text.charCodeAt(i);
  if (c === 0x65 || c === 0x45) {
    i++;
    c = text.charCodeAt(i);
    if (c === 0x2b || c === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return syntax(i, "Exponent part is missing a number");
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

function scanLiteral(text: string, start: number, word: string): number | JsonTextProblem {
  for (let k = 1; k < word.length; k++) {
    const i = start + k;
    if (i >= text.length) return syntax(text.length, "Unexpected end of JSON input");
    if (text.charCodeAt(i) !== word.charCodeAt(k)) return unexpected(text, i);
  }
  return start + word.length;
}

// What the scanner expects next.
const VALUE = 0; // any value (top level, after ':')
const ARRAY_FIRST = 1; // a value or ']' (after '[')
const ARRAY_NEXT = 2; // a value (after ',' in an array)
const OBJECT_FIRST = 3; // a property name or '}' (after '{')
const OBJECT_NEXT = 4; // a property name (after ',' in an object)
const COLON = 5; // ':' after a property name
const AFTER = 6; // ',' or the closing bracket, or the end at the top level
const IN_OBJECT = 1;
const IN_ARRAY = 2;

/**
 * Checks one JSON text without recursion: its syntax, nesting at most `maxDepth` arrays/objects,
 * no NUL character (raw or \u0000) and no unpaired UTF-16 surrogate (raw or escaped).
 * Returns the first problem, or null when JSON.parse will accept the text and PostgreSQL can
 * store the result. A leading byte order mark is the caller's to strip.
 */
export function checkJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextProblem | null {
  const n = text.length;
  const stack = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let state = VALUE;
  let i = 0;
  for (;;) {
    let c = 0;
    while (i < n) {
      c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    if (i >= n) return state === AFTER && depth === 0 ? null : syntax(n, "Unexpected end of JSON input");
    let r: number | JsonTextProblem;
    switch (state) {
      case AFTER:
        if (depth === 0) return c === 0 ? unexpected(text, i) : syntax(i, "Unexpected non-whitespace character after JSON");
        if (stack[depth - 1] === IN_ARRAY) {
          if (c === 0x2c) state = ARRAY_NEXT;
          else if (c === 0x5d) depth--;
          else return c === 0 ? unexpected(text, i) : syntax(i, `Expected ',' or ']' after array element, not ${describeChar(c)}`);
        } else {
          if (c === 0x2c) state = OBJECT_NEXT;
          else if (c === 0x7d) depth--;
          else return c === 0 ? unexpected(text, i) : syntax(i, `Expected ',' or '}' after property value, not ${describeChar(c)}`);
        }
        i++;
        continue;
      case COLON:
        if (c !== 0x3a) return c === 0 ? unexpected(text, i) : syntax(i, `Expected ':' after property name, not ${describeChar(c)}`);
        state = VALUE;
        i++;
        continue;
      case OBJECT_FIRST:
      case OBJECT_NEXT:
        if (c === 0x22) {
          r = scanString(text, i);
          if (typeof r !== "number") return r;
          i = r;
          state = COLON;
          continue;
        }
        if (c === 0x7d) {
          if (state === OBJECT_NEXT) return unexpected(text, i, " after ',' (a trailing comma is not allowed)");
          depth--;
          i++;
          state = AFTER;
          continue;
        }
        if (c === 0) return unexpected(text, i);
        return syntax(i, `Expected a double-quoted property name${state === OBJECT_FIRST ? " or '}'" : ""}, not ${describeChar(c)}`);
      default: // VALUE, ARRAY_FIRST, ARRAY_NEXT
        if (c === 0x5d && state !== VALUE) {
          if (state === ARRAY_NEXT) return unexpected(text, i, " after ',' (a trailing comma is not allowed)");
          depth--;
          i++;
          state = AFTER;
          continue;
        }
        if (c === 0x22) r = scanString(text, i);
        else if (c === 0x7b || c === 0x5b) {
          if (depth >= maxDepth) return { offset: i, message: `arrays and objects nested deeper than ${maxDepth} levels are refused` };
          stack[depth++] = c === 0x7b ? IN_OBJECT : IN_ARRAY;
          i++;
          state = c === 0x7b ? OBJECT_FIRST : ARRAY_FIRST;
          continue;
        } else if (c === 0x2d || isDigit(c)) r = scanNumber(text, i);
        else if (c === 0x74) r = scanLiteral(text, i, "true");
        else if (c === 0x66) r = scanLiteral(text, i, "false");
        else if (c === 0x6e) r = scanLiteral(text, i, "null");
        else return unexpected(text, i);
        if (typeof r !== "number") return r;
        i = r;
        state = AFTER;
    }
  }
}
