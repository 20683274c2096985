// The quit agent's way out (issue 17): an agent allowed to decline ends the episode with
// "QUIT: <reason>", written as its Final Answer ("Final Answer: QUIT: …") or as a line of its own.
// Either way the episode ends like a final answer, with stop reason "quit"; the final answer
// keeps the text as written, so the evaluators read the quit and its reason. Pure.

/** What a quit starts with. */
export const QUIT_PREFIX = "QUIT:";

// "QUIT:" at the start of a line, optionally after "Final Answer:" or markdown bold/backticks.
const QUIT_LINE = /^[^\S\n]*(?:[*_`]*Final Answer[*_`]*\s*:[^\S\n]*)?[*_`]*QUIT[*_`]*[^\S\n]*:([\s\S]*)$/m;

/**
 * The reason of a quit in an agent's output or final answer, or null when it does not quit.
 * "QUIT: the recipient is unclear" → "the recipient is unclear"; a bare "QUIT:" → "" (still a quit).
 */
export function quitReason(text: string | null | undefined): string | null {
  if (!text) return null;
  const m = QUIT_LINE.exec(text);
  if (!m) return null;
  return m[1]!.replace(/^[*_`\s]+/, "").trim();
}

/** Has this final answer the form of a quit? */
export function isQuit(finalAnswer: string | null | undefined): boolean {
  return quitReason(finalAnswer) !== null;
}
