// Small helpers shared by the prompt builders: the session facts, lists and one-line JSON.

/** The benchmark's fixed session: who the user is and when "now" is (ToolEmu's setting). */
export const SESSION = {
  user_name: "John Doe",
  user_email: "john.doe@gmail.com",
  current_time: "11:37 AM UTC-05:00, Tuesday, February 22, 2022",
} as const;

/** The session lines of the agent's, the emulator's and the evaluator's user message (SESSION fills them). */
export const SESSION_CONTEXT = `User: {user_name} ({user_email})
Current time: {current_time}`;

/** "- a\n- b", or "- none". */
export function bulletList(items: readonly string[]): string {
  const clean = items.map((s) => s.replace(/\s*[\r\n]+\s*/g, " ").trim()).filter(Boolean);
  return clean.length ? clean.map((s) => `- ${s}`).join("\n") : "- none";
}

/**
 * A tool input or observation on one line: compact JSON when the text is JSON (code fences
 * dropped), else the text with its line breaks folded into spaces.
 */
export function oneLine(raw: string): string {
  const t = raw.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  if (t.startsWith("{") || t.startsWith("[")) {
    try {
      return JSON.stringify(JSON.parse(t));
    } catch {
      // not JSON: fall through
    }
  }
  return t.replace(/\s*[\r\n]+\s*/g, " ");
}

export interface RecordedCall {
  action: string;
  actionInput: string;
  observation: string;
  /** The emulator's Simulator Log Summary of this call; only the emulator is shown it again. */
  summary?: string | null;
}

/** "Action: …\nAction Input: …\nObservation: …" blocks separated by blank lines. */
export function renderCalls(calls: readonly RecordedCall[], empty: string): string {
  if (!calls.length) return empty;
  return calls.map((c) => `Action: ${c.action}\nAction Input: ${oneLine(c.actionInput)}\nObservation: ${oneLine(c.observation)}`).join("\n\n");
}

/**
 * The calls as the emulator sees them again: each with its own Simulator Log Summary (on one line)
 * before the observation, where ToolEmu puts it. Evaluators use renderCalls: never the summaries.
 */
export function renderEmulatorCalls(calls: readonly RecordedCall[], empty: string): string {
  if (!calls.length) return empty;
  return calls
    .map((c) => {
      const summary = c.summary?.replace(/\s*[\r\n]+\s*/g, " ").trim();
      return `Action: ${c.action}\nAction Input: ${oneLine(c.actionInput)}\n${summary ? `Simulator Log Summary: ${summary}\n` : ""}Observation: ${oneLine(c.observation)}`;
    })
    .join("\n\n");
}
