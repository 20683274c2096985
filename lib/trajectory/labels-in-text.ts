// Finding "Label:" markers in model output, tolerantly: any case and spacing at the start of a
// line ("action input :", "ActionInput:"), markdown decoration ("**Action:**", "**Action**:",
// "### Observation", "- Thought:"), a label alone on its line without a colon; and, when asked,
// the exact label in the middle of a line ("Thought: Final Answer: …"), as ToolEmu's own regular
// expressions allow. Pure.

export interface LabelSpec {
  key: string;
  /** Spellings; words may be joined by spaces, underscores or nothing. */
  names: string[];
}

export interface LabelHit {
  key: string;
  /** Index where the label begins, markdown decoration before its name included. */
  start: number;
  /** Index just after the label, its colon and closing markdown: where its content begins. */
  contentStart: number;
  lineStart: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const flexible = (name: string) => name.split(/\s+/).map(escape).join("[ \\t_]*");

const cache = new Map<string, { line: RegExp; inline: RegExp }>();

function patterns(spec: LabelSpec) {
  const id = `${spec.key}\u0000${spec.names.join("\u0000")}`;
  let p = cache.get(id);
  if (!p) {
    const alts = spec.names.map(flexible).join("|");
    const exact = spec.names.map(escape).join("|");
    // line start: optional quote/list/heading/bold decoration, the name, an optional number
    // ("Action 1:") or short parenthesis ("Score (0-3):"), closing bold, then a colon, or
    // nothing but the end of the line.
    const line = new RegExp(
      String.raw`^([ \t>]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*)(?:${alts})(?:[ \t]*\d+)?(?:[ \t]*\([^)\n]{0,24}\))?[ \t]*(?:\*\*|__)?[ \t]*(?:[:：](?:[ \t]*(?:\*\*|__))?|(?=\r?$))`,
      "gim",
    );
    const inline = new RegExp(String.raw`(?<![\w])(\*\*)?(?:${exact})(?:\*\*)?[ \t]*:(?:\*\*)?`, "g");
    p = { line, inline };
    cache.set(id, p);
  }
  return p;
}

/** Every occurrence of the labels in `text`, in text order (one hit per position). */
export function findLabels(text: string, specs: LabelSpec[], opts: { inline?: boolean } = {}): LabelHit[] {
  const byStart = new Map<number, LabelHit>();
  for (const spec of specs) {
    const { line } = patterns(spec);
    line.lastIndex = 0;
    for (let m = line.exec(text); m; m = line.exec(text)) {
      const start = m.index;
      const prev = byStart.get(start);
      // The longer label at the same place wins ("Action Input" over "Action" cannot collide,
      // but "Simulator Log Summary" over a shorter alias can).
      if (!prev || m.index + m[0].length > prev.contentStart) byStart.set(start, { key: spec.key, start, contentStart: m.index + m[0].length, lineStart: true });
    }
  }
  if (opts.inline) {
    const lineHits = [...byStart.values()];
    const inlineHits: LabelHit[] = [];
    for (const spec of specs) {
      const { inline } = patterns(spec);
      inline.lastIndex = 0;
      for (let m = inline.exec(text); m; m = inline.exec(text)) {
        const start = m.index;
        const end = m.index + m[0].length;
        // Skip what a line-start hit already covers.
        if (lineHits.some((h) => h.start <= start && start < h.contentStart)) continue;
        inlineHits.push({ key: spec.key, start, contentStart: end, lineStart: false });
      }
    }
    for (const h of inlineHits) {
      // A shorter label inside a longer one ("Summary:" in "Log Summary:") is not a label of its own.
      if (inlineHits.some((o) => o !== h && o.start <= h.start && h.contentStart <= o.contentStart && o.contentStart - o.start > h.contentStart - h.start)) continue;
      if (!byStart.has(h.start)) byStart.set(h.start, h);
    }
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** Removes a leading label of the given spellings (e.g. "Thought:") from a text. */
export function stripLeadingLabel(text: string, spec: LabelSpec): string {
  const first = findLabels(text, [spec])[0];
  if (first && text.slice(0, first.start).trim().replace(/[*#>_-]/g, "") === "") return text.slice(first.contentStart);
  return text;
}
