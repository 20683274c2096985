// Where each value of a JSON document starts: JSON pointer (RFC 6901) → line. One pass, explicit
// stack, no recursion; assumes the text already parsed as JSON.

export function escapePointer(key: string | number): string {
  return String(key).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** JSON pointer of a path (zod issue path or our own). */
export function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${escapePointer(typeof p === "symbol" ? String(p.description) : (p as string | number))}`).join("");
}

interface Frame {
  kind: "object" | "array";
  pointer: string;
  index: number;
  key: string | null;
  /** object: expecting a key (true) or a value (false). */
  expectKey: boolean;
}

export function valueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: Frame[] = [];
  let line = 1;
  const here = (): string | null => {
    const top = stack.at(-1);
    if (!top) return "";
    if (top.kind === "array") return `${top.pointer}/${top.index}`;
    return top.expectKey || top.key === null ? null : `${top.pointer}/${escapePointer(top.key)}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === ":") continue;
    const top = stack.at(-1);
    if (c === ",") {
      if (top?.kind === "array") top.index++;
      else if (top) {
        top.expectKey = true;
        top.key = null;
      }
      continue;
    }
    if (c === "]" || c === "}") {
      stack.pop();
      continue;
    }
    if (c === '"') {
      // Read the string.
      let j = i + 1;
      let raw = "";
      while (j < text.length && text[j] !== '"') {
        if (text[j] === "\\") {
          raw += text.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (text[j] === "\n") line++;
        raw += text[j];
        j++;
      }
      if (top?.kind === "object" && top.expectKey) {
        let key = raw;
        try {
          key = JSON.parse(`"${raw}"`) as string;
        } catch {
          /* keep raw */
        }
        top.key = key;
        top.expectKey = false;
      } else {
        const p = here();
        if (p !== null && !lines.has(p)) lines.set(p, line);
      }
      i = j;
      continue;
    }
    const p = here();
    if (p !== null && !lines.has(p)) lines.set(p, line);
    if (c === "{" || c === "[") {
      stack.push({ kind: c === "{" ? "object" : "array", pointer: p ?? "", index: 0, key: null, expectKey: c === "{" });
      continue;
    }
    // A number, true, false or null: skip to its end.
    while (i + 1 < text.length && !/[\s,\]}]/.test(text[i + 1]!)) i++;
  }
  return lines;
}

/** The line of the value at `pointer`, or of its nearest ancestor that has one. */
export function lineOf(lines: Map<string, number>, pointer: string): number | null {
  let p = pointer;
  for (;;) {
    const l = lines.get(p);
    if (l !== undefined) return l;
    if (!p) return null;
    p = p.slice(0, p.lastIndexOf("/"));
  }
}
