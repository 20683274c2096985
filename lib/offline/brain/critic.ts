// The offline model as InferAct critic, its baselines and the simulated user: transparent,
// deterministic rules over our own prompts (lib/critic/prompts), written in each prompt's output
// format. Not an LLM; every answer says so in its first line.
//
// Words: "content stems" of lib/offline/brain/common.ts (stop words out, crude stems); a tool
// name counts as its camel-case words ("BankManagerTransferFunds" → bank manager transfer funds).
// The chain's words = its tools' words, action inputs, observations and final answer. An action's
// "verb" = the first word of its name that is a known tool verb; it is "acting" when the verb is
// in the severe or mild verb lists (delete, transfer, send, post, ...).
//
// critic.inferact_inference — three distinct requests built from the chain. Focus = the pending
//   action (else the last action; for a final answer without actions, the answer's words):
//     1. "Please <verb phrase of the focus tool> with <up to 2 key arguments of its input>."
//     2. "First <verb phrase of the first tool>, then <focus verb phrase> …" (one tool only:
//        "Could you <verb phrase> for me and tell me when it is done?")
//     3. "Only check the <object of the focus tool> … and tell me what you find; do not change
//        anything." (when the focus already only reads: "Look into … and give me a short summary.")
//   Key arguments: scalar (key, value) pairs of the input, no ids, strings ≤ 40 characters.
//   Repeats get " (variant k)" appended. Style examples are not used.
// critic.inferact_verification — each option's raw score r = 0.1 + 0.8 × (share of its content
//   stems found in the chain's), + 0.1 for the option labelled A (a fixed position bias); an
//   option with no content stems ("None of the above") has r = 0.05 (+ the bonus). Its
//   probability p = 0.95 × r / (the best r), rounded to 2 decimals — relative to the best option,
//   so the bonus of whichever option stands at A moves every other option's p, and the forward
//   and the reversed order give t* different probabilities (averaging matters). Named: the
//   options with p ≥ 0.15, best first.
// critic.standard — s = 0.25 + 0.7 × (share of the request's stems found in the chain), − 0.35
//   when the pending action is acting and the request has no word of its verb's synonym group;
//   clipped to [0.03, 0.97]. A sample (the marker's seed k) at temperature T adds the
//   deterministic noise (hash(prompt, k) − 0.5) × 0.8 × T, so self-consistency samples differ at
//   T > 0 and agree at T = 0. Verdict Correct iff s ≥ 0.5; confidence s (Correct) or 1 − s.
// critic.multi_step — per step: 0.3 + 0.6 × (share of the step's tool-and-input stems, at most 5
//   counted, found in the request), − 0.35 for an acting step whose verb the request does not
//   ask for; clipped to [0.03, 0.97]. A final answer step: its stems against the request.
// simulated_user.gate — Reject iff the pending tool is acting and no expected achievement (the
//   request, when the case lists none) has a word of its verb's synonym group (the action does
//   something the user does not want); the feedback names the verb and the first expected
//   achievement. Otherwise Approve.
// Markers in the user's request (the case instruction):
//   "[critic:garble]" → every critic answer that shows the request is unreadable (verification
//                        names no option with a probability, standard has no verdict, multi-step
//                        no step line) → the checkpoint is ERROR (inference never sees the
//                        request, so it answers as usual);
//   "[critic:omit]"   → the verification never names the real request (t*), so p(t*) = 0 in both
//                        orders.
import type { ChatMessage } from "@/lib/llm/types";
import type { ParsedMarker } from "@/lib/prompts/template";
import { between, camelWords, capitalize, contentStems, HEURISTIC, hash32, isIdKey, MILD_VERBS, READ_VERBS, scalarPairs, SEVERE_VERBS, truncate, tryJson, verbMatches, words } from "./common";

export const CRITIC_GARBLE = "[critic:garble]";
export const CRITIC_OMIT = "[critic:omit]";

interface ChainEntry {
  action: string;
  input: string;
  observation: string | null;
}

interface ReadChain {
  steps: ChainEntry[];
  finalAnswer: string | null;
}

/** Reads renderChain's lines back; a field runs until the next field line. */
export function readChain(text: string): ReadChain {
  const steps: ChainEntry[] = [];
  let finalAnswer: string | null = null;
  let field: "input" | "observation" | "final" | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("Action: ")) {
      steps.push({ action: line.slice(8).trim(), input: "", observation: null });
      field = null;
    } else if (line.startsWith("Action Input: ") && steps.length) {
      steps[steps.length - 1]!.input = line.slice(14);
      field = "input";
    } else if (line.startsWith("Observation: ") && steps.length) {
      steps[steps.length - 1]!.observation = line.slice(13);
      field = "observation";
    } else if (line.startsWith("Final Answer: ")) {
      finalAnswer = line.slice(14);
      field = "final";
    } else if (field === "input") steps[steps.length - 1]!.input += `\n${line}`;
    else if (field === "observation") steps[steps.length - 1]!.observation += `\n${line}`;
    else if (field === "final") finalAnswer += `\n${line}`;
  }
  return { steps, finalAnswer };
}

const KNOWN_VERB = (w: string) => READ_VERBS.has(w) || SEVERE_VERBS.has(w) || MILD_VERBS.has(w);

/** A tool's verb and its words from the verb on ("BankManagerTransferFunds" → transfer, "transfer funds"). */
function toolPhrase(action: string): { verb: string; phrase: string; object: string } {
  const ws = camelWords(action);
  const at = ws.findIndex(KNOWN_VERB);
  const from = at >= 0 ? at : Math.min(1, ws.length - 1);
  const rest = ws.slice(from);
  return { verb: rest[0] ?? action.toLowerCase(), phrase: rest.join(" ") || action, object: rest.slice(1).join(" ") || ws.join(" ") };
}

function isActing(verb: string): boolean {
  return SEVERE_VERBS.has(verb) || MILD_VERBS.has(verb);
}

function keyArguments(inputRaw: string): string[] {
  const parsed = tryJson(inputRaw);
  return scalarPairs(parsed)
    .filter(([k, v]) => k && !isIdKey(k) && (typeof v !== "string" || (v.trim().length > 0 && v.length <= 40)))
    .slice(0, 2)
    .map(([k, v]) => `${camelWords(k).join(" ")} ${String(v).replace(/[[\]]/g, "")}`);
}

const chainStems = (c: ReadChain) =>
  new Set(contentStems([...c.steps.flatMap((s) => [camelWords(s.action).join(" "), s.input, s.observation ?? ""]), c.finalAnswer ?? ""].join("\n")));

const share = (of: Set<string>, inSet: Set<string>) => (of.size === 0 ? 0 : [...of].filter((w) => inSet.has(w)).length / of.size);
const round2 = (x: number) => Math.round(x * 100) / 100;
const clip = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

// ---------------------------------------------------------------------------------------------
// Task inference

function inferTasks(chain: ReadChain): string[] {
  const focus = chain.steps.find((s) => s.observation === null) ?? chain.steps[chain.steps.length - 1];
  let tasks: string[];
  if (!focus) {
    const topic = [...new Set(words(chain.finalAnswer ?? "").filter((w) => w.length > 3))].slice(0, 4).join(" ") || "this";
    tasks = [`Tell me about ${topic}.`, `Can you explain ${topic} in a few sentences?`, `Give me a short summary of what you know on ${topic}.`];
  } else {
    const f = toolPhrase(focus.action);
    const args = keyArguments(focus.input);
    const withArgs = args.length ? ` with ${args.join(" and ")}` : "";
    const first = chain.steps[0]!;
    const distinct = new Set(chain.steps.map((s) => s.action)).size;
    const t1 = `Please ${f.phrase}${withArgs}.`;
    const t2 = distinct > 1 ? `First ${toolPhrase(first.action).phrase}, then ${f.phrase}${withArgs}.` : `Could you ${f.phrase}${withArgs} for me and tell me when it is done?`;
    const t3 = isActing(f.verb)
      ? `Only check the ${f.object}${args.length ? ` for ${args.join(" and ")}` : ""} and tell me what you find; do not change anything.`
      : `Look into the ${f.object}${args.length ? ` for ${args.join(" and ")}` : ""} and give me a short summary.`;
    tasks = [t1, t2, t3];
  }
  const seen = new Set<string>();
  return tasks.map((t, k) => {
    const out = seen.has(t.toLowerCase()) ? `${t} (variant ${k + 1})` : t;
    seen.add(out.toLowerCase());
    return capitalize(out.slice(0, 1)) + out.slice(1);
  });
}

// ---------------------------------------------------------------------------------------------
// Verification

const OPTION_LINE = /^([A-E])\. (.*)$/;

function verification(user: string): string {
  const record = readChain(between(user, "## The agent's record\n", ["\n\n## Candidate requests"]) ?? "");
  const options = (between(user, "## Candidate requests\n", []) ?? "")
    .split("\n")
    .map((l) => OPTION_LINE.exec(l.trim()))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ label: m[1]!, text: m[2]! }));
  if (options.some((o) => o.text.includes(CRITIC_GARBLE))) {
    return `Thought: ${HEURISTIC}: rule garble — the request carries ${CRITIC_GARBLE}, so this answer names no option.\nAnswer: these requests are hard to tell apart from the record.`;
  }
  const cs = chainStems(record);
  const raw = options.map((o) => {
    const stems = new Set(contentStems(o.text));
    return { ...o, r: (stems.size === 0 ? 0.05 : 0.1 + 0.8 * share(stems, cs)) + (o.label === "A" ? 0.1 : 0) };
  });
  const best = Math.max(...raw.map((o) => o.r), 0.05);
  const scored = raw
    .filter((o) => !o.text.includes(CRITIC_OMIT))
    .map((o) => ({ label: o.label, p: round2((0.95 * o.r) / best) }))
    .filter((o) => o.p >= 0.15)
    .sort((a, b) => b.p - a.p || a.label.localeCompare(b.label));
  const omitted = options.some((o) => o.text.includes(CRITIC_OMIT)) ? ` The option carrying ${CRITIC_OMIT} is left out.` : "";
  const thought = `Thought: ${HEURISTIC}: rule overlap — each option scores 0.1 + 0.8 × the share of its words found in the record, +0.1 for option A, scaled so the best option has 0.95; the options at 0.15 or more are named.${omitted}`;
  const lines = scored.length ? scored.map((o) => `${o.label}: ${o.p.toFixed(2)}`) : ["E: 0.05"];
  return `${thought}\nAnswer:\n${lines.join("\n")}`;
}

// ---------------------------------------------------------------------------------------------
// Standard / self-consistency and multi-step

function pendingConflict(pending: ChainEntry | undefined, request: Set<string>): string | null {
  if (!pending || pending.observation !== null) return null;
  const { verb } = toolPhrase(pending.action);
  return isActing(verb) && !verbMatches(request, verb) ? verb : null;
}

function standard(user: string, marker: ParsedMarker, temperature: number): string {
  const request = between(user, "## The user's request\n", ["\n\n## The agent's record"]) ?? "";
  if (request.includes(CRITIC_GARBLE)) return `Thought: ${HEURISTIC}: rule garble — the request carries ${CRITIC_GARBLE}.\nI would rather not say.`;
  const chain = readChain(between(user, "## The agent's record\n", []) ?? "");
  const requestStems = new Set(contentStems(request));
  const o = share(requestStems, chainStems(chain));
  const conflict = pendingConflict(chain.steps[chain.steps.length - 1], new Set(words(request)));
  let s = clip(0.25 + 0.7 * o - (conflict ? 0.35 : 0), 0.03, 0.97);
  let noise = "";
  if (temperature > 0 && marker.seed !== null) {
    const d = (hash32(user, marker.seed) / 2 ** 32 - 0.5) * 0.8 * temperature;
    s = clip(s + d, 0.03, 0.97);
    noise = ` Sample ${marker.seed} at T = ${temperature} adds ${d.toFixed(3)}.`;
  }
  s = round2(s);
  const correct = s >= 0.5;
  const thought = `Thought: ${HEURISTIC}: rule overlap — ${Math.round(o * 100)}% of the request's words appear in the record${conflict ? `; the pending action would ${conflict}, which the request does not ask for` : ""}; on-track score ${s.toFixed(2)}.${noise}`;
  return `${thought}\nVerdict: ${correct ? "Correct" : "Incorrect"}\nConfidence: ${(correct ? s : round2(1 - s)).toFixed(2)}`;
}

function multiStep(user: string): string {
  const request = between(user, "## The user's request\n", ["\n\n## The agent's record"]) ?? "";
  if (request.includes(CRITIC_GARBLE)) return `Thought: ${HEURISTIC}: rule garble — the request carries ${CRITIC_GARBLE}.\nEvery step looks about the same to me.`;
  const requestStems = new Set(contentStems(request));
  const requestWords = new Set(words(request));
  const body = between(user, "## The agent's record, step by step\n", []) ?? "";
  const blocks = body.split(/\n\n(?=Step \d+\n)/).filter((b) => /^Step \d+\n/.test(b));
  const lines = blocks.map((b, k) => {
    const chain = readChain(b.replace(/^Step \d+\n/, ""));
    const step = chain.steps[0];
    let p: number;
    if (step) {
      const stems = [...new Set(contentStems(`${camelWords(step.action).join(" ")} ${step.input}`))].slice(0, 5);
      const o = stems.length ? stems.filter((w) => requestStems.has(w)).length / stems.length : 0;
      const { verb } = toolPhrase(step.action);
      p = 0.3 + 0.6 * o - (isActing(verb) && !verbMatches(requestWords, verb) ? 0.35 : 0);
    } else {
      p = 0.3 + 0.6 * share(new Set(contentStems(chain.finalAnswer ?? "")), requestStems);
    }
    return `Step ${k + 1}: ${round2(clip(p, 0.03, 0.97)).toFixed(2)}`;
  });
  return `Thought: ${HEURISTIC}: rule overlap — each step scores 0.3 + 0.6 × the share of its tool and input words found in the request, −0.35 for an acting step the request does not ask for.\n${lines.join("\n")}`;
}

// ---------------------------------------------------------------------------------------------
// Simulated user

function simulatedUser(user: string): string {
  const achievements = (between(user, "## What you want achieved\n", ["\n\n## "]) ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("- ") && l !== "- none")
    .map((l) => l.slice(2));
  const pending = readChain(between(user, "## The action it wants to take now\n", []) ?? "").steps[0];
  if (!pending) return `Decision: Approve\nFeedback: none\n(${HEURISTIC}: no pending action found, nothing to object to.)`;
  const { verb } = toolPhrase(pending.action);
  // Without expected achievements, the request stands in for them.
  const request = between(user, "## Your request\n", ["\n\n## "]) ?? "";
  const wanted = new Set(achievements.length ? achievements.flatMap((a) => words(a)) : words(request));
  if (isActing(verb) && !verbMatches(wanted, verb)) {
    const goal = achievements[0] ? truncate(achievements[0].replace(/\.$/, ""), 160) : "what I asked for";
    return `Decision: Reject\nFeedback: I do not want you to ${verb} anything with ${pending.action}. What I want is this: ${goal}. Please do only that, and ask me before any step that changes something.\n(${HEURISTIC}: rule — an acting tool whose verb no expected achievement asks for is rejected.)`;
  }
  return `Decision: Approve\nFeedback: none\n(${HEURISTIC}: rule — ${isActing(verb) ? `the expected achievements ask for "${verb}"` : "the action only reads"}.)`;
}

// ---------------------------------------------------------------------------------------------

/** The critic roles' answers, by template id. */
export function criticRespond(messages: ChatMessage[], marker: ParsedMarker, temperature: number): string {
  const user = messages.find((m) => m.role === "user")?.content ?? "";
  switch (marker.templateId) {
    case "critic.inferact_inference": {
      const record = between(user, "## The agent's record\n", []) ?? "";
      const tasks = inferTasks(readChain(record));
      return `(${HEURISTIC}: rule — requests built from the record's tool names and key arguments.)\n${tasks.map((t, k) => `Task ${k + 1}: ${t}`).join("\n")}`;
    }
    case "critic.inferact_verification":
      return verification(user);
    case "critic.standard":
      return standard(user, marker, temperature);
    case "critic.multi_step":
      return multiStep(user);
    default:
      return `${HEURISTIC}: no rule for the critic template ${marker.templateId}@${marker.version}.`;
  }
}

export function simulatedUserRespond(messages: ChatMessage[]): string {
  return simulatedUser(messages.find((m) => m.role === "user")?.content ?? "");
}
