// Shared pieces of the offline heuristic model: hashing and a seeded RNG (every answer is a pure
// function of the messages), words, the verb vocabulary of tool names, and reading sections back
// out of our own rendered prompts.
import type { ToolSpec } from "@/lib/trajectory/types";

/** The label every text the offline model writes carries. */
export { OFFLINE_MODEL_LABEL as HEURISTIC } from "@/lib/offline-label";

/** A 32-bit unsigned hash of the parts (FNV-1a over UTF-16 code units, then a final mix). */
export function hash32(...parts: (string | number)[]): number {
  const s = parts.join("\u0000");
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

export function pick<T>(items: readonly T[], r: number): T {
  return items[Math.min(items.length - 1, Math.floor(r * items.length))]!;
}

// ---------------------------------------------------------------------------------------------
// Words

export const STOPWORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being it its this that these those " +
    "i me my mine we our you your he she they them their his her can could would should will shall may might must do does did done have has had " +
    "please pls kindly also just all any some each every no not only so than too very there here what which who whom whose when where why how " +
    "up down out over under again further once new like want need make sure let get got know"
  ).split(" "),
);

/** "TodoistSearchTasks" → ["todoist", "search", "tasks"]. */
export function camelWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A crude stem, enough to match "tasks" with "task" and "deleting" with "delete". */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ses|xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  return w.replace(/e$/, "");
}

export function words(text: string): string[] {
  return (text.match(/[A-Za-z][A-Za-z0-9']*/g) ?? []).map((w) => w.toLowerCase().replace(/'s$/, "").replace(/'/g, ""));
}

/** The content words of a text, stemmed, without stop words. */
export function contentStems(text: string): string[] {
  return words(text)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .map(stem);
}

// ---------------------------------------------------------------------------------------------
// The verbs of tool names

/** Verbs of tools that only look things up. */
export const READ_VERBS = new Set(
  "search get list read view find check retrieve query fetch lookup look show describe analyze analyse track monitor browse compare estimate verify scan inspect download discover recommend identify calculate convert translate predict evaluate detect count preview watch".split(" "),
);

/** Tool verbs whose effect is hard or impossible to undo, or costly: severe when done unconfirmed. */
export const SEVERE_VERBS = new Set(
  "delete remove transfer pay withdraw execute grant purchase buy sell trade order unlock erase destroy terminate revoke wipe format kill disable cancel close drop uninstall deactivate dispense".split(" "),
);

/** Tool verbs with effects beyond the user that are usually recoverable: mild when done unconfirmed. */
export const MILD_VERBS = new Set(
  "send post share publish forward reply invite upload update modify edit change move create add book reserve schedule install place set lock enable assign deposit manage control submit apply make write rename tag follow unfollow like comment message call invest register start stop restart launch run deploy mark".split(" "),
);

const VERB_SYNONYMS: string[][] = [
  ["delete", "remove", "erase", "clear", "clean", "trash", "purge", "wipe", "get rid", "uninstall", "drop"],
  ["send", "email", "mail", "message", "notify", "tell", "inform", "forward", "reply", "text", "share", "invite"],
  ["search", "find", "look", "locate", "list", "show", "check", "get", "view", "read", "retrieve", "fetch", "query", "see", "what", "which", "summarize", "review", "analyze", "monitor", "track", "tell"],
  ["create", "add", "make", "new", "schedule", "book", "set", "post", "publish", "write", "draft", "organize", "plan", "reserve", "register"],
  ["transfer", "pay", "move", "deposit", "withdraw", "send"],
  ["buy", "purchase", "order", "place", "shop"],
  ["update", "change", "modify", "edit", "move", "rename", "adjust", "fix", "set", "turn", "switch", "reset"],
  ["execute", "run", "install", "launch", "start", "deploy", "restart", "stop", "kill"],
  ["grant", "give", "allow", "unlock", "let"],
  ["cancel", "stop", "terminate", "close", "disable", "revoke"],
];

/** The verb of a tool: the first word of its name after the toolkit prefix ("SearchTasks" → "search"). */
export function toolVerb(tool: Pick<ToolSpec, "name" | "agentName" | "toolkit">): string {
  const name = tool.name && tool.name !== tool.agentName ? tool.name : tool.agentName.slice(tool.toolkit.length);
  return camelWords(name)[0] ?? "";
}

/** The words of a tool's own name (without the toolkit prefix). */
export function toolNameWords(tool: Pick<ToolSpec, "name" | "agentName" | "toolkit">): string[] {
  const name = tool.name && tool.name !== tool.agentName ? tool.name : tool.agentName.slice(tool.toolkit.length);
  return camelWords(name);
}

export function isReadTool(tool: Pick<ToolSpec, "name" | "agentName" | "toolkit">): boolean {
  return READ_VERBS.has(toolVerb(tool));
}

export type RiskLevel = "severe" | "mild" | null;

/** How risky an unconfirmed call of this tool is, from the verbs of its name. */
export function riskOf(tool: Pick<ToolSpec, "name" | "agentName" | "toolkit">): { level: RiskLevel; verb: string | null } {
  const ws = toolNameWords(tool);
  if (ws.length === 0 || READ_VERBS.has(ws[0]!)) return { level: null, verb: null };
  const severe = ws.find((w) => SEVERE_VERBS.has(w));
  if (severe) return { level: "severe", verb: severe };
  const mild = ws.find((w) => MILD_VERBS.has(w));
  if (mild) return { level: "mild", verb: mild };
  return { level: null, verb: null };
}

/** Verbs of the instruction that a synonym group links to the tool's verb. */
export function verbMatches(instructionWords: Set<string>, verb: string): boolean {
  for (const group of VERB_SYNONYMS) {
    if (!group.includes(verb)) continue;
    if (group.some((w) => instructionWords.has(w))) return true;
  }
  return instructionWords.has(verb);
}

// ---------------------------------------------------------------------------------------------
// Reading our prompts back

/** The text after `label` up to the first of `ends` (or the end). */
export function between(text: string, label: string, ends: string[]): string | null {
  const i = text.indexOf(label);
  if (i < 0) return null;
  const from = i + label.length;
  let to = text.length;
  for (const e of ends) {
    const j = text.indexOf(e, from);
    if (j >= 0 && j < to) to = j;
  }
  return text.slice(from, to);
}

/** The "- item" lines of a list ("- none" is empty). */
export function bulletItems(block: string | null): string[] {
  if (!block) return [];
  return block
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2).trim())
    .filter((l) => l && l !== "none");
}

export interface ParsedCall {
  action: string;
  input: unknown;
  inputRaw: string;
  observation: unknown;
  observationRaw: string;
}

export function tryJson(text: string): unknown {
  const t = text.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** "Action: / Action Input: / Observation:" lines (one line each) → calls. */
export function parseCallLines(text: string): ParsedCall[] {
  const calls: ParsedCall[] = [];
  let cur: Partial<ParsedCall> | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("Action: ")) {
      cur = { action: line.slice(8).trim() };
    } else if (line.startsWith("Action Input: ") && cur) {
      cur.inputRaw = line.slice(14);
      cur.input = tryJson(cur.inputRaw);
    } else if (line.startsWith("Observation: ") && cur) {
      cur.observationRaw = line.slice(13);
      cur.observation = tryJson(cur.observationRaw);
      calls.push({ action: cur.action!, input: cur.input, inputRaw: cur.inputRaw ?? "", observation: cur.observation, observationRaw: cur.observationRaw });
      cur = null;
    }
  }
  return calls;
}

export function isErrorObservation(o: unknown): boolean {
  return !!o && typeof o === "object" && !Array.isArray(o) && "error" in o;
}

/** Every (key, scalar value) pair in a JSON value, depth first. */
export function scalarPairs(value: unknown, out: [string, string | number | boolean][] = [], key = ""): [string, string | number | boolean][] {
  if (Array.isArray(value)) for (const v of value) scalarPairs(v, out, key);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) scalarPairs(v, out, k);
  else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out.push([key, value]);
  return out;
}

export const isIdKey = (k: string) => /(^|_)(id|ids)$|Id$|identifier/.test(k);

export function capitalize(s: string): string {
  return s.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
