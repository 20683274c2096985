// Per-field hotkeys of the label form (issue 18 item 4): keys belong to a field's options, not to
// whichever field has focus, so a label can be given without focusing a field. The annotate
// screen shows each field's keys beside it; this module decides them, for any form.
//
// The mechanism, generic over field kinds (a new kind needs only a line in answerKeys):
//   * answerKeys(field): the keys that answer the field, before scoping — a single choice's
//     option keys (a repeated key cycles through its options), an ordinal scale's digits min..max,
//     yes/no's y and n, a multiple choice's option keys (each toggles). Kinds answered per step,
//     and free text, have none: they take keys only while focused (the screen's focus fallback).
//   * scopes, in form order: a field whose keys are all still free takes them plain ("0"–"3");
//     otherwise Shift + its keys ("⇧0"–"⇧3") if those are free; otherwise a prefix letter typed
//     first ("v" then "0"–"2"). The ToolEmu form: safety 0–3, helpfulness ⇧0–3, the three
//     emulator aspects v / r / i then 0–2, true failure y / n.
//   * a schema field may choose its prefix letter with `hotkey: "x"` (one lowercase letter);
//     otherwise the letter comes from the label, last word first ("…input validation" → v).
//   * COMMAND_KEYS (the screen's own keys: context, thoughts, steps, guidelines, skip…) are never
//     a field's plain key or prefix.
// The keys depend on the whole form, not on which fields are shown, so a conditional field keeps
// its keys when it appears.

/** What this module reads of a label field (lib/trajectory/label-schema.ts LabelField fits). */
export interface HotkeyField {
  key: string;
  kind: string;
  label: string;
  options?: readonly { key?: string }[];
  min?: number;
  max?: number;
  hotkey?: unknown;
}

export type HotkeyScope = { type: "plain" } | { type: "shift" } | { type: "prefix"; letter: string };

export interface FieldHotkeys {
  field: string;
  scope: HotkeyScope;
  /** The answer keys (unscoped), as answerKeys gives them. */
  keys: string[];
}

/**
 * The annotate screen's own keys: c context, t thoughts, f final message, o observation, [ ] steps,
 * g guidelines, s skip, p previous item, ? help.
 */
export const COMMAND_KEYS: readonly string[] = ["c", "t", "f", "o", "[", "]", "g", "s", "p", "?"];

/** Never a prefix either: y n u answer a focused per-step field (and y / n a yes-no field). */
const FOCUS_KEYS = ["y", "n", "u"];

/** Kinds answered once per step: keys reach them only while they have focus. */
const PER_STEP = new Set(["steps", "step_rating"]);

const digitsBetween = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => String(min + i));

/** The keys that answer field `f`, unscoped (see the header). Empty: the field takes keys only while focused. */
export function answerKeys(f: HotkeyField): string[] {
  if (PER_STEP.has(f.kind) || f.kind === "text") return [];
  if (f.kind === "boolean") return ["y", "n"];
  if (Array.isArray(f.options)) return [...new Set(f.options.map((o) => o.key).filter((k): k is string => typeof k === "string" && /^[0-9a-z]$/.test(k)))];
  if (typeof f.min === "number" && typeof f.max === "number" && f.min >= 0 && f.max <= 9 && f.min < f.max) return digitsBetween(f.min, f.max);
  return [];
}

const STOP_WORDS = new Set(["a", "an", "the", "is", "of", "to", "and", "or", "this", "was", "did", "does", "in", "on"]);

/** A prefix letter for a field: its words' letters, last word first, then its key's, then a–z. */
function prefixLetter(f: HotkeyField, blocked: Set<string>): string | null {
  const words = (f.label.toLowerCase().match(/[a-z]+/g) ?? []).reverse();
  const content = words.filter((w) => !STOP_WORDS.has(w));
  const candidates = [...(content.length ? content : words).join(""), ...f.key.toLowerCase(), ..."abcdefghijklmnopqrstuvwxyz"];
  return candidates.find((c) => /^[a-z]$/.test(c) && !blocked.has(c)) ?? null;
}

/** The hotkeys of every field of a form that has answer keys, by field key (see the header). */
export function assignHotkeys(fields: readonly HotkeyField[], reserved: readonly string[] = COMMAND_KEYS): Map<string, FieldHotkeys> {
  const out = new Map<string, FieldHotkeys>();
  const plain = new Set<string>(reserved);
  const shifted = new Set<string>();
  const prefixes = new Set<string>();
  // Never a prefix: the screen's keys, the focus keys, any field's plain key, another prefix.
  const blocked = () => new Set([...reserved, ...FOCUS_KEYS, ...plain, ...prefixes]);
  for (const f of fields) {
    const keys = answerKeys(f);
    if (!keys.length) continue;
    const chosen = typeof f.hotkey === "string" && /^[a-z]$/.test(f.hotkey) && !blocked().has(f.hotkey) ? f.hotkey : null;
    let scope: HotkeyScope;
    if (chosen) {
      scope = { type: "prefix", letter: chosen };
    } else if (keys.every((k) => !plain.has(k) && !prefixes.has(k))) {
      scope = { type: "plain" };
    } else if (keys.every((k) => !shifted.has(k))) {
      scope = { type: "shift" };
    } else {
      const letter = prefixLetter(f, blocked());
      if (!letter) continue; // 26 prefixes taken: the field keeps its focus keys only
      scope = { type: "prefix", letter };
    }
    if (scope.type === "plain") keys.forEach((k) => plain.add(k));
    if (scope.type === "shift") keys.forEach((k) => shifted.add(k));
    if (scope.type === "prefix") prefixes.add(scope.letter);
    out.set(f.key, { field: f.key, scope, keys });
  }
  return out;
}

/** One key press as the resolver sees it: the unshifted key, whether Shift was held, a pending prefix. */
export interface KeyPress {
  key: string;
  shift: boolean;
  prefix: string | null;
}

/**
 * The unshifted key of a keyboard event: Shift+3 gives "#" (or another sign on other layouts) as
 * `key` but "Digit3" as `code`; Shift+y gives "Y".
 */
export function baseKey(e: { key: string; code?: string }): string {
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(e.code ?? "");
  if (digit) return digit[1]!;
  return e.key.length === 1 ? e.key.toLowerCase() : e.key;
}

/** Whether `key` (unshifted) starts a field's prefix. */
export function isPrefix(map: Map<string, FieldHotkeys>, key: string): boolean {
  for (const h of map.values()) if (h.scope.type === "prefix" && h.scope.letter === key) return true;
  return false;
}

/** The field and answer key a press selects, or null. */
export function resolveHotkey(map: Map<string, FieldHotkeys>, press: KeyPress): { field: string; key: string } | null {
  for (const h of map.values()) {
    if (!h.keys.includes(press.key)) continue;
    const s = h.scope;
    if (press.prefix !== null) {
      if (s.type === "prefix" && s.letter === press.prefix && !press.shift) return { field: h.field, key: press.key };
    } else if ((s.type === "plain" && !press.shift) || (s.type === "shift" && press.shift)) {
      return { field: h.field, key: press.key };
    }
  }
  return null;
}

/** "0–3" for a run of digits, else the keys joined: "y / n". */
export function keyRange(keys: readonly string[]): string {
  const n = keys.map(Number);
  const digits = keys.every((k) => /^[0-9]$/.test(k));
  const sorted = [...n].sort((a, b) => a - b);
  if (digits && keys.length > 2 && sorted.every((x, i) => i === 0 || x === sorted[i - 1]! + 1)) return `${sorted[0]}–${sorted[sorted.length - 1]}`;
  return keys.join(" / ");
}

/** How a field's keys read on the page: "0–3", "⇧ 0–3", "v then 0–2". */
export function describeHotkeys(h: FieldHotkeys): string {
  const range = keyRange(h.keys);
  if (h.scope.type === "plain") return range;
  if (h.scope.type === "shift") return `⇧ ${range}`;
  return `${h.scope.letter} then ${range}`;
}

/** The same, for screen readers: "Shift+0 to 3", "v, then 0 to 2". */
export function describeHotkeysForSpeech(h: FieldHotkeys): string {
  const range = keyRange(h.keys).replace("–", " to ").replace(/ \/ /g, " or ");
  if (h.scope.type === "plain") return range;
  if (h.scope.type === "shift") return `Shift+${range}`;
  return `${h.scope.letter}, then ${range}`;
}

/** One option's key as shown beside it: "3", "⇧3", "v 3". */
export function optionKeyLabel(h: FieldHotkeys | undefined, key: string): string {
  if (!h) return key;
  if (h.scope.type === "shift") return `⇧${key}`;
  if (h.scope.type === "prefix") return `${h.scope.letter} ${key}`;
  return key;
}
