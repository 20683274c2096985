// Search snippets as the database writes them (ts_headline, lib/toolemu/queries/trajectory-search.ts):
// matches between two control characters that never occur in rendered text. The UI splits on them
// and renders <mark> elements, so no HTML from the data is ever parsed. Pure: client components use it.

export const MATCH_START = "\u0001";
export const MATCH_END = "\u0002";

/** Splits a snippet into plain and matched pieces (for rendering as text with <mark>). */
export function snippetPieces(text: string): { text: string; match: boolean }[] {
  const pieces: { text: string; match: boolean }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const start = rest.indexOf(MATCH_START);
    if (start < 0) {
      pieces.push({ text: rest, match: false });
      break;
    }
    if (start > 0) pieces.push({ text: rest.slice(0, start), match: false });
    const end = rest.indexOf(MATCH_END, start + 1);
    const inner = end < 0 ? rest.slice(start + 1) : rest.slice(start + 1, end);
    if (inner) pieces.push({ text: inner, match: true });
    rest = end < 0 ? "" : rest.slice(end + 1);
  }
  return pieces;
}
