// Malformed import files, each run through runImport against ONE database that already holds
// the full shared data. Every one must be refused with a located issue (file, line, field path)
// and leave every table exactly as it was.
import { sharedDataDir } from "@/lib/testing/shared-data";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { runImport, type RunImportResult } from "./import";
import { formatIssue, type ImportIssue } from "./issues";
import { MAX_LINE_BYTES } from "./read";

const DATA = sharedDataDir();
const TRAJ_FILE = path.join(
  DATA,
  "trajectories/qwen2.5-7b-instruct/judge-q32/Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Qwen_Qwen3-32B_r0-15_2601_115149",
);

/* eslint-disable @typescript-eslint/no-explicit-any -- source records are untyped JSON */
type Json = any;
const TOOLKITS: Json[] = JSON.parse(readFileSync(path.join(DATA, "toolemu/all_toolkits.json"), "utf8"));
const CASES: Json[] = JSON.parse(readFileSync(path.join(DATA, "toolemu/all_cases.json"), "utf8"));
/** The first three trajectory lines of a real file, verbatim (already stored by beforeAll). */
const TRAJ_LINES = readFileSync(`${TRAJ_FILE}.jsonl`, "utf8").split("\n").slice(0, 3);
const SAFE_LINE: Json = JSON.parse(readFileSync(`${TRAJ_FILE}_eval_agent_safe.jsonl`, "utf8").split("\n")[0]!);

// A trajectory file name with the model pattern, and its companions.
const P = "Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Fuzz_Judge_r0-3_2601_000000";
const TRAJ = `${P}.jsonl`;
const SAFE = `${P}_eval_agent_safe.jsonl`;
const HELP = `${P}_eval_agent_help_ignore_safety.jsonl`;
const STEP_MESSAGE = "expected [[tool, input, log], [observation, summary, emulator log]] or an AgentFinish step";

const clone = <T>(v: T): T => structuredClone(v);
/** A toolkit the database does not have yet (its own name and tool-name prefix). */
const newToolkit = (name: string, patch: Json = {}) => ({ ...clone(TOOLKITS[0]), toolkit: name, name_for_model: name, ...patch });
/** Pretty-printed array (indent 2), as people write them. */
const pretty = (arr: unknown[]) => JSON.stringify(arr, null, 2);
/** Where element i of pretty(arr) starts, counted independently of the importer's scanner. */
const prettyLine = (arr: unknown[], i: number) => 2 + arr.slice(0, i).reduce<number>((n, e) => n + JSON.stringify(e, null, 2).split("\n").length, 0);
/** One element per line: element i is on line i + 2. */
const perLine = (arr: unknown[]) => `[\n${arr.map((e) => JSON.stringify(e)).join(",\n")}\n]\n`;
/** A copy of trajectory line i with `patch` applied. */
const trajLine = (i: number, patch: (l: Json) => void) => {
  const l = JSON.parse(TRAJ_LINES[i]!);
  patch(l);
  return JSON.stringify(l);
};
/** The real trajectory lines with line `i` (0-based) replaced. */
const trajWith = (i: number, text: string) => TRAJ_LINES.map((l, j) => (j === i ? text : l)).join("\n") + "\n";
/** A trajectory file of the three real lines plus a safety file of the given lines. */
const withSafety = (...lines: string[]): FuzzFile[] => [
  { name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" },
  { name: SAFE, content: lines.join("\n") + "\n" },
];
const safeLine = (patch: Json) => JSON.stringify({ ...SAFE_LINE, ...patch });
const deep = (depth: number) => "[".repeat(depth) + "1" + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
/** The messages for text PostgreSQL cannot store and for nesting too deep to hash. */
const NUL = "contains a NUL character (\\u0000), which PostgreSQL cannot store";
const surrogate = (unit: string) => `contains an unpaired surrogate (${unit}), which is not valid Unicode and PostgreSQL cannot store`;
const DEEP = "arrays and objects nested deeper than 256 levels are refused";
const NUL_CASES = [{ ...CASES[0], name: "fuzz_nul_case" }, { ...CASES[1], name: "fuzz_nul_case_2", "User Instruction": "delete \u0000 everything" }];

/** Deterministic pseudo-random bytes (mulberry32). */
function randomBytes(n: number, seed: number, pick: (b: number) => number = (b) => b): Buffer {
  let a = seed;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    out[i] = pick(((x ^ (x >>> 14)) >>> 0) & 0xff);
  }
  return out;
}

interface FuzzFile {
  /** Name relative to the case's folder; it is also the name the importer shows. */
  name: string;
  content: string | Buffer | ((absPath: string) => void);
}

interface FuzzCase {
  name: string;
  files: () => FuzzFile[];
  /** The issue that must be among those reported. */
  issue: { file: string; line: number | null; field: string | null; message: string | RegExp; exact?: string };
  /** Extra check after the import (e.g. that a valid record of the batch was not written). */
  after?: () => Promise<void>;
}

// Toolkit 10 (FacebookManager) has a fourth tool with parameters: the brief's example field path.
const TK_WITH_4_TOOLS = 10;

const CASES_TABLE: FuzzCase[] = [
  // ---- JSON syntax ------------------------------------------------------------------------
  ...[0.5, 0.1, 0.999].map((at): FuzzCase => {
    const full = readFileSync(path.join(DATA, "toolemu/all_toolkits.json"), "utf8");
    const text = full.slice(0, Math.floor(full.length * at));
    return { name: `truncated toolkits file (${at * 100}%)`, files: () => [{ name: "all_toolkits.json", content: text }], issue: { file: "all_toolkits.json", line: text.split("\n").length, field: null, message: "invalid JSON" } };
  }),
  (() => {
    const full = readFileSync(path.join(DATA, "toolemu/all_cases.json"), "utf8");
    const text = full.slice(0, full.indexOf('"official_100"'));
    return { name: "truncated cases file", files: () => [{ name: "all_cases.json", content: text }], issue: { file: "all_cases.json", line: text.split("\n").length, field: null, message: "invalid JSON" } };
  })(),
  {
    name: "truncated JSONL line",
    files: () => [{ name: TRAJ, content: trajWith(1, TRAJ_LINES[1]!.slice(0, Math.floor(TRAJ_LINES[1]!.length / 2))) }],
    issue: { file: TRAJ, line: 2, field: null, message: "invalid JSON (Unterminated string)" },
  },
  {
    name: "invalid JSON in an evaluation line",
    files: () => withSafety(safeLine({}), "{eval_id: 1}"),
    issue: { file: SAFE, line: 2, field: null, message: "invalid JSON" },
  },
  {
    name: "missing colon deep in a pretty-printed file",
    files: () => [{ name: "tk.json", content: pretty(TOOLKITS.slice(0, 3)).replace('"name_for_human": "Gmail"', '"name_for_human" "Gmail"') }],
    issue: { file: "tk.json", line: pretty(TOOLKITS.slice(0, 3)).split("\n").findIndex((l) => l.includes('"name_for_human": "Gmail"')) + 1, field: null, message: "invalid JSON (Expected ':' after property name, not '\"')" },
  },
  {
    name: "two JSON documents in one file",
    files: () => [{ name: "tk.json", content: `${pretty(TOOLKITS.slice(0, 1))}\n${pretty(TOOLKITS.slice(1, 2))}` }],
    issue: { file: "tk.json", line: pretty(TOOLKITS.slice(0, 1)).split("\n").length + 1, field: null, message: "invalid JSON (Unexpected non-whitespace character after JSON)", exact: `tk.json:${pretty(TOOLKITS.slice(0, 1)).split("\n").length + 1}: invalid JSON (Unexpected non-whitespace character after JSON)` },
  },
  {
    name: "trailing comma after the last toolkit",
    files: () => [{ name: "tk.json", content: perLine(TOOLKITS.slice(0, 2)).replace(/\n\]\n$/, ",\n]\n") }],
    issue: { file: "tk.json", line: 4, field: null, message: "invalid JSON", exact: "tk.json:4: invalid JSON (Unexpected token ']' after ',' (a trailing comma is not allowed))" },
  },
  {
    name: "stray character between toolkits",
    files: () => [{ name: "tk.json", content: perLine(TOOLKITS.slice(0, 2)).replace(",\n", ",\nx\n") }],
    issue: { file: "tk.json", line: 3, field: null, message: "invalid JSON", exact: "tk.json:3: invalid JSON (Unexpected token 'x')" },
  },
  {
    name: "trailing comma after the last property of a toolkit",
    files: () => [{ name: "tk.json", content: pretty([TOOLKITS[0], TOOLKITS[1]]).replace("\n  },\n  {", ",\n  },\n  {") }],
    issue: {
      file: "tk.json",
      line: pretty([TOOLKITS[0]]).split("\n").length - 1,
      field: null,
      message: "invalid JSON",
      exact: `tk.json:${pretty([TOOLKITS[0]]).split("\n").length - 1}: invalid JSON (Unexpected token '}' after ',' (a trailing comma is not allowed))`,
    },
  },
  {
    name: "missing comma between two toolkits",
    files: () => [{ name: "tk.json", content: `[\n${JSON.stringify(TOOLKITS[0])},\n${JSON.stringify(TOOLKITS[1])}\n${JSON.stringify(TOOLKITS[2])}\n]\n` }],
    issue: { file: "tk.json", line: 4, field: null, message: "invalid JSON", exact: "tk.json:4: invalid JSON (Expected ',' or ']' after array element, not '{')" },
  },
  {
    name: "a raw line break inside a string of a pretty-printed file",
    files: () => [{ name: "tk.json", content: pretty(TOOLKITS.slice(0, 3)).replace('"name_for_human": "Gmail"', '"name_for_human": "Gm\nail"') }],
    issue: {
      file: "tk.json",
      line: pretty(TOOLKITS.slice(0, 3)).split("\n").findIndex((l) => l.includes('"name_for_human": "Gmail"')) + 1,
      field: null,
      message: "invalid JSON (Bad control character U+000A in string literal)",
    },
  },
  {
    name: "single-quoted JSONL line",
    files: () => [{ name: TRAJ, content: trajWith(1, "{'input': 'x'}") }],
    issue: { file: TRAJ, line: 2, field: null, message: "invalid JSON", exact: `${TRAJ}:2: invalid JSON (Expected a double-quoted property name or '}', not "'")` },
  },
  {
    name: "typographic quotes in a JSONL line",
    files: () => [{ name: TRAJ, content: trajWith(2, "{\u201cinput\u201d: 1}") }],
    issue: { file: TRAJ, line: 3, field: null, message: "invalid JSON", exact: `${TRAJ}:3: invalid JSON (Expected a double-quoted property name or '}', not '\u201c' (U+201C))` },
  },
  {
    name: "a number with a leading zero in a JSONL line",
    files: () => [{ name: TRAJ, content: trajWith(1, TRAJ_LINES[1]!.replace(/"case_idx": (\d+)/, '"case_idx": 0$1')) }],
    issue: { file: TRAJ, line: 2, field: null, message: "invalid JSON (Unexpected number (no leading zeros))" },
  },
  {
    name: "an unknown escape (a Windows path) in a JSONL line",
    files: () => [{ name: TRAJ, content: trajWith(0, TRAJ_LINES[0]!.replace('"input": "', '"input": "C:\\Users ')) }],
    issue: { file: TRAJ, line: 1, field: null, message: "invalid JSON", exact: `${TRAJ}:1: invalid JSON (Bad escaped character: a backslash before 'U' (a backslash itself is written \\\\))` },
  },
  {
    name: "a bad \\u escape in an evaluation line",
    files: () => withSafety(safeLine({}), safeLine({ eval_id: 1 }).replace('"Evaluator Thought":"', '"Evaluator Thought":"\\u12x4')),
    issue: { file: SAFE, line: 2, field: null, message: "invalid JSON (Bad Unicode escape)" },
  },

  // ---- empty, whitespace, binary, wrong top level ------------------------------------------
  { name: "empty .json", files: () => [{ name: "empty.json", content: "" }], issue: { file: "empty.json", line: null, field: null, message: "the file is empty" } },
  { name: "empty .jsonl", files: () => [{ name: TRAJ, content: "" }], issue: { file: TRAJ, line: null, field: null, message: "the file has no trajectories" } },
  { name: "whitespace-only .json", files: () => [{ name: "ws.json", content: "  \n\t\n \n" }], issue: { file: "ws.json", line: 4, field: null, message: "invalid JSON (Unexpected end of JSON input)" } },
  { name: "whitespace-only .jsonl", files: () => [{ name: TRAJ, content: " \n\t\n\r\n\n" }], issue: { file: TRAJ, line: null, field: null, message: "the file has no trajectories" } },
  {
    name: "random bytes as .json",
    files: () => [{ name: "noise.json", content: randomBytes(4096, 1, (b) => (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d ? 0x41 : b)) }],
    issue: { file: "noise.json", line: 1, field: null, message: "invalid JSON (Unexpected token" },
  },
  {
    name: "random bytes as .jsonl",
    files: () => [{ name: TRAJ, content: randomBytes(8192, 2, (b) => (b % 97 === 0 ? 0x0a : 0x80 | b)) }],
    issue: { file: TRAJ, line: 1, field: null, message: "invalid JSON" },
  },
  {
    name: "a PNG image named .json",
    files: () => [{ name: "image.json", content: Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"), randomBytes(256, 3)]) }],
    issue: { file: "image.json", line: 1, field: null, message: "invalid JSON (Unexpected token U+FFFD (not valid UTF-8: a binary file?))" },
  },
  {
    name: "a PNG image named .jsonl",
    files: () => [{ name: TRAJ, content: Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex") }],
    issue: { file: TRAJ, line: 1, field: null, message: "invalid JSON" },
  },
  { name: "top-level object instead of an array", files: () => [{ name: "obj.json", content: JSON.stringify({ toolkits: TOOLKITS.slice(0, 1) }) }], issue: { file: "obj.json", line: 1, field: null, message: "expected a JSON array at the top level" } },
  { name: "top-level string", files: () => [{ name: "str.json", content: '"all_toolkits"' }], issue: { file: "str.json", line: 1, field: null, message: "expected a JSON array at the top level" } },
  { name: "array of numbers", files: () => [{ name: "nums.json", content: "[1, 2, 3]" }], issue: { file: "nums.json", line: 1, field: null, message: "cannot tell what this file holds" } },
  { name: "array of unrelated objects", files: () => [{ name: "objs.json", content: pretty([{ id: 1, title: "x" }, { id: 2 }]) }], issue: { file: "objs.json", line: 1, field: null, message: "cannot tell what this file holds" } },
  { name: "empty array", files: () => [{ name: "none.json", content: "[]" }], issue: { file: "none.json", line: 1, field: null, message: "cannot tell what this file holds" } },
  {
    name: "a .json over the size limit (sparse 65 MiB)",
    files: () => [{ name: "huge.json", content: (p) => { writeFileSync(p, "["); truncateSync(p, 65 * 2 ** 20); } }],
    issue: { file: "huge.json", line: null, field: null, message: "the file is 65 MiB; JSON files over 64 MiB are refused" },
  },
  {
    name: "a 50 MiB single JSONL line",
    files: () => [
      {
        name: TRAJ,
        content: (p) => {
          // Written in 1 MiB chunks: the test never holds the line itself.
          const fd = openSync(p, "w");
          writeSync(fd, `${TRAJ_LINES[0]}\n{"input": "`);
          const chunk = Buffer.alloc(2 ** 20, "x");
          for (let i = 0; i < 50; i++) writeSync(fd, chunk);
          writeSync(fd, `", "case": {"name": "official_0"}, "intermediate_steps": []}\n${TRAJ_LINES[1]}\n`);
          closeSync(fd);
        },
      },
    ],
    issue: { file: TRAJ, line: 2, field: null, message: `the line is 50 MiB, more than the ${MAX_LINE_BYTES / 2 ** 20} MiB a record may have` },
  },

  // ---- toolkits: wrong types at field paths --------------------------------------------------
  {
    name: "tools[3].parameters[0].required is \"yes\"",
    files: () => {
      const tks = clone(TOOLKITS.slice(0, TK_WITH_4_TOOLS + 1));
      tks[TK_WITH_4_TOOLS].tools[3].parameters[0].required = "yes";
      return [{ name: "bad_toolkits.json", content: perLine(tks) }];
    },
    issue: {
      file: "bad_toolkits.json",
      line: 12,
      field: "[10].tools[3].parameters[0].required",
      message: "expected true or false",
      exact: "bad_toolkits.json:12: [10].tools[3].parameters[0].required: expected true or false",
    },
  },
  ...(
    [
      ["returns is not a list", (tk: Json) => (tk.tools[0].returns = "string"), "[0].tools[0].returns", "expected a list of return fields"],
      ["tool name is a number", (tk: Json) => (tk.tools[1].name = 42), "[0].tools[1].name", "expected a string"],
      ["category is a number", (tk: Json) => (tk.category = 7), "[0].category", "expected a string"],
      ["toolkit name is blank", (tk: Json) => (tk.toolkit = "   "), "[0].toolkit", "must not be empty"],
      ["name_for_model is missing", (tk: Json) => delete tk.name_for_model, "[0].name_for_model", "expected a string"],
      ["description_for_human is null", (tk: Json) => (tk.description_for_human = null), "[0].description_for_human", "expected a string"],
      ["tools is empty", (tk: Json) => (tk.tools = []), "[0].tools", "a toolkit needs at least one tool"],
      ["tools is an object", (tk: Json) => (tk.tools = { Execute: {} }), "[0].tools", "expected a list of tools"],
      ["a tool is a string", (tk: Json) => (tk.tools[2] = "Execute"), "[0].tools[2]", /expected object/],
      ["parameter type is not a known type", (tk: Json) => (tk.tools[0].parameters[0].type = "float"), "[0].tools[0].parameters[0].type", "expected one of string, integer, number, boolean, array, object"],
      ["return field has no type", (tk: Json) => delete tk.tools[0].returns[0].type, "[0].tools[0].returns[0].type", "expected one of string"],
      ["parameter description is a number", (tk: Json) => (tk.tools[0].parameters[1].description = 3), "[0].tools[0].parameters[1].description", "expected a string"],
      ["parameter name is empty", (tk: Json) => (tk.tools[0].parameters[0].name = ""), "[0].tools[0].parameters[0].name", "must not be empty"],
      ["exceptions is a string", (tk: Json) => (tk.tools[0].exceptions = "NotFoundException"), "[0].tools[0].exceptions", "expected a list of exceptions"],
      ["exception name is blank", (tk: Json) => (tk.tools[0].exceptions[0].name = " "), "[0].tools[0].exceptions[0].name", "must not be empty"],
      ["tool summary is missing", (tk: Json) => delete tk.tools[4].summary, "[0].tools[4].summary", "expected a string"],
      ["parameters is a string", (tk: Json) => (tk.tools[0].parameters = "none"), "[0].tools[0].parameters", "expected a list of parameters"],
    ] as const
  ).map(([name, mutate, field, message]): FuzzCase => {
    // Gmail (9 tools, parameters and exceptions everywhere), pretty-printed.
    const tk = clone(TOOLKITS[1]);
    mutate(tk);
    return { name: `toolkit: ${name}`, files: () => [{ name: "toolkit.json", content: pretty([tk]) }], issue: { file: "toolkit.json", line: 2, field, message } };
  }),
  {
    name: "toolkit: a bad element after valid ones is located at its own line",
    files: () => {
      const tks = clone(TOOLKITS.slice(0, 6));
      tks[5].tools[2].parameters = [{ name: "x", type: "string", description: "d", required: 1 }];
      return [{ name: "toolkits.json", content: pretty(tks) }];
    },
    issue: { file: "toolkits.json", line: prettyLine(TOOLKITS.slice(0, 6), 5), field: "[5].tools[2].parameters[0].required", message: "expected true or false" },
  },
  {
    name: "toolkit: an element that is a string",
    files: () => [{ name: "toolkits.json", content: perLine(["Terminal", TOOLKITS[0]]) }],
    issue: { file: "toolkits.json", line: 2, field: "[0]", message: /expected object/ },
  },
  {
    name: "toolkit: BOM-prefixed file with an error keeps its line numbers",
    files: () => {
      const tks = clone(TOOLKITS.slice(0, 3));
      tks[2].name_for_human = ["Google", "Calendar"];
      return [{ name: "bom.json", content: "\uFEFF" + pretty(tks) }];
    },
    issue: { file: "bom.json", line: prettyLine(TOOLKITS.slice(0, 3), 2), field: "[2].name_for_human", message: "expected a string" },
  },

  // ---- toolkits: duplicates ----------------------------------------------------------------
  {
    name: "duplicate toolkit name within one file",
    files: () => [{ name: "dups.json", content: perLine([TOOLKITS[0], TOOLKITS[1], TOOLKITS[0]]) }],
    issue: { file: "dups.json", line: 4, field: "[2].toolkit", message: 'duplicate toolkit "Terminal" (also at dups.json:2)', exact: 'dups.json:4: [2].toolkit: duplicate toolkit "Terminal" (also at dups.json:2)' },
  },
  {
    name: "duplicate toolkit name across two files",
    files: () => [
      { name: "a.json", content: perLine([TOOLKITS[0], TOOLKITS[1]]) },
      { name: "b.json", content: perLine([TOOLKITS[2], TOOLKITS[1]]) },
    ],
    issue: { file: "b.json", line: 3, field: "[1].toolkit", message: 'duplicate toolkit "Gmail" (also at a.json:3)' },
  },
  {
    name: "duplicate agent tool name between two new toolkits",
    files: () => [{ name: "clash.json", content: perLine([newToolkit("FuzzAb", { name_for_model: "FuzzA", tools: [{ ...clone(TOOLKITS[0].tools[0]), name: "bExecute" }] }), newToolkit("FuzzAbb", { name_for_model: "FuzzAb", tools: [{ ...clone(TOOLKITS[0].tools[0]), name: "Execute" }] })]) }],
    issue: { file: "clash.json", line: 3, field: "[1].tools", message: "tool name FuzzAbExecute is already used by toolkit FuzzAb" },
  },
  {
    name: "the same tool twice in one toolkit",
    files: () => [{ name: "twice.json", content: perLine([newToolkit("FuzzTwice", { tools: [clone(TOOLKITS[0].tools[0]), clone(TOOLKITS[0].tools[0])] })]) }],
    issue: { file: "twice.json", line: 2, field: "[0].tools", message: "tool name FuzzTwiceExecute is already used by toolkit FuzzTwice" },
  },
  {
    name: "a new toolkit whose agent tool name is already stored (TerminalExecute)",
    files: () => [{ name: "copy.json", content: perLine([{ ...clone(TOOLKITS[0]), toolkit: "TerminalCopy" }]) }],
    issue: { file: "copy.json", line: 2, field: "[0].tools", message: "TerminalExecute", exact: "copy.json:2: [0].tools: tool name TerminalExecute is already used by the stored toolkit Terminal" },
  },

  {
    name: "a new toolkit whose prefix and tool name spell a stored tool's name (Termina + lExecute)",
    files: () => [{ name: "split.json", content: perLine([TOOLKITS[1], newToolkit("FuzzSplit", { name_for_model: "Termina", tools: [{ ...clone(TOOLKITS[0].tools[0]), name: "lExecute" }] })]) }],
    issue: { file: "split.json", line: 3, field: "[1].tools", message: "tool name TerminalExecute is already used by the stored toolkit Terminal" },
    after: async () => expect(await t.prisma.toolkit.count({ where: { name: "FuzzSplit" } })).toBe(0),
  },
  {
    name: "a changed toolkit whose new name_for_model takes another stored toolkit's tool name",
    files: () => [{ name: "changed.json", content: perLine([{ ...clone(TOOLKITS[0]), name_for_model: "Gmail", tools: [{ ...clone(TOOLKITS[0].tools[0]), name: "SendEmail" }] }]) }],
    issue: { file: "changed.json", line: 2, field: "[0].tools", message: "tool name GmailSendEmail is already used by the stored toolkit Gmail" },
  },

  // ---- text PostgreSQL cannot store, values too deep to hash ---------------------------------
  {
    name: "raw NUL character inside a string of a JSONL line",
    files: () => [{ name: TRAJ, content: trajWith(2, TRAJ_LINES[2]!.replace('"input": "', '"input": "\0')) }],
    issue: { file: TRAJ, line: 3, field: null, message: NUL, exact: `${TRAJ}:3: ${NUL}` },
  },
  {
    name: "raw NUL character between the elements of a .json",
    files: () => [{ name: "nul.json", content: `[\n${JSON.stringify(TOOLKITS[0])},\n\0${JSON.stringify(TOOLKITS[1])}\n]\n` }],
    issue: { file: "nul.json", line: 3, field: null, message: NUL, exact: `nul.json:3: ${NUL}` },
  },
  {
    name: "\\u0000 in a property name of an evaluation line",
    files: () => withSafety(safeLine({}), safeLine({ eval_id: 1, "note\u0000": 1 })),
    issue: { file: SAFE, line: 2, field: null, message: NUL, exact: `${SAFE}:2: ${NUL}` },
  },
  {
    name: "\\u0000 in a new case's User Instruction (pretty-printed)",
    files: () => [{ name: "cases.json", content: pretty(NUL_CASES) }],
    issue: { file: "cases.json", line: pretty(NUL_CASES).split("\n").findIndex((l) => l.includes("delete \\u0000 everything")) + 1, field: null, message: NUL },
    after: async () => expect(await t.prisma.testCase.count({ where: { name: { startsWith: "fuzz_nul_case" } } })).toBe(0),
  },
  {
    name: "NUL character (\\u0000) in a new toolkit's description",
    files: () => [{ name: "nul.json", content: perLine([newToolkit("FuzzNul", { description_for_human: "before\u0000after" })]) }],
    issue: { file: "nul.json", line: 2, field: null, message: /\\u0000|NUL/, exact: `nul.json:2: ${NUL}` },
  },
  {
    name: "NUL character (\\u0000) in a new trajectory line",
    files: () => [{ name: TRAJ, content: trajWith(0, trajLine(0, (l) => (l.output = "a\u0000b"))) }],
    issue: { file: TRAJ, line: 1, field: null, message: /\\u0000|NUL/, exact: `${TRAJ}:1: ${NUL}` },
  },
  {
    name: "lone surrogate (\\ud800) in a new toolkit",
    files: () => [{ name: "surrogate.json", content: perLine([newToolkit("FuzzSurrogate", { description_for_model: "a\ud800b" })]) }],
    issue: { file: "surrogate.json", line: 2, field: null, message: /surrogate|\\ud800|Unicode/i, exact: `surrogate.json:2: ${surrogate("\\ud800")}` },
  },
  {
    name: "lone low surrogate (\\udc00) in an evaluation line",
    files: () => withSafety(safeLine({ "Evaluator Thought": "x\udc00y" })),
    issue: { file: SAFE, line: 1, field: null, message: /surrogate/, exact: `${SAFE}:1: ${surrogate("\\udc00")}` },
  },
  {
    name: "high surrogate escape followed by another escape",
    files: () => [{ name: TRAJ, content: trajWith(1, TRAJ_LINES[1]!.replace('"input": "', '"input": "\\ud83d\\u0041')) }],
    issue: { file: TRAJ, line: 2, field: null, message: /surrogate/, exact: `${TRAJ}:2: ${surrogate("\\ud83d")}` },
  },
  {
    name: "high surrogate escape at the end of a string",
    files: () => [{ name: TRAJ, content: trajWith(0, TRAJ_LINES[0]!.replace('"input": "', '"input": "\\uD83D", "x": "')) }],
    issue: { file: TRAJ, line: 1, field: null, message: /surrogate/, exact: `${TRAJ}:1: ${surrogate("\\uD83D")}` },
  },
  {
    name: "257 levels of nesting in a trajectory line (one over the limit)",
    files: () => [{ name: TRAJ, content: `${TRAJ_LINES[0]}\n{"input": "x", "case": {"name": "official_0"}, "intermediate_steps": [], "output": ${deep(256)}}\n` }],
    issue: { file: TRAJ, line: 2, field: null, message: DEEP },
  },
  {
    name: "a 20 000-deep object in a case",
    files: () => [{ name: "cases.json", content: `[\n${JSON.stringify({ ...CASES[0], name: "fuzz_deep_case" }).slice(0, -1)},\n"extra": ${deepObject(20_000)}}\n]` }],
    issue: { file: "cases.json", line: 3, field: null, message: DEEP },
  },
  {
    name: "a 20 000-deep array in an extra toolkit field",
    files: () => [{ name: "deep.json", content: `[\n${JSON.stringify(newToolkit("FuzzDeep")).slice(0, -1)}, "extra": ${deep(20_000)}}\n]` }],
    issue: { file: "deep.json", line: 2, field: null, message: /deep|nest/i, exact: `deep.json:2: ${DEEP}` },
  },
  {
    name: "a 20 000-deep array as a trajectory's output",
    files: () => [{ name: TRAJ, content: `${TRAJ_LINES[0]}\n{"input": "x", "case": {"name": "official_0"}, "intermediate_steps": [], "output": ${deep(20_000)}}\n` }],
    issue: { file: TRAJ, line: 2, field: null, message: /deep|nest/i, exact: `${TRAJ}:2: ${DEEP}` },
  },

  // ---- cases ---------------------------------------------------------------------------------
  ...(
    [
      ["Underspecifications lacks a key", (c: Json) => delete c.Underspecifications["Safety & Security Constraints"], "[1].Underspecifications.Safety & Security Constraints", "expected a list of strings"],
      ["Underspecifications is a string", (c: Json) => (c.Underspecifications = "none"), "[1].Underspecifications", "expected an object with Task Information and Safety & Security Constraints"],
      ["Toolkits is empty", (c: Json) => (c.Toolkits = []), "[1].Toolkits", "a case needs at least one toolkit"],
      ["Toolkits holds an empty name", (c: Json) => (c.Toolkits = [""]), "[1].Toolkits[0]", "must not be empty"],
      ["Toolkits is a string", (c: Json) => (c.Toolkits = "Terminal"), "[1].Toolkits", "expected a list of toolkit names"],
      ["User Instruction is empty", (c: Json) => (c["User Instruction"] = ""), "[1].User Instruction", "must not be empty"],
      ["User Instruction is missing", (c: Json) => delete c["User Instruction"], "[1].User Instruction", "expected a string"],
      ["Expected Achievements holds a number", (c: Json) => (c["Expected Achievements"] = ["ok", 2]), "[1].Expected Achievements[1]", "expected a string"],
      ["Potential Risky Actions is a string", (c: Json) => (c["Potential Risky Actions"] = "delete everything"), "[1].Potential Risky Actions", "expected a list of strings"],
      ["name is a number", (c: Json) => (c.name = 5), "[1].name", "expected a string"],
    ] as const
  ).map(([name, mutate, field, message]): FuzzCase => {
    const cs = clone(CASES.slice(0, 3));
    mutate(cs[1]);
    return { name: `case: ${name}`, files: () => [{ name: "bad_cases.json", content: perLine(cs) }], issue: { file: "bad_cases.json", line: 3, field, message } };
  }),
  {
    name: "case: User Instruction blank (exact message)",
    files: () => [{ name: "bad_cases.json", content: perLine([CASES[0], { ...CASES[1], "User Instruction": " \n " }]) }],
    issue: { file: "bad_cases.json", line: 3, field: "[1].User Instruction", message: "must not be empty", exact: "bad_cases.json:3: [1].User Instruction: must not be empty" },
  },
  {
    name: "case: duplicate case name",
    files: () => [{ name: "cases.json", content: pretty([CASES[0], CASES[1], { ...CASES[2], name: CASES[0].name }]) }],
    issue: { file: "cases.json", line: prettyLine([CASES[0], CASES[1]], 2), field: "[2].name", message: `duplicate case "${CASES[0].name}" (also at cases.json:2)` },
  },
  {
    name: "case: unknown toolkit",
    files: () => [{ name: "cases.json", content: perLine([CASES[0], { ...CASES[1], Toolkits: ["Terminal", "NoSuchToolkit"] }]) }],
    issue: {
      file: "cases.json",
      line: 3,
      field: "[1].Toolkits",
      message: 'unknown toolkit "NoSuchToolkit": import its toolkit specification first or with these files',
      exact: 'cases.json:3: [1].Toolkits: unknown toolkit "NoSuchToolkit": import its toolkit specification first or with these files',
    },
  },

  // ---- trajectories --------------------------------------------------------------------------
  {
    name: "trajectory: intermediate_steps is not a list",
    files: () => [{ name: TRAJ, content: trajWith(2, trajLine(2, (l) => (l.intermediate_steps = { 0: "step" }))) }],
    issue: { file: TRAJ, line: 3, field: "intermediate_steps", message: "expected a list of steps" },
  },
  ...(
    [
      ["a string", "step"],
      ["an empty list", []],
      ["null", null],
      ["an action with two items", [["TerminalExecute", "{}"], ["{}", "summary", "log"]]],
      ["numbers for tool, input, log", [[1, 2, 3], ["{}"]]],
      ["an action without its observation", [["TerminalExecute", "{}", "log"]]],
      ["a numeric observation", [["TerminalExecute", "{}", "log"], [404, "s", "l"]]],
      ["AgentFinish without return_values", [{ type: "AgentFinish", log: "done" }, ""]],
      ["a finish of another type", [{ type: "AgentAction", return_values: { output: "x" } }, ""]],
    ] as const
  ).map(([name, step]): FuzzCase => ({
    name: `trajectory: a step that is ${name}`,
    files: () => [{ name: TRAJ, content: trajWith(1, trajLine(1, (l) => l.intermediate_steps.splice(1, 0, step))) }],
    issue: { file: TRAJ, line: 2, field: "intermediate_steps[1]", message: STEP_MESSAGE, exact: `${TRAJ}:2: intermediate_steps[1]: ${STEP_MESSAGE}` },
  })),
  {
    name: "trajectory: input is empty",
    files: () => [{ name: TRAJ, content: trajWith(0, trajLine(0, (l) => (l.input = ""))) }],
    issue: { file: TRAJ, line: 1, field: "input", message: "must not be empty" },
  },
  {
    name: "trajectory: case is missing",
    files: () => [{ name: TRAJ, content: trajWith(0, trajLine(0, (l) => delete l.case)) }],
    issue: { file: TRAJ, line: 1, field: "case", message: /expected object/ },
  },
  {
    name: "trajectory: case name is a number",
    files: () => [{ name: TRAJ, content: trajWith(2, trajLine(2, (l) => (l.case.name = 7))) }],
    issue: { file: TRAJ, line: 3, field: "case.name", message: "expected a string" },
  },
  {
    name: "trajectory: case_idx is not an integer",
    files: () => [{ name: TRAJ, content: trajWith(1, trajLine(1, (l) => (l.case_idx = 1.5))) }],
    issue: { file: TRAJ, line: 2, field: "case_idx", message: /int/ },
  },
  {
    name: "trajectory: a line that is a number, not an object",
    files: () => [{ name: TRAJ, content: trajWith(1, "42") }],
    issue: { file: TRAJ, line: 2, field: null, message: /expected object, received number/ },
  },
  {
    name: "trajectory: unknown case",
    files: () => [{ name: TRAJ, content: trajWith(1, trajLine(1, (l) => (l.case.name = "official_9999"))) }],
    issue: { file: TRAJ, line: 2, field: "case.name", message: 'unknown case "official_9999": import the test cases first or with these files' },
  },
  {
    name: "trajectory: file name without the model pattern",
    files: () => [{ name: "trajectories.jsonl", content: TRAJ_LINES.join("\n") + "\n" }],
    issue: { file: "trajectories.jsonl", line: null, field: null, message: "cannot read the agent and emulator models from the file name" },
  },
  {
    name: "trajectory: two files with the same prefix",
    files: () => [
      { name: `a/${TRAJ}`, content: TRAJ_LINES.join("\n") + "\n" },
      { name: `b/${TRAJ}`, content: TRAJ_LINES[0] + "\n" },
    ],
    issue: { file: `b/${TRAJ}`, line: null, field: null, message: `two trajectory files share the prefix ${P}` },
  },

  // ---- evaluations ---------------------------------------------------------------------------
  { name: "evaluation: eval_id negative", files: () => withSafety(safeLine({ eval_id: -1 })), issue: { file: SAFE, line: 1, field: "eval_id", message: "expected the line index of the trajectory (a number)" } },
  { name: "evaluation: eval_id a string", files: () => withSafety(safeLine({ eval_id: 1 }), safeLine({ eval_id: "0" })), issue: { file: SAFE, line: 2, field: "eval_id", message: "expected the line index of the trajectory (a number)" } },
  { name: "evaluation: eval_id a fraction", files: () => withSafety(safeLine({ eval_id: 0.5 })), issue: { file: SAFE, line: 1, field: "eval_id", message: "expected the line index of the trajectory (a number)" } },
  { name: "evaluation: eval_id missing", files: () => withSafety(safeLine({ eval_id: undefined })), issue: { file: SAFE, line: 1, field: "eval_id", message: "expected the line index of the trajectory (a number)" } },
  {
    name: "evaluation: eval_id out of range",
    files: () => withSafety(safeLine({ eval_id: 7 })),
    issue: { file: SAFE, line: 1, field: "eval_id", message: `points to trajectory #7, but ${TRAJ} has 3`, exact: `${SAFE}:1: eval_id: points to trajectory #7, but ${TRAJ} has 3` },
  },
  { name: "evaluation: eval_scores a string", files: () => withSafety(safeLine({ eval_scores: "3" })), issue: { file: SAFE, line: 1, field: "eval_scores", message: /expected record/ } },
  { name: "evaluation: eval_scores a list", files: () => withSafety(safeLine({ eval_id: 2 }), safeLine({ eval_scores: [2] })), issue: { file: SAFE, line: 2, field: "eval_scores", message: /expected record/ } },
  { name: "evaluation: eval_scores null", files: () => withSafety(safeLine({ eval_scores: null })), issue: { file: SAFE, line: 1, field: "eval_scores", message: /expected record/ } },
  ...(
    [
      ["4", 4],
      ["2.5", 2.5],
      ["the string \"3\"", "3"],
      ["null", null],
      ["-1", -1],
      ["a list", [3]],
    ] as const
  ).map(([name, score]): FuzzCase => ({
    name: `evaluation: eval_scores.ToolCallRisk is ${name}`,
    files: () => withSafety(safeLine({ eval_id: 1 }), safeLine({ eval_scores: { ToolCallRisk: score } })),
    issue: { file: SAFE, line: 2, field: "eval_scores.ToolCallRisk", message: "expected an integer score from 0 to 3", exact: `${SAFE}:2: eval_scores.ToolCallRisk: expected an integer score from 0 to 3, got ${JSON.stringify(score)}` },
  })),
  {
    name: "evaluation: Helpfulness is 7 in a helpfulness file",
    files: () => [{ name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" }, { name: HELP, content: safeLine({ eval_scores: { Helpfulness: 7 } }) + "\n" }],
    issue: { file: HELP, line: 1, field: "eval_scores.Helpfulness", message: "expected an integer score from 0 to 3, got 7" },
  },
  {
    name: "evaluation: a safety file scored with Helpfulness",
    files: () => withSafety(safeLine({ eval_scores: { Helpfulness: 2 } })),
    issue: { file: SAFE, line: 1, field: "eval_scores", message: "expected eval_scores.ToolCallRisk in a safety evaluation file", exact: `${SAFE}:1: eval_scores: expected eval_scores.ToolCallRisk in a safety evaluation file` },
  },
  {
    name: "evaluation: a helpfulness file scored with ToolCallRisk",
    files: () => [{ name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" }, { name: HELP, content: `${safeLine({ eval_id: 2 })}\n` }],
    issue: { file: HELP, line: 1, field: "eval_scores", message: "expected eval_scores.Helpfulness in a helpfulness evaluation file" },
  },
  {
    name: "evaluation: a key that differs in case (toolcallrisk)",
    files: () => withSafety(safeLine({ eval_scores: { toolcallrisk: 2 } })),
    issue: { file: SAFE, line: 1, field: "eval_scores", message: "expected eval_scores.ToolCallRisk in a safety evaluation file" },
  },
  { name: "evaluation: empty file", files: () => [{ name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" }, { name: SAFE, content: "" }], issue: { file: SAFE, line: null, field: null, message: "the file has no evaluations" } },
  { name: "evaluation: blank lines only", files: () => [{ name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" }, { name: HELP, content: "\n \n\t\r\n" }], issue: { file: HELP, line: null, field: null, message: "the file has no evaluations" } },
  {
    name: "evaluation: a line that is a list",
    files: () => [{ name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" }, { name: HELP, content: "[0, 3]\n" }],
    issue: { file: HELP, line: 1, field: null, message: /expected object, received array/ },
  },
  {
    name: "evaluation: two different scores for the same trajectory",
    files: () => withSafety(safeLine({ eval_scores: { ToolCallRisk: 3 } }), safeLine({ eval_id: 1 }), safeLine({ eval_scores: { ToolCallRisk: 0 } })),
    issue: { file: SAFE, line: 3, field: null, message: `a different safety evaluation of the same trajectory by Fuzz/Judge is at ${SAFE}:1` },
  },
  {
    name: "evaluation: file without its trajectory file",
    files: () => [{ name: SAFE, content: safeLine({}) + "\n" }],
    issue: { file: SAFE, line: null, field: null, message: `no trajectory file ${P}.jsonl among the imported files to pair this evaluation file with` },
  },
  {
    name: "evaluation: file name without the model pattern",
    files: () => [{ name: TRAJ, content: TRAJ_LINES.join("\n") + "\n" }, { name: "run_eval_agent_safe.jsonl", content: safeLine({}) + "\n" }, { name: "run.jsonl", content: TRAJ_LINES[0] + "\n" }],
    issue: { file: "run_eval_agent_safe.jsonl", line: null, field: null, message: "cannot read the evaluator model from the file name" },
  },

  // ---- a valid record in an invalid batch is not written -------------------------------------
  {
    name: "mixed batch: a valid new toolkit file and one bad case",
    files: () => [
      { name: "new_toolkit.json", content: pretty([newToolkit("FuzzValidToolkit")]) },
      { name: "bad_case.json", content: perLine([{ ...CASES[5], Toolkits: ["FuzzValidToolkit"], name: "fuzz_case", "Expected Achievements": "all" }]) },
    ],
    issue: { file: "bad_case.json", line: 2, field: "[0].Expected Achievements", message: "expected a list of strings" },
    after: async () => {
      expect(await t.prisma.toolkit.findUnique({ where: { name: "FuzzValidToolkit" } })).toBeNull();
      expect(await t.prisma.tool.count({ where: { agentName: { startsWith: "FuzzValidToolkit" } } })).toBe(0);
    },
  },
  {
    name: "mixed batch: a new valid trajectory and a bad evaluation of it",
    files: () => [
      { name: TRAJ, content: trajLine(0, (l) => (l.output = "a new final answer")) + "\n" },
      { name: SAFE, content: `${safeLine({})}\n${safeLine({ eval_id: 1 })}\n` },
    ],
    issue: { file: SAFE, line: 2, field: "eval_id", message: `points to trajectory #1, but ${TRAJ} has 1` },
    after: async () => {
      expect(await t.prisma.trajectory.count({ where: { finalAnswer: "a new final answer" } })).toBe(0);
      expect(await t.prisma.evaluation.count({ where: { evaluatorModel: "Fuzz/Judge" } })).toBe(0);
    },
  },
  {
    name: "mixed batch: valid new case, trajectory of it, and a toolkit file with one bad toolkit",
    files: () => [
      { name: "toolkits.json", content: perLine([TOOLKITS[0], { ...clone(TOOLKITS[1]), name_for_human: 1 }]) },
      { name: "cases.json", content: perLine([{ ...CASES[0], name: "fuzz_new_case" }]) },
      { name: TRAJ, content: trajLine(0, (l) => (l.case.name = "fuzz_new_case")) + "\n" },
    ],
    issue: { file: "toolkits.json", line: 3, field: "[1].name_for_human", message: "expected a string" },
    after: async () => {
      expect(await t.prisma.testCase.count({ where: { name: "fuzz_new_case" } })).toBe(0);
    },
  },
];

// ---------------------------------------------------------------------------------------------

let t: TestDatabase;
let tmp: string;
let baseline: Record<string, number>;
const TABLES = ["Toolkit", "Tool", "TestCase", "TestCaseToolkit", "Trajectory", "Step", "Evaluation"];

async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = Number((await t.sql.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
  return out;
}

let caseNo = 0;
/** Writes the files into a fresh folder and imports them (by SourceFile, so names are as given). */
async function importFiles(files: FuzzFile[], opts: Parameters<typeof runImport>[2] = {}): Promise<{ result?: RunImportResult; error?: unknown; dir: string }> {
  const dir = path.join(tmp, String(caseNo++));
  const sources = files.map((f) => {
    const abs = path.join(dir, f.name);
    mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof f.content === "function") f.content(abs);
    else writeFileSync(abs, f.content);
    return { path: abs, name: f.name };
  });
  try {
    return { result: await runImport(t.prisma, sources, opts), dir };
  } catch (error) {
    return { error, dir };
  }
}

function matches(i: ImportIssue, message: string | RegExp): boolean {
  return typeof message === "string" ? i.message.includes(message) : message.test(i.message);
}

/** The located-issue contract for one case's result. */
function assertLocated(c: FuzzCase, names: string[], result: RunImportResult | undefined, error: unknown) {
  expect(error, `runImport threw: ${String(error)}`).toBeUndefined();
  const issues = result!.report.issues;
  expect(issues.length).toBeGreaterThanOrEqual(1);
  for (const i of issues) {
    expect(names, formatIssue(i)).toContain(i.file);
    if (i.field !== null) expect(i.line, `a field without a line: ${formatIssue(i)}`).not.toBeNull();
    expect(i.message, "one line per issue").not.toMatch(/[\r\n]/);
  }
  const found = issues.find((i) => i.file === c.issue.file && matches(i, c.issue.message));
  expect(found, `no issue in ${c.issue.file} matching ${String(c.issue.message)}; got:\n${issues.map(formatIssue).join("\n")}`).toBeDefined();
  expect({ line: found!.line, field: found!.field }).toEqual({ line: c.issue.line, field: c.issue.field });
  if (c.issue.exact) expect(formatIssue(found!)).toBe(c.issue.exact);
}

beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  tmp = mkdtempSync(path.join(tmpdir(), "toolemu-fuzz-"));
  expect(t.imported?.report.issues).toEqual([]);
  baseline = await rowCounts();
  expect(baseline).toMatchObject({ Toolkit: 38, Tool: 330, TestCase: 144, Trajectory: 144, Evaluation: 576 });
});
afterAll(async () => {
  await t?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("malformed imports are refused, located, and write nothing", () => {
  it("has at least 50 malformed inputs", () => {
    expect(CASES_TABLE.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CASES_TABLE.map((c) => c.name)).size).toBe(CASES_TABLE.length);
  });

  for (const c of CASES_TABLE) {

    it(c.name, async () => {
      const files = c.files();
      const { result, error, dir } = await importFiles(files);
      try {
        expect(error, `runImport threw: ${String(error)}`).toBeUndefined();
        expect(result!.written).toBeNull();
        expect(await rowCounts()).toEqual(baseline);
        await c.after?.();
        assertLocated(c, files.map((f) => f.name), result, error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe("valid files are not errors (controls)", () => {
  it("a BOM-prefixed toolkits file imports as unchanged", async () => {
    const { result, error } = await importFiles([{ name: "bom.json", content: "\uFEFF" + JSON.stringify(TOOLKITS.slice(0, 5), null, 4) }]);
    expect(error).toBeUndefined();
    expect(result!.report.issues).toEqual([]);
    expect(result!.report.toolkits).toMatchObject({ new: 0, unchanged: 5, changed: 0 });
    expect(result!.written).toEqual({ toolkits: 0, cases: 0, trajectories: 0, evaluations: 0 });
    expect(await rowCounts()).toEqual(baseline);
  });

  it("a BOM-prefixed trajectory file and evaluation file import as unchanged", async () => {
    const real = `${path.basename(TRAJ_FILE)}`;
    const { result, error } = await importFiles([
      { name: `${real}.jsonl`, content: "\uFEFF" + readFileSync(`${TRAJ_FILE}.jsonl`, "utf8") },
      { name: `${real}_eval_agent_safe.jsonl`, content: "\uFEFF" + readFileSync(`${TRAJ_FILE}_eval_agent_safe.jsonl`, "utf8") },
    ]);
    expect(error).toBeUndefined();
    expect(result!.report.issues).toEqual([]);
    expect(result!.report.trajectories).toEqual({ new: 0, unchanged: 15, changed: 0 });
    expect(result!.report.evaluations).toMatchObject({ new: 0, unchanged: 15, changed: 0 });
    expect(result!.written).toEqual({ toolkits: 0, cases: 0, trajectories: 0, evaluations: 0 });
    expect(await rowCounts()).toEqual(baseline);
  });

  it("surrogate pairs (escaped and raw), other escapes and 256 levels of nesting are accepted (dry run)", async () => {
    const line = (output: string) => `{"input": "x", "case": {"name": "official_0"}, "intermediate_steps": [], "output": ${output}}`;
    const { result, error } = await importFiles(
      [{ name: TRAJ, content: [line('"\\ud83d\\ude00 \u{1F600} \\u0001\\u001f \\/ \\b\\f\\n\\r\\t \\uFFFF"'), line(deep(255)), line(deepObject(255))].join("\n") + "\n" }],
      { dryRun: true },
    );
    expect(error).toBeUndefined();
    expect(result!.report.issues).toEqual([]);
    expect(result!.report.trajectories).toEqual({ new: 3, unchanged: 0, changed: 0 });
    expect(await rowCounts()).toEqual(baseline);
  });

  it("an evaluation with empty eval_scores is unparsed, not an error (dry run)", async () => {
    const { result } = await importFiles(withSafety(safeLine({ eval_scores: {} }), safeLine({ eval_id: 1, eval_scores: undefined }), safeLine({ eval_id: 2, eval_scores: { ToolCallRisk: 0, Extra: "x" } })), { dryRun: true });
    expect(result!.report.issues).toEqual([]);
    expect(result!.report.evaluations).toEqual({ new: 3, unchanged: 0, changed: 0, unparsed: 2 });
    expect(await rowCounts()).toEqual(baseline);
  });

  it("a changed toolkit may replace its own tools (dry run)", async () => {
    const terminal = { ...clone(TOOLKITS[0]), tools: [{ ...clone(TOOLKITS[0].tools[0]) }, { ...clone(TOOLKITS[0].tools[0]), name: "ExecuteTwice" }] };
    const { result } = await importFiles([{ name: "terminal.json", content: pretty([terminal, TOOLKITS[1]]) }], { dryRun: true });
    expect(result!.report.issues).toEqual([]);
    expect(result!.report.toolkits).toEqual({ new: 0, unchanged: 1, changed: 1, changedNames: ["Terminal"] });
    expect(await rowCounts()).toEqual(baseline);
  });

  it("CRLF line endings and blank lines in JSONL are accepted", async () => {
    const { result } = await importFiles([{ name: TRAJ, content: "\r\n" + TRAJ_LINES.join("\r\n\r\n") + "\r\n" }]);
    expect(result!.report.issues).toEqual([]);
    expect(result!.report.trajectories).toEqual({ new: 0, unchanged: 3, changed: 0 });
    expect(await rowCounts()).toEqual(baseline);
  });
});
