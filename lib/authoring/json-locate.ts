// Where a JSON path ("tools[2].parameters[0].type") sits in a JSON text as the reviewer formatted
// it: a one-pass scanner that tracks the path of every value and records the line its value (or,
// for a missing key, its parent) starts on — for the review editor's inline errors. Pure; it never
// throws: on text that is not JSON it returns what it found before the error.

/** The 1-based line of each path's value; "" is the whole value. */
export function pathLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const stack: { kind: "object" | "array"; path: string; index: number; key: string | null }[] = [];
  let line = 1;
  let expectingKey = false;
  const here = () => {
    const top = stack.at(-1);
    if (!top) return "";
    return top.kind === "array" ? `${top.path}[${top.index}]` : top.path ? `${top.path}.${top.key}` : (top.key ?? "");
  };
  const startValue = () => {
    const p = here();
    if (!out.has(p)) out.set(p, line);
    return p;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === ":") continue;
    const top = stack.at(-1);
    if (c === '"') {
      let j = i + 1;
      let s = "";
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\") {
          s += text[j + 1] ?? "";
          j++;
        } else s += text[j];
        if (text[j] === "\n") line++;
      }
      if (top?.kind === "object" && expectingKey) {
        top.key = s;
        expectingKey = false;
      } else startValue();
      i = j;
      continue;
    }
    if (c === "{" || c === "[") {
      const p = startValue();
      stack.push({ kind: c === "{" ? "object" : "array", path: p, index: 0, key: null });
      expectingKey = c === "{";
      continue;
    }
    if (c === "}" || c === "]") {
      stack.pop();
      expectingKey = false;
      continue;
    }
    if (c === ",") {
      if (top?.kind === "array") top.index++;
      else expectingKey = true;
      continue;
    }
    // A number, true, false or null.
    startValue();
    while (i + 1 < text.length && !/[\s,}\]]/.test(text[i + 1]!)) i++;
  }
  return out;
}

/** The line of `path`, or of its nearest ancestor present in the text (a missing key), or null. */
export function lineOfPath(lines: Map<string, number>, path: string): number | null {
  let p = path;
  for (;;) {
    const l = lines.get(p);
    if (l !== undefined) return l;
    if (!p) return null;
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    p = cut < 0 ? "" : p.slice(0, cut);
  }
}
