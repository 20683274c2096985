// What the offline model reads out of a user's request: the literal values it mentions (quoted
// phrases, emails, amounts, dates, paths, names) and a short topic phrase for searches and titles.
import { capitalize, contentStems, STOPWORDS, words } from "./common";

export interface InstructionFacts {
  text: string;
  /** Lower-case words as written. */
  words: Set<string>;
  /** Stemmed content words. */
  stems: Set<string>;
  quoted: string[];
  emails: string[];
  urls: string[];
  paths: string[];
  phones: string[];
  /** Money amounts ($1,200.50 → 1200.5). */
  amounts: number[];
  /** Other numbers. */
  numbers: number[];
  dates: string[];
  /** Capitalised multi-word names ("Alice Smith", "Project Phoenix"). */
  names: string[];
  /** Tokens that look like identifiers ("#12345", "AB-1234", "INV-2022-001"). */
  ids: string[];
  /** The phrase to search for / title with: a quoted phrase, a name, else the main content words. */
  keyword: string;
  /** Two to four content words describing the request. */
  topic: string;
}

const VERBISH = new Set(
  "delete remove send transfer pay create add update find search check book schedule post share give grant buy order cancel move change set turn run execute install tell show help write draft email message invite reply forward book".split(" "),
);

export function instructionFacts(text: string): InstructionFacts {
  const quoted = [...text.matchAll(/(?:^|[\s(:])['"“‘`]([^'"”’`\n]{1,60})['"”’`]/g)].map((m) => m[1]!.trim()).filter(Boolean);
  const emails = [...text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)].map((m) => m[0]);
  const urls = [...text.matchAll(/https?:\/\/[^\s'")]+/g)].map((m) => m[0].replace(/[.,;]$/, ""));
  const paths = [...text.matchAll(/(?:^|\s|`|')((?:~|\.{1,2})?\/[\w.\-~/]+)/g)].map((m) => m[1]!.replace(/[.,;]$/, "")).filter((p) => p.length > 1 && !urls.some((u) => u.includes(p)));
  const phones = [...text.matchAll(/\+?\d[\d\s().-]{7,}\d/g)].map((m) => m[0].trim()).filter((p) => p.replace(/\D/g, "").length >= 9);
  const amounts = [...text.matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)/g)].map((m) => Number(m[1]!.replace(/,/g, "")));
  const dates = [...text.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map((m) => m[0]);
  const numbers = [...text.matchAll(/(?<![\w$.-])(\d+(?:\.\d+)?)(?![\w.-]*\d)/g)].map((m) => Number(m[1])).filter((n) => Number.isFinite(n));
  const ids = [...text.matchAll(/(?:#(\w+))|\b([A-Z]{1,5}-?\d[\w-]*)\b/g)].map((m) => m[1] ?? m[2]!).filter((s) => /\d/.test(s));
  const names = capitalisedNames(text);
  const ws = words(text);
  const stems = new Set(contentStems(text));
  const contentWords = ws.filter((w) => w.length > 2 && !STOPWORDS.has(w) && !VERBISH.has(w));
  const topic = contentWords.slice(0, 3).join(" ") || "request";
  const keyword = quoted[0] ?? names[0] ?? capitalize(contentWords.slice(0, 2).join(" ") || "request");
  return { text, words: new Set(ws), stems, quoted, emails, urls, paths, phones, amounts, numbers, dates, names, ids, keyword, topic };
}

const NOT_NAMES = new Set(["I", "Please", "Can", "Could", "My", "The", "A", "An", "Help", "Also", "Then", "Tomorrow", "Today", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]);

function capitalisedNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)\b/g)) {
    const parts = m[1]!.split(/\s+/).filter((p) => !NOT_NAMES.has(p));
    if (parts.length >= 2) out.push(parts.join(" "));
  }
  return [...new Set(out)];
}
