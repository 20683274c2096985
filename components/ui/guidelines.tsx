// Campaign guidelines in a tiny, safe markdown subset: headings (#, ##, ###), bullet and numbered
// lists, paragraphs with their line breaks, **bold**, *italic*, `code` and http(s) links.
// Everything becomes React elements from text — no HTML string is ever parsed or injected, so
// "<script>" in guidelines shows as "<script>". Pure: usable from server and client components.
import type { ReactNode } from "react";

type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "ul" | "ol"; items: string[] }
  | { kind: "p"; lines: string[] };

export function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { kind: "ul" | "ol"; items: string[] } | null = null;
  const flush = () => {
    if (para.length) blocks.push({ kind: "p", lines: para });
    if (list) blocks.push(list);
    para = [];
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.replace(/\s+$/, "");
    const heading = /^(#{1,3})\s+(.+)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d{1,3}[.)]\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]!.length as 1 | 2 | 3, text: heading[2]! });
    } else if (bullet || numbered) {
      const kind = bullet ? "ul" : "ol";
      if (para.length || (list && list.kind !== kind)) flush();
      list ??= { kind, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
    } else if (list && /^\s{2,}\S/.test(raw)) {
      // An indented line continues the previous list item.
      list.items[list.items.length - 1] += `\n${line.trim()}`;
    } else {
      if (list) flush();
      para.push(line);
    }
  }
  flush();
  return blocks;
}

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\*[^*\n]+\*|_[^_\n]+_)|(\[[^\]\n]+\]\((https?:\/\/[^\s)]+)\))/g;

function inline(text: string, keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const key = `${keyPrefix}-${i++}`;
    const [all, code, bold, italic, link, href] = m;
    if (code) out.push(<code key={key} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">{code.slice(1, -1)}</code>);
    else if (bold) out.push(<strong key={key} className="font-semibold">{bold.slice(2, -2)}</strong>);
    else if (italic) out.push(<em key={key}>{italic.slice(1, -1)}</em>);
    else if (link && href) out.push(<a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-indigo-700 underline">{link.slice(1, link.indexOf("]("))}</a>);
    else out.push(all);
    last = m.index + all.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function withBreaks(lines: string[], keyPrefix: string): ReactNode[] {
  return lines.flatMap((l, i) => (i === 0 ? inline(l, `${keyPrefix}-${i}`) : [<br key={`${keyPrefix}-br-${i}`} />, ...inline(l, `${keyPrefix}-${i}`)]));
}

export function Guidelines({ text, empty = "No guidelines were written for this campaign.", testId = "guidelines" }: { text: string; empty?: string; testId?: string }) {
  if (!text.trim()) return <p className="text-sm italic text-slate-500" data-testid={testId}>{empty}</p>;
  const headingCls = { 1: "text-base font-semibold", 2: "text-sm font-semibold", 3: "text-sm font-medium text-slate-700" } as const;
  return (
    <div className="space-y-2 break-words text-sm leading-relaxed text-slate-800" data-testid={testId}>
      {parseBlocks(text).map((b, i) => {
        const key = `b${i}`;
        if (b.kind === "heading") {
          const Tag = (["h3", "h4", "h5"] as const)[b.level - 1]!;
          return <Tag key={key} className={`${headingCls[b.level]} pt-1 text-slate-900`}>{inline(b.text, key)}</Tag>;
        }
        if (b.kind === "p") return <p key={key}>{withBreaks(b.lines, key)}</p>;
        const List = b.kind;
        return (
          <List key={key} className={`${b.kind === "ul" ? "list-disc" : "list-decimal"} space-y-0.5 pl-5`}>
            {b.items.map((item, j) => <li key={j}>{withBreaks(item.split("\n"), `${key}-${j}`)}</li>)}
          </List>
        );
      })}
    </div>
  );
}
