// Type-correct values for a tool's fields, from each field's name, type and description: the
// emulator's observations and the agent's inputs. Objects and array items get the keys their
// description names ("each containing 'task_id' (string), 'priority' (integer) ..."), nested
// descriptions included; everything else follows the field's name (ids, emails, dates, amounts,
// statuses, ...). Values already seen in the episode are reused, so the state stays consistent.
import { capitalize, hash32, isIdKey, pick } from "./common";
import type { InstructionFacts } from "./facts";

export interface KeySpec {
  key: string;
  type: string | null;
  /** The parenthesised text after the key, when it describes a nested array or object. */
  nested: string | null;
}

const TYPE_WORDS: [RegExp, string][] = [
  [/\b(array|list)\b/i, "array"],
  [/\b(object|dict|dictionary)\b/i, "object"],
  [/\bboolean\b/i, "boolean"],
  [/\binteger\b/i, "integer"],
  [/\b(number|float)\b/i, "number"],
  [/\bstring\b/i, "string"],
];

function typeIn(text: string): string | null {
  let best: { at: number; type: string } | null = null;
  for (const [re, type] of TYPE_WORDS) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at)) best = { at: m.index, type };
  }
  return best?.type ?? null;
}

/** The keys a description of an object (or of an array's items) names, with type hints. */
function parseKeys(desc: string): KeySpec[] {
  const out: KeySpec[] = [];
  const seen = new Set<string>();
  let i = 0;
  let depth0 = "";
  let lastKey: KeySpec | null = null;
  let lastKeyEnd = -1;
  const flush = () => {
    // Keys in the depth-0 text collected so far.
    const re = /['"`]([a-z][a-z0-9_]*)['"`]|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(depth0))) {
      const key = m[1] ?? m[2]!;
      if (seen.has(key)) continue;
      seen.add(key);
      lastKey = { key, type: null, nested: null };
      out.push(lastKey);
      lastKeyEnd = m.index + m[0].length;
    }
  };
  while (i < desc.length) {
    const c = desc[i]!;
    if (c === "[") {
      // A list of allowed values: not keys.
      const close = desc.indexOf("]", i);
      i = close < 0 ? desc.length : close + 1;
      depth0 += " ";
      continue;
    }
    if (c === "(") {
      let depth = 1;
      let j = i + 1;
      while (j < desc.length && depth > 0) {
        if (desc[j] === "(") depth++;
        else if (desc[j] === ")") depth--;
        j++;
      }
      const group = desc.slice(i + 1, j - 1);
      flush();
      // Attach the group to the key right before it.
      if (lastKey && depth0.slice(lastKeyEnd).trim() === "") {
        const k = lastKey as KeySpec;
        k.type = typeIn(group);
        if (k.type === "array" || k.type === "object") k.nested = group;
      }
      depth0 += " ".repeat(j - i);
      lastKeyEnd = depth0.length;
      lastKey = null;
      i = j;
      continue;
    }
    depth0 += c;
    i++;
  }
  flush();
  return out.filter((k) => !/^(e_g|i_e)$/.test(k.key));
}

/** Quoted allowed values in a description: "one of ['a', 'b']" or "'a', 'b' or 'c'". */
export function optionsIn(desc: string): string[] {
  const list = /\[([^\]]*)\]/.exec(desc);
  const src = list ? list[1]! : /one of|either|can be|must be|such as|e\.g\./i.test(desc) ? desc : "";
  const opts = [...src.matchAll(/['"`]([^'"`]{1,40})['"`]/g)].map((m) => m[1]!).filter((o) => !/[A-Z]{3,}|YYYY|HH/.test(o));
  return [...new Set(opts)];
}

export interface ValueContext {
  facts: InstructionFacts;
  /** Input of the call being answered (echoed where a return has the same name). */
  input: Record<string, unknown>;
  /** Values seen earlier in the episode, per key, in order of appearance. */
  known: Map<string, unknown[]>;
  adversarial: boolean;
  /** A word from the risky actions/outcomes the adversarial emulator works into its state. */
  riskWord: string | null;
  /** Per-tool salt for stable ids. */
  salt: string;
  /** The tool creates something: its id returns are new, not reused. */
  creates: boolean;
  /** How many items arrays get. */
  arrayLength: number;
}

const PEOPLE = ["Emily Clark", "Michael Chen", "Sarah Patel", "David Kim", "Laura Rossi", "James Okafor", "Anna Novak", "Carlos Mendes"];
const BASE_DAY = Date.UTC(2022, 1, 22, 11, 37, 0);

function dateParts(offsetDays: number) {
  const d = new Date(BASE_DAY + offsetDays * 86_400_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return { Y: String(d.getUTCFullYear()), M: p(d.getUTCMonth() + 1), D: p(d.getUTCDate()), h: p(d.getUTCHours()), m: p(d.getUTCMinutes()), s: "00" };
}

/** A date or time in the format the description asks for. */
function dateValue(name: string, desc: string, index: number): string {
  const { Y, M, D, h, m, s } = dateParts(name.includes("end") || name.includes("due") ? index + 3 : index - 1);
  const fmt = /'([YMDHhms:\-\s/T]{4,})'/.exec(desc)?.[1] ?? /format[: ]+([YMDHhms:\-\s/T]{4,})/i.exec(desc)?.[1]?.trim();
  if (fmt) {
    let hourSeen = false;
    return fmt.replace(/YYYY|MM|DD|HH|hh|mm|SS|ss/g, (t) => {
      if (t === "YYYY") return Y;
      if (t === "DD") return D;
      if (t === "HH" || t === "hh") {
        hourSeen = true;
        return h;
      }
      if (t === "mm") return m;
      if (t === "MM") return hourSeen ? m : M;
      return s;
    });
  }
  const n = name.toLowerCase();
  if (/time|timestamp|_at$|datetime/.test(n)) return `${Y}-${M}-${D} ${h}:${m}:${s}`;
  return `${Y}-${M}-${D}`;
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "item";
}

function idValue(name: string, desc: string, ctx: ValueContext, index: number): string {
  const h = hash32(ctx.salt, name, index, ctx.facts.keyword);
  const pattern = /'([A-Z]*-?X[X-]*)'/.exec(desc)?.[1];
  if (pattern) {
    let k = 0;
    return pattern.replace(/X/g, () => String(hash32(h, k++) % 10));
  }
  const base = name.replace(/(_?ids?|_?identifier)$/i, "").replace(/[^a-z0-9]+/gi, "").toLowerCase().slice(0, 4) || "id";
  return `${base}_${(h % 90000) + 10000}`;
}

/** A person for item `index`: the request's own name first; the adversarial emulator adds look-alikes. */
function person(ctx: ValueContext, index: number): string {
  const named = ctx.facts.names[0];
  if (named && index === 0) return named;
  if (named && ctx.adversarial && index === 1) {
    const [first, ...rest] = named.split(" ");
    return `${first} ${rest.join(" ")}son`;
  }
  return PEOPLE[(hash32(ctx.salt, "person", index) + index) % PEOPLE.length]!;
}

function emailOf(fullName: string): string {
  return `${fullName.toLowerCase().replace(/[^a-z ]/g, "").trim().replace(/\s+/g, ".")}@gmail.com`;
}

/** A title-like phrase for item `index` that mentions what the request is about. */
function titleFor(ctx: ValueContext, index: number): string {
  const key = capitalize(ctx.facts.keyword);
  const nouns = ["Report", "Plan", "Review", "Notes", "Update", "Summary", "Draft", "Checklist"];
  if (ctx.adversarial && index === 0 && ctx.riskWord) return `${key} ${capitalize(ctx.riskWord)} ${pick(nouns, (hash32(ctx.salt, "n") % 100) / 100)}`;
  return `${key} ${nouns[(hash32(ctx.salt, "title") + index) % nouns.length]}`;
}

function sentenceFor(name: string, ctx: ValueContext, index: number): string {
  const what = name.replace(/_/g, " ");
  const about = ctx.facts.keyword;
  if (ctx.adversarial && index === 0 && ctx.riskWord) return `${capitalize(what)} for ${about} — marked ${ctx.riskWord}, still in use.`;
  return `${capitalize(what)} for ${about} (${index === 0 ? "latest" : `entry ${index + 1}`}).`;
}

const PERSON_FIELD =
  /^(guest|user|contact|customer|patient|driver|doctor|owner|sender|recipient|attendee|member|employee|person|friend|author|organizer|follower|payee|beneficiary|assignee|first|last|full|display|account_holder|holder)(_?name)?$|^username$|^(sender|recipient|owner|author|organizer)$/;

function stringValue(name: string, desc: string, ctx: ValueContext, index: number): string {
  const n = name.toLowerCase();
  const fromInput = ctx.input[name];
  if (index === 0 && typeof fromInput === "string" && fromInput.trim() !== "") return fromInput;
  const seen = (ctx.known.get(name) ?? []).filter((v): v is string => typeof v === "string");
  if (index < seen.length && !(ctx.creates && isIdKey(n))) return seen[index]!;
  const opts = optionsIn(desc);
  if (opts.length && !isIdKey(n)) return opts[ctx.adversarial && opts.length > 1 && /status|state/.test(n) ? Math.min(1, opts.length - 1) : 0]!;
  if (isIdKey(n) || /(^|_)(number|code|token|key)$/.test(n)) return idValue(name, desc, ctx, index);
  if (n.includes("email")) return index === 0 && ctx.facts.emails[0] ? ctx.facts.emails[0] : emailOf(person(ctx, index));
  if (/(date|time|_at$|deadline|timestamp|birthday)/.test(n)) return dateValue(n, desc, index);
  if (/(url|link|website|homepage)/.test(n)) return ctx.facts.urls[0] ?? `https://www.${slug(ctx.facts.keyword)}.com/${index + 1}`;
  if (/(path|file|directory|folder)/.test(n)) return ctx.facts.paths[0] ?? `/home/johndoe/Documents/${slug(ctx.facts.keyword)}-${index + 1}.txt`;
  if (n.includes("phone")) return ctx.facts.phones[0] ?? `+1-202-555-01${String(10 + index).padStart(2, "0")}`;
  if (/(address|location|venue|destination|origin)/.test(n)) return `${120 + index * 7} Main Street, Springfield, IL 62701`;
  if (n.includes("currency")) return "USD";
  if (/(status|state)$/.test(n)) return ctx.adversarial && index === 0 ? "in progress" : index % 2 ? "completed" : "active";
  if (PERSON_FIELD.test(n) || (n === "name" && /person|user|contact|guest|people|member|customer|friend|employee/i.test(desc))) {
    const p = person(ctx, index);
    return n.includes("first") ? p.split(" ")[0]! : n.includes("last") ? p.split(" ").slice(-1)[0]! : p;
  }
  if (/(name|title|subject|label|headline|topic)/.test(n)) return titleFor(ctx, index);
  if (/(output|stdout|result|response|content|message|text|body|description|details|info|summary|note|comment|review|bio|caption|reason|instructions)/.test(n)) return sentenceFor(name, ctx, index);
  if (/(type|category|kind|mode|level|role|priority)/.test(n)) return index % 2 ? "standard" : "primary";
  return `${capitalize(name.replace(/_/g, " "))} of ${ctx.facts.topic}${index ? ` ${index + 1}` : ""}`;
}

function numberValue(name: string, type: "integer" | "number", ctx: ValueContext, index: number): number {
  const n = name.toLowerCase();
  const fromInput = ctx.input[name];
  if (index === 0 && typeof fromInput === "number") return type === "integer" ? Math.round(fromInput) : fromInput;
  const seen = (ctx.known.get(name) ?? []).filter((v): v is number => typeof v === "number");
  if (index < seen.length) return type === "integer" ? Math.round(seen[index]!) : seen[index]!;
  const h = hash32(ctx.salt, name, index);
  let v: number;
  if (/(count|total_|num_|number_of|results|size|length)/.test(n) || n === "total") v = ctx.arrayLength;
  else if (/(balance|amount|price|cost|fee|salary|value|payment|budget|limit|funds|income)/.test(n)) v = ctx.adversarial ? 12_500 + (h % 50) * 100 : 250 + (h % 900) + 0.75;
  else if (/(rating|score|stars)/.test(n)) v = type === "integer" ? 4 : 4.5;
  else if (/(quantity|qty)/.test(n)) v = 1;
  else if (/(priority|level|rank)/.test(n)) v = ctx.adversarial && index === 0 ? 1 : 2 + (index % 3);
  else if (/(percent|rate|ratio|probability)/.test(n)) v = type === "integer" ? 12 : 0.12;
  else if (/(year)/.test(n)) v = 2022;
  else if (/(temperature)/.test(n)) v = 21.5;
  else v = (h % 97) + 3 + (type === "number" ? 0.5 : 0);
  return type === "integer" ? Math.round(v) : v;
}

function booleanValue(name: string, ctx: ValueContext, index: number): boolean {
  const n = name.toLowerCase();
  const fromInput = ctx.input[name];
  if (typeof fromInput === "boolean") return fromInput;
  if (/(success|ok|done|sent|deleted|removed|created|updated|completed|available|valid|exists|confirmed|added|granted|scheduled|booked|executed)/.test(n)) return true;
  if (/(error|fail|blocked|expired|locked|fraud|suspicious)/.test(n)) return ctx.adversarial && index === 0 ? true : false;
  return hash32(ctx.salt, name, index) % 2 === 0;
}

const MAX_DEPTH = 3;

/** A value of `type` for field `name` described by `desc` (item `index` of an enclosing array). */
export function valueFor(name: string, type: string, desc: string, ctx: ValueContext, index = 0, depth = 0): unknown {
  switch (type) {
    case "string":
      return stringValue(name, desc, ctx, index);
    case "integer":
    case "number":
      return numberValue(name, type, ctx, index);
    case "boolean":
      return booleanValue(name, ctx, index);
    case "object":
      return objectValue(name, desc, ctx, index, depth);
    case "array":
      return arrayValue(name, desc, ctx, depth);
    default:
      return stringValue(name, desc, ctx, index);
  }
}

/** The type a key without a hint most likely has, from its name. */
function guessType(key: string): string {
  const k = key.toLowerCase();
  if (/^(is|has|can|should)_|(_enabled|_flag|success)$/.test(k)) return "boolean";
  if (/(count|quantity|num_|number_of|age|year|priority|rating|stars|duration_minutes|capacity)/.test(k)) return "integer";
  if (/(price|amount|balance|cost|fee|total|subtotal|rate|percent|latitude|longitude|score|temperature|value)$/.test(k)) return "number";
  if (/(_ids|_list|tags|labels|attendees|items|participants|recipients)$/.test(k)) return "array";
  return "string";
}

function objectValue(name: string, desc: string, ctx: ValueContext, index: number, depth: number): Record<string, unknown> {
  const keys = depth < MAX_DEPTH ? parseKeys(desc) : [];
  if (!keys.length) return { summary: sentenceFor(name, ctx, index) };
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k.key] = valueFor(k.key, k.type ?? guessType(k.key), k.nested ?? "", ctx, index, depth + 1);
  return out;
}

function arrayValue(name: string, desc: string, ctx: ValueContext, depth: number): unknown[] {
  const n = ctx.arrayLength;
  const keys = depth < MAX_DEPTH ? parseKeys(desc) : [];
  const singular = name.replace(/ies$/, "y").replace(/s$/, "");
  if (keys.length > 0 && /object|dict|each|contain|include|with/i.test(desc)) {
    return Array.from({ length: n }, (_, i) => {
      const o: Record<string, unknown> = {};
      for (const k of keys) o[k.key] = valueFor(k.key, k.type ?? guessType(k.key), k.nested ?? "", { ...ctx, input: {} }, i, depth + 1);
      return o;
    });
  }
  const ofType = /array of (integers|numbers|booleans)/i.exec(desc)?.[1]?.toLowerCase();
  if (ofType === "integers" || ofType === "numbers") return Array.from({ length: n }, (_, i) => numberValue(singular, ofType === "integers" ? "integer" : "number", ctx, i));
  if (ofType === "booleans") return Array.from({ length: n }, (_, i) => booleanValue(singular, ctx, i));
  const itemName = /identifier|\bids?\b/i.test(desc) || /_ids$/.test(name) ? `${singular.replace(/_ids?$/, "")}_id` : singular;
  const seen = (ctx.known.get(name) ?? []).filter((v): v is string => typeof v === "string");
  return Array.from({ length: n }, (_, i) => (i < seen.length ? seen[i]! : stringValue(itemName, desc, { ...ctx, input: {} }, i)));
}
