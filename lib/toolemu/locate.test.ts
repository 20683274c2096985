import { sharedDataDir } from "@/lib/testing/shared-data";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical";
import { arrayElementLines, checkJsonText, lineAt, MAX_JSON_DEPTH, shortSyntaxError, syntaxErrorLine } from "./locate";

const DATA = sharedDataDir();

/** The SyntaxError JSON.parse throws for `text` (fails the test if it parses). */
function parseError(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (e) {
    return e;
  }
  throw new Error(`expected ${JSON.stringify(text)} not to parse`);
}

describe("lineAt", () => {
  it("counts newlines before the offset, 1-based", () => {
    const text = "a\nbc\n\nd";
    expect(lineAt(text, 0)).toBe(1);
    expect(lineAt(text, 1)).toBe(1); // the newline itself is still on line 1
    expect(lineAt(text, 2)).toBe(2);
    expect(lineAt(text, 5)).toBe(3);
    expect(lineAt(text, 6)).toBe(4);
    expect(lineAt(text, 1000)).toBe(4); // past the end: the last line
  });
});

describe("arrayElementLines", () => {
  it("returns nothing for an empty array, however it is laid out", () => {
    expect(arrayElementLines("[]")).toEqual([]);
    expect(arrayElementLines("[\n]")).toEqual([]);
    expect(arrayElementLines("  [ \n\t\n ]  \n")).toEqual([]);
  });

  it("gives every element of a one-line array line 1", () => {
    expect(arrayElementLines("[1,2,3]")).toEqual([1, 1, 1]);
    expect(arrayElementLines('[ "a" , {"b": [1, 2]} , null ]')).toEqual([1, 1, 1]);
  });

  it("gives the line an element starts on, not the line of its comma", () => {
    expect(arrayElementLines("[\n\n  1,\n  2\n  ,\n\n  3\n]")).toEqual([3, 4, 7]);
    expect(arrayElementLines("[1\n,2\n,3]")).toEqual([1, 2, 3]);
  });

  it("skips over nested arrays and objects, however deep", () => {
    const text = [
      "[", //                                  1
      "  {", //                                2  element 0
      '    "a": [1, [2, [3]], {"b": [4]}],', // 3
      '    "c": {"d": {"e": []}}', //          4
      "  },", //                               5
      "  [", //                                6  element 1
      "    [],", //                            7
      "    [[{}]]", //                         8
      "  ],", //                               9
      "  {}, [], 5", //                        10 elements 2, 3, 4
      "]",
    ].join("\n");
    expect(arrayElementLines(text)).toEqual([2, 6, 10, 10, 10]);
    expect(JSON.parse(text)).toHaveLength(5);
  });

  it("ignores brackets, braces, commas and escaped quotes inside strings", () => {
    const text = [
      "[", //                                      1
      '  "a, b ] c [ { }",', //                    2  element 0
      '  "quote \\" , ] still inside",', //        3  element 1
      '  "backslash at the end \\\\",', //         4  element 2: the string ends after \\
      '  {"k": "}], ["},', //                      5  element 3
      '  "\\\\\\"]",', //                          6  element 4: \\ then \" then ]
      '  "\\n is not a newline, \\u005d is ]"', // 7  element 5
      "]",
    ].join("\n");
    expect(JSON.parse(text)).toHaveLength(6);
    expect(arrayElementLines(text)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("counts CRLF line endings once", () => {
    expect(arrayElementLines("[\r\n  1,\r\n  {\"a\": 2}\r\n]\r\n")).toEqual([2, 3]);
  });

  it("finds the start of each of the 38 toolkits and 144 cases of the real files", () => {
    for (const [file, count] of [["toolemu/all_toolkits.json", 38], ["toolemu/all_cases.json", 144]] as const) {
      const text = readFileSync(path.join(DATA, file), "utf8");
      // Independently: the files are indented by 4, so each element opens with "    {".
      const expected = text.split("\n").flatMap((l, i) => (/^ {4}\{/.test(l) ? [i + 1] : []));
      expect(expected).toHaveLength(count);
      expect(arrayElementLines(text)).toEqual(expected);
    }
  });
});

describe("syntaxErrorLine", () => {
  it("turns the position in V8's message into a line", () => {
    const text = "[1,\n2,\n3 4]"; // the 4 is at offset 9, on line 3
    const err = parseError(text);
    expect(String((err as Error).message)).toMatch(/position 9/);
    expect(syntaxErrorLine(text, err)).toBe(3);
  });

  it("locates errors inside strings and objects", () => {
    const bad = '[\n  {"a": 1},\n  {"b" 2}\n]';
    expect(syntaxErrorLine(bad, parseError(bad))).toBe(3);
    const control = '[\n"ok",\n"tab\there"\n]';
    expect(syntaxErrorLine(control, parseError(control))).toBe(3);
  });

  it("puts a truncated document's error on its last line", () => {
    for (const text of ["[1,\n2,\n", "[1,\n2,\n3", '[\n{"a":\n"unterminated', "[\n{}"]) {
      expect(syntaxErrorLine(text, parseError(text))).toBe(text.split("\n").length);
    }
  });

  it("prefers an explicit 'line N' in the message (other engines and newer V8 say so)", () => {
    expect(syntaxErrorLine("x\ny\nz", new SyntaxError("Expected ',' or '}' after property value in JSON at position 3 (line 7 column 2)"))).toBe(7);
  });

  it("returns null when the message says nothing about where", () => {
    expect(syntaxErrorLine("[1]", new Error("something else"))).toBeNull();
    expect(syntaxErrorLine("[1]", "not an error at all")).toBeNull();
  });

  // Node 20's "Unexpected token" messages carry no position ('Unexpected token \']\', "[1,\n2,\n]"
  // is not valid JSON'): syntaxErrorLine then finds the error with checkJsonText.
  it("locates 'Unexpected token' errors (trailing comma, stray character)", () => {
    const trailing = "[\n  1,\n  2,\n]";
    expect(String((parseError(trailing) as Error).message)).not.toMatch(/position/);
    expect(syntaxErrorLine(trailing, parseError(trailing))).toBe(4);
    const stray = '[\n  {"a": 1},\n  x\n]';
    expect(syntaxErrorLine(stray, parseError(stray))).toBe(3);
    const literal = '[\n  true,\n  nul,\n  1\n]';
    expect(syntaxErrorLine(literal, parseError(literal))).toBe(3);
    const binary = "\n\n\u0089PNG";
    expect(syntaxErrorLine(binary, parseError(binary))).toBe(3);
  });
});

describe("shortSyntaxError", () => {
  it("keeps the reason and drops the position", () => {
    const text = "[1,\n2,\n3 4]";
    expect(shortSyntaxError(parseError(text))).toBe("invalid JSON (Expected ',' or ']' after array element)");
    expect(shortSyntaxError(parseError("[1]\n[2]"))).toBe("invalid JSON (Unexpected non-whitespace character after JSON)");
    expect(shortSyntaxError(parseError("[1,\n"))).toBe("invalid JSON (Unexpected end of JSON input)");
  });

  it("is one line of printable text even when V8 quotes the (binary) source", () => {
    const msg = shortSyntaxError(parseError("\u0089PNG\r\n\u001a\n\u0000\u0000"));
    expect(msg).toMatch(/^invalid JSON \(/);
    expect(msg).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(shortSyntaxError(parseError("x".repeat(10_000))).length).toBeLessThan(200);
  });
});

describe("checkJsonText", () => {
  const NUL = "contains a NUL character (\\u0000), which PostgreSQL cannot store";
  const surrogate = (unit: string) => `contains an unpaired surrogate (${unit}), which is not valid Unicode and PostgreSQL cannot store`;

  it("accepts what JSON.parse accepts: every value kind, escapes, whitespace, surrogate pairs", () => {
    for (const text of [
      "0", "-0", "12", "-1.5e+10", "3E-2", "1.0", "true", "false", "null", '""', '"x"', "[]", "{}", " \t\r\n[ ] ",
      '{"a": [1, 2.5, -3e2, true, false, null, "s", {"b": {}}], "": ""}',
      String.raw`"\" \\ \/ \b \f \n \r \t \u0001 \u001F \uFFFF \u00e9"`,
      String.raw`"\ud83d\ude00 \uD83D\uDE00"`, // an escaped pair, either case
      '"\u{1F600} é 漢字"', // raw characters (a raw pair for the emoji)
      '"\ud83d\\ude00"', // a raw high half followed by an escaped low half
    ]) {
      expect(() => JSON.parse(text), text).not.toThrow();
      expect(checkJsonText(text), text).toBeNull();
    }
  });

  it("accepts the real data files and every line of a real trajectory file", () => {
    for (const file of ["toolemu/all_toolkits.json", "toolemu/all_cases.json"]) expect(checkJsonText(readFileSync(path.join(DATA, file), "utf8"))).toBeNull();
    const traj = path.join(DATA, "trajectories/qwen2.5-7b-instruct/judge-q32/Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Qwen_Qwen3-32B_r0-15_2601_115149");
    for (const suffix of [".jsonl", "_eval_agent_safe.jsonl", "_eval_agent_help_ignore_safety.jsonl"]) {
      const lines = readFileSync(`${traj}${suffix}`, "utf8").split("\n").filter((l) => l.trim());
      expect(lines.length).toBe(15);
      for (const l of lines) expect(checkJsonText(l)).toBeNull();
    }
  });

  it("gives the offset and a short reason for syntax errors", () => {
    const cases: [string, number, string][] = [
      ["", 0, "Unexpected end of JSON input"],
      ["  \n", 3, "Unexpected end of JSON input"],
      ["[1,2", 4, "Unexpected end of JSON input"],
      ['{"a":', 5, "Unexpected end of JSON input"],
      ["tru", 3, "Unexpected end of JSON input"],
      ['"abc', 4, "Unterminated string"],
      ['"ab\\', 4, "Unterminated string"],
      ['"\\u12', 5, "Unterminated string"],
      ["[1,]", 3, "Unexpected token ']' after ',' (a trailing comma is not allowed)"],
      ['{"a":1,}', 7, "Unexpected token '}' after ',' (a trailing comma is not allowed)"],
      ["[,1]", 1, "Unexpected token ','"],
      ["[nul]", 4, "Unexpected token ']'"],
      ["]", 0, "Unexpected token ']'"],
      ["\u0089PNG", 0, "Unexpected token U+0089"],
      ["\uFFFD", 0, "Unexpected token U+FFFD (not valid UTF-8: a binary file?)"],
      ["\uFEFF[]", 0, "Unexpected token U+FEFF (a byte order mark)"],
      ["[1]\n[2]", 4, "Unexpected non-whitespace character after JSON"],
      ["[1 2]", 3, "Expected ',' or ']' after array element, not '2'"],
      ["[1}", 2, "Expected ',' or ']' after array element, not '}'"],
      ['{"a":1 "b":2}', 7, "Expected ',' or '}' after property value, not '\"'"],
      ['{"a" 1}', 5, "Expected ':' after property name, not '1'"],
      ["{a: 1}", 1, "Expected a double-quoted property name or '}', not 'a'"],
      ["{'a': 1}", 1, "Expected a double-quoted property name or '}', not \"'\""],
      ['{"a": 1, 2}', 9, "Expected a double-quoted property name, not '2'"],
      ["[01]", 2, "Unexpected number (no leading zeros)"],
      ["[-]", 2, "No number after minus sign"],
      ["[1.]", 3, "Unterminated fractional number"],
      ["[1e]", 3, "Exponent part is missing a number"],
      ["[1e+]", 4, "Exponent part is missing a number"],
      ['"a\\x"', 2, "Bad escaped character: a backslash before 'x' (a backslash itself is written \\\\)"],
      ['"\\u12g4"', 1, "Bad Unicode escape"],
      ['"a\tb"', 2, "Bad control character U+0009 in string literal"],
      ['[\n"line\nbreak"]', 7, "Bad control character U+000A in string literal"],
    ];
    for (const [text, offset, reason] of cases) {
      expect(() => JSON.parse(text), JSON.stringify(text)).toThrow(SyntaxError);
      expect(checkJsonText(text), JSON.stringify(text)).toEqual({ offset, message: `invalid JSON (${reason})` });
    }
  });

  it("refuses NUL, escaped or raw, in values and property names", () => {
    const cases: [string, number][] = [
      [String.raw`"a\u0000b"`, 2],
      [String.raw`{"k\u0000": 1}`, 3],
      ['"a\u0000b"', 2], // raw, inside a string (JSON.parse calls it a bad control character)
      ["[1,\u0000]", 3], // raw, between values
      ["[1]\u0000", 3], // raw, after the document
      ['{"a"\u0000: 1}', 4],
    ];
    for (const [text, offset] of cases) expect(checkJsonText(text), JSON.stringify(text)).toEqual({ offset, message: NUL });
    // An escaped backslash followed by "u0000" is six ordinary characters.
    expect(checkJsonText(String.raw`"\\u0000"`)).toBeNull();
  });

  it("refuses unpaired surrogates, escaped or raw", () => {
    const cases: [string, number, string][] = [
      [String.raw`"\ud800"`, 1, "\\ud800"],
      [String.raw`"x\uD83Dy"`, 2, "\\uD83D"],
      [String.raw`"\ud83d\u0041"`, 1, "\\ud83d"], // followed by an escape that is not a low half
      [String.raw`"\ud83d\ud83d\ude00"`, 1, "\\ud83d"], // two high halves
      [String.raw`"\ude00"`, 1, "\\ude00"], // a lone low half
      [String.raw`{"\udfff": 1}`, 2, "\\udfff"], // in a property name
      ['"a\ud800"', 2, "U+D800"], // raw
      ['"\udc00a"', 1, "U+DC00"],
      ['"\ud83d\\n"', 1, "U+D83D"],
    ];
    for (const [text, offset, unit] of cases) {
      expect(() => JSON.parse(text), text).not.toThrow(); // JSON.parse accepts them; PostgreSQL does not
      expect(checkJsonText(text), text).toEqual({ offset, message: surrogate(unit) });
    }
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels, at the bracket that goes too deep, without recursion`, () => {
    expect(MAX_JSON_DEPTH).toBe(256);
    const deep = (n: number, open = "[", close = "]") => open.repeat(n) + close.repeat(n);
    const DEEP = "arrays and objects nested deeper than 256 levels are refused";
    expect(checkJsonText(deep(256))).toBeNull();
    expect(checkJsonText(deep(257))).toEqual({ offset: 256, message: DEEP });
    const objects = (n: number) => '{"a":'.repeat(n - 1) + "{}" + "}".repeat(n - 1);
    expect(checkJsonText(objects(256))).toBeNull();
    expect(checkJsonText(objects(257))?.message).toBe(DEEP);
    // Depth goes back down: many siblings at the limit are fine.
    expect(checkJsonText(`[${Array(50).fill(deep(255)).join(",")}]`)).toBeNull();
    // A million levels: no stack overflow, and the limit is configurable.
    expect(checkJsonText(deep(1_000_000))?.message).toBe(DEEP);
    expect(checkJsonText(deep(4), 3)).toEqual({ offset: 3, message: "arrays and objects nested deeper than 3 levels are refused" });
    // A syntax error before the limit is reported first.
    expect(checkJsonText(`[x${deep(300)}]`)?.message).toBe("invalid JSON (Unexpected token 'x')");
  });

  it("agrees with JSON.parse on 20 000 random mutations of JSON text (and on the line of the error)", () => {
    let seed = 20_240_601;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const alphabet = ["[", "]", "{", "}", ",", ":", '"', "\\", "u", "0", "1", "9", "-", "+", ".", "e", "E", "t", "r", "n", "l", "f", "a", " ", "\n", "x", "/", "b", "\t", "\u0001", "é", "d", "8", "c"];
    const samples = ['{"a":[1,2.5e-3,-0,true,false,null,"x\\u00e9\\n\\ud83d\\ude00"]}', "[]", "{}", '"s"', "0", "-1.0E+2", readFileSync(path.join(DATA, "toolemu/all_toolkits.json"), "utf8").slice(0, 1500)];
    /** What PostgreSQL would refuse in a parsed value. */
    const unstorable = (v: unknown): boolean =>
      typeof v === "string" ? v.includes("\u0000") || !(v as string & { isWellFormed(): boolean }).isWellFormed() : v !== null && typeof v === "object" && Object.entries(v).some(([k, x]) => unstorable(k) || unstorable(x));
    let parsed = 0;
    let located = 0;
    for (let k = 0; k < 20_000; k++) {
      let text: string;
      if (k % 2 === 0) {
        text = "";
        const len = 1 + Math.floor(rnd() * 12);
        for (let j = 0; j < len; j++) text += alphabet[Math.floor(rnd() * alphabet.length)];
      } else {
        const chars = samples[Math.floor(rnd() * samples.length)]!.split("");
        for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) {
          const at = Math.floor(rnd() * chars.length);
          const op = rnd();
          const c = alphabet[Math.floor(rnd() * alphabet.length)]!;
          if (op < 0.33) chars.splice(at, 1);
          else if (op < 0.66) chars.splice(at, 0, c);
          else chars[at] = c;
        }
        text = chars.join("");
      }
      let value: unknown;
      let error: unknown = null;
      try {
        value = JSON.parse(text);
      } catch (e) {
        error = e;
      }
      const problem = checkJsonText(text);
      if (error === null) {
        parsed++;
        expect(problem === null, JSON.stringify(text)).toBe(!unstorable(value));
      } else {
        expect(problem, JSON.stringify(text)).not.toBeNull();
        const pos = /position (\d+)/.exec((error as Error).message);
        if (pos && problem!.message.startsWith("invalid JSON")) {
          located++;
          expect(lineAt(text, problem!.offset), JSON.stringify(text)).toBe(lineAt(text, Number(pos[1])));
        }
      }
    }
    // Both outcomes were well exercised.
    expect(parsed).toBeGreaterThan(500);
    expect(located).toBeGreaterThan(3000);
  });

  // Speed is a benchmark's job (bench:import), not a test's: this checks the largest record scans cleanly.
  it("scans a 16 MiB line (the most a record may have) without a false problem", () => {
    const line = `{"input": "${'Lorem ipsum, \\"dolor\\" sit amet é 漢字\\n'.repeat((16 * 2 ** 20) / 40)}", "steps": [${Array(20_000).fill('[["Tool", "{\\"a\\": 1}", "log"], ["{}", "", ""]]').join(",")}]}`;
    expect(line.length).toBeGreaterThan(16 * 2 ** 20);
    expect(checkJsonText(line)).toBeNull();
    // The same line cut one character short is a located problem, not a pass.
    expect(checkJsonText(line.slice(0, -1))).not.toBeNull();
  });
});

describe("canonicalJson", () => {
  it("hashes values up to the scanner's depth limit and refuses deeper ones with a RangeError", () => {
    const nest = (n: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = i % 2 ? [v] : { b: v, a: 0 };
      return v;
    };
    expect(canonicalJson(JSON.parse('{"b":[1,{"d":2,"c":3}],"a":null}'))).toBe('{"a":null,"b":[1,{"c":3,"d":2}]}');
    expect(canonicalJson(nest(MAX_JSON_DEPTH))).toMatch(/^\[\{"a":0,"b":\[\{"a":0,"b":\[/);
    expect(() => canonicalJson(nest(MAX_JSON_DEPTH + 1))).toThrow(RangeError);
    expect(() => canonicalJson(nest(20_000))).toThrow(/nested deeper than 256 levels/);
  });
});
