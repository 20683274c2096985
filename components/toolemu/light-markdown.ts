// A tiny, safe reader of the light Markdown evaluators write (**bold**, *italic*, `code`, "- " and
// "1." / "a." lists, "#" headings, indentation). It returns plain data that the component renders
// as React text nodes: no HTML is ever produced or parsed, so nothing in a model's output can
// inject markup. Anything it does not recognise stays as the characters written.

export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

export type Block =
  | { kind: "blank" }
  | { kind: "heading"; level: 1 | 2 | 3; inline: Inline[] }
  /** indent: nesting depth (each 2 leading spaces or a tab is one level, capped at 6). */
  | { kind: "line"; indent: number; marker: string | null; inline: Inline[] };

// `code` first (nothing inside it is formatting), then **bold**, then *italic* (no space just
// inside the stars, so "2 * 3 * 4" stays arithmetic).
const INLINE = /`([^`\n]+)`|\*\*(?=\S)([^\n]+?)(?<=\S)\*\*|\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*/g;

export function parseInline(text: string, inherited: Omit<Inline, "text"> = {}): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  const push = (piece: Inline) => {
    if (piece.text) out.push(piece);
  };
  for (const m of text.matchAll(INLINE)) {
    push({ ...inherited, text: text.slice(last, m.index) });
    if (m[1] !== undefined) push({ ...inherited, text: m[1], code: true });
    else if (m[2] !== undefined) out.push(...parseInline(m[2], { ...inherited, bold: true }));
    else if (m[3] !== undefined) out.push(...parseInline(m[3], { ...inherited, italic: true }));
    last = m.index + m[0].length;
  }
  push({ ...inherited, text: text.slice(last) });
  return out;
}

const LIST_MARKER = /^([-*•]|\d{1,3}[.)]|[a-zA-Z][.)])\s+/;

export function parseLightMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    // Markdown's "two trailing spaces" line break is just a line end here.
    const line = raw.replace(/\s+$/, "");
    if (!line.trim()) {
      if (blocks.length > 0 && blocks.at(-1)!.kind !== "blank") blocks.push({ kind: "blank" });
      continue;
    }
    const lead = /^[ \t]*/.exec(line)![0];
    const width = [...lead].reduce((n, ch) => n + (ch === "\t" ? 4 : 1), 0);
    const body = line.slice(lead.length);
    const heading = /^(#{1,6})\s+(.*)$/.exec(body);
    if (heading) {
      blocks.push({ kind: "heading", level: Math.min(heading[1]!.length, 3) as 1 | 2 | 3, inline: parseInline(heading[2]!.replace(/\s*#+$/, "")) });
      continue;
    }
    const marker = LIST_MARKER.exec(body);
    const text = marker ? body.slice(marker[0].length) : body;
    const sign = marker ? (/^[-*•]$/.test(marker[1]!) ? "•" : marker[1]!) : null;
    blocks.push({ kind: "line", indent: Math.min(Math.floor(width / 2), 6), marker: sign, inline: parseInline(text) });
  }
  while (blocks.at(-1)?.kind === "blank") blocks.pop();
  return blocks;
}
