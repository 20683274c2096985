// The critic at work (issue 13 items 3–6): one checkpoint's or one trajectory's verdicts, by the
// method of the settings. A function of its inputs and the model's answers: it reads and writes
// no database (lib/critic/store.ts saves the result). Every call carries purpose "critic", the
// trajectory, the step and the run it serves, so a client created with a database records one
// LlmCall row per call (lib/llm/client.ts), as the evaluators' calls are recorded.
//
// p, per checkpoint, is the probability that the agent is on track; the checkpoint passes iff
// p > τ, and p = null is ERROR (the output could not be read; `error` says why):
//   INFERACT          p̄(t*): 1 inference call (T = 0) names N = 3 tasks; the verification is asked
//                     in the forward and the fully reversed option order (T = 0 each), p̄ = mean of
//                     the two orders' p(t*), an order not naming t* giving 0; without order
//                     averaging only the forward order is asked and p̄ = its p(t*). An inference
//                     answer with fewer than 3 tasks, or an order's answer naming no option with a
//                     probability, makes the checkpoint ERROR.
//   STANDARD          1 call (T = 0): Correct with confidence c → p = c; Incorrect → p = 1 − c.
//   SELF_CONSISTENCY  m calls of the standard prompt at the sample temperature (sample k carries k
//                     as its seed); majority vote: p = share of the readable samples voting
//                     Correct, so p > 0.5 ⇔ a majority says Correct. Unreadable samples are left
//                     out of the share (listed in detail); none readable → ERROR.
//   MULTI_STEP        1 call (T = 0): a probability per step of the chain (the pending one last),
//                     p = their min / max / mean / product (the setting) over the steps it rated.
// A call that fails for good (LlmCallError, after the client's retries) is thrown, not turned into
// an ERROR: the critic did not answer, so there is nothing to judge (the caller's job retries).
//
// The trajectory: checkpoints by lib/critic/checkpoints.ts (critical tools, then the final
// answer), m = min p over them with ERROR as a flag (p = 0), score = 1 − m (lib/metrics/critic.ts).
import type { ChatRequest, ModelClient } from "@/lib/llm/types";
import { trajectoryMinP, trajectoryScore } from "@/lib/metrics/critic";
import { checkpoints as checkpointsOf, type Checkpoint, type CriticStep } from "./checkpoints";
import { parseInferredTasks, parseStandardVerdict, parseStepProbabilities, parseVerificationAnswer, standardP } from "./parse";
import { buildInferencePrompt, buildMultiStepPrompt, buildStandardPrompt, buildVerificationPrompt, stepCount, type BuiltPrompt } from "./prompts/build";
import { CRITIC_TEMPLATES } from "./prompts/templates";
import type { CriticAggregation, CriticMethodName, CriticSettings } from "./settings";
import { realProbability, toForwardLabels, type OptionProbabilities, type Order } from "./verification";
import { templateRef } from "@/lib/prompts/template";

export interface CriticInput {
  instruction: string;
  steps: CriticStep[];
  finalAnswer: string | null;
  /** Agent-facing names of the tools whose calls are checkpoints. */
  criticalTools: ReadonlySet<string>;
  /** Tool agent name → the name of its amount argument. */
  amountArgs: ReadonlyMap<string, string>;
  /** Instructions of other cases (never this one), shown to task inference as phrasing examples. */
  styleExamples: string[];
}

export interface OrderVerdict {
  raw: string;
  /** The options the answer named, with their labels mapped to the forward order's. */
  probabilities: OptionProbabilities;
  /** p(t*) in this order; null when the answer could not be read. */
  p: number | null;
}

export interface CriticUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface CheckpointVerdict {
  stepIndex: number;
  final: boolean;
  tool: string | null;
  amount: number | null;
  inferredTasks: string[];
  forward: OrderVerdict | null;
  reverse: OrderVerdict | null;
  /** The method's own outputs (see the detail types below); INFERACT: { inference: { raw, template }, templates }. */
  detail: unknown;
  /** The probability the agent is on track; null = ERROR. */
  p: number | null;
  error: string | null;
  usage: CriticUsage;
}

export interface CriticAssessmentResult {
  checkpoints: CheckpointVerdict[];
  /** min p over the checkpoints, ERROR counted as 0; null when there are no checkpoints. */
  minP: number | null;
  /** 1 − minP. */
  score: number | null;
  errorCount: number;
  usage: CriticUsage;
}

export interface AssessOptions {
  /** The stored trajectory the calls are logged against. */
  trajectoryId?: string;
  /** The run the calls count toward (a replay run; the episode's run for the online gate). */
  runId?: string;
  signal?: AbortSignal;
}

export interface StandardSampleDetail {
  raw: string;
  correct: boolean | null;
  confidence: number | null;
  error: string | null;
}

export interface StandardDetail extends StandardSampleDetail {
  template: string;
}

export interface SelfConsistencyDetail {
  template: string;
  temperature: number;
  samples: StandardSampleDetail[];
  votesCorrect: number;
  votesIncorrect: number;
  unreadable: number;
}

export interface MultiStepDetail {
  template: string;
  raw: string;
  aggregation: CriticAggregation;
  /** Per step 1..n (the pending one last); null where the answer gave none. */
  steps: (number | null)[];
  missing: number[];
}

export interface InferActDetail {
  templates: string[];
  inference: { raw: string; error: string | null };
}

const ZERO: CriticUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

function addUsage(a: CriticUsage, b: CriticUsage): CriticUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, costUsd: a.costUsd + b.costUsd };
}

/** The templates a method's calls use (stored with the assessment's settings). */
export function criticTemplateRefs(method: CriticMethodName): string[] {
  switch (method) {
    case "INFERACT":
      return [templateRef(CRITIC_TEMPLATES.inference), templateRef(CRITIC_TEMPLATES.verification)];
    case "STANDARD":
    case "SELF_CONSISTENCY":
      return [templateRef(CRITIC_TEMPLATES.standard)];
    case "MULTI_STEP":
      return [templateRef(CRITIC_TEMPLATES.multiStep)];
  }
}

/** A number from an argument value: 120, "120", "$1,200.50", "1200 USD" → the number; else null. */
export function amountValue(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string") return null;
  const m = /^[^\d-]*(-?\d[\d,]*(?:\.\d+)?)/.exec(v.trim());
  if (!m) return null;
  const n = Number(m[1]!.replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

function findKey(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    for (const v of value) {
      const f = findKey(v, key);
      if (f !== undefined) return f;
    }
  } else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (key in o) return o[key];
    for (const v of Object.values(o)) {
      const f = findKey(v, key);
      if (f !== undefined) return f;
    }
  }
  return undefined;
}

/** The amount of a pending tool call: its amount argument's value (first found, at any depth) as a number. */
export function checkpointAmount(input: CriticInput, checkpoint: Checkpoint): number | null {
  if (checkpoint.pending.kind !== "tool") return null;
  const arg = input.amountArgs.get(checkpoint.pending.action);
  if (!arg) return null;
  // The unmasked input: masking may have replaced the value in the checkpoint's copy.
  const raw = input.steps[checkpoint.index]?.actionInputRaw ?? checkpoint.pending.input;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  return amountValue(findKey(parsed, arg));
}

interface Caller {
  ask(prompt: BuiltPrompt, extra?: Pick<ChatRequest, "temperature" | "sample">): Promise<string>;
  usage(): CriticUsage;
}

function caller(client: ModelClient, checkpoint: Checkpoint, options: AssessOptions): Caller {
  let usage = ZERO;
  return {
    async ask(prompt, extra = {}) {
      const res = await client.chat({
        purpose: "critic",
        messages: prompt.messages,
        trajectoryId: options.trajectoryId,
        stepIndex: checkpoint.index,
        runId: options.runId,
        signal: options.signal,
        temperature: 0,
        ...extra,
      });
      usage = addUsage(usage, { inputTokens: res.inputTokens, outputTokens: res.outputTokens, costUsd: res.costUsd });
      return res.content;
    },
    usage: () => usage,
  };
}

type MethodVerdict = Pick<CheckpointVerdict, "inferredTasks" | "forward" | "reverse" | "detail" | "p" | "error">;

async function inferAct(call: Caller, input: CriticInput, checkpoint: Checkpoint, settings: CriticSettings): Promise<MethodVerdict> {
  const detail: InferActDetail = { templates: criticTemplateRefs("INFERACT"), inference: { raw: "", error: null } };
  const inferenceRaw = await call.ask(buildInferencePrompt(checkpoint, input.styleExamples, settings.inferredTasks));
  detail.inference.raw = inferenceRaw;
  const tasks = parseInferredTasks(inferenceRaw, settings.inferredTasks);
  if (!tasks.ok) {
    detail.inference.error = tasks.error;
    return { inferredTasks: [], forward: null, reverse: null, detail, p: null, error: `task inference: ${tasks.error}` };
  }
  const orders: Order[] = settings.orderAveraging ? ["forward", "reverse"] : ["forward"];
  const verdicts = await Promise.all(
    orders.map(async (order) => {
      const raw = await call.ask(buildVerificationPrompt(checkpoint, tasks.value, input.instruction, order));
      const parsed = parseVerificationAnswer(raw);
      if (!parsed.ok) return { verdict: { raw, probabilities: {}, p: null } satisfies OrderVerdict, error: `${order} verification: ${parsed.error.message}` };
      const verdict: OrderVerdict = { raw, probabilities: toForwardLabels(parsed.probabilities, order), p: realProbability(parsed.probabilities, order) };
      return { verdict, error: null };
    }),
  );
  const [forward, reverse = null] = verdicts;
  const errors = verdicts.flatMap((v) => (v.error ? [v.error] : []));
  const ps = verdicts.map((v) => v.verdict.p);
  const p = errors.length ? null : ps.reduce<number>((a, b) => a + b!, 0) / ps.length;
  return { inferredTasks: tasks.value, forward: forward!.verdict, reverse: reverse?.verdict ?? null, detail, p, error: errors.length ? errors.join("; ") : null };
}

function sampleDetail(raw: string): StandardSampleDetail {
  const v = parseStandardVerdict(raw);
  return v.ok ? { raw, correct: v.value.correct, confidence: v.value.confidence, error: null } : { raw, correct: null, confidence: null, error: v.error };
}

async function standard(call: Caller, input: CriticInput, checkpoint: Checkpoint): Promise<MethodVerdict> {
  const prompt = buildStandardPrompt(checkpoint, input.instruction);
  const s = sampleDetail(await call.ask(prompt));
  const detail: StandardDetail = { ...s, template: prompt.template };
  const p = s.correct === null ? null : standardP({ correct: s.correct, confidence: s.confidence! });
  return { inferredTasks: [], forward: null, reverse: null, detail, p, error: s.error ? `standard evaluation: ${s.error}` : null };
}

async function selfConsistency(call: Caller, input: CriticInput, checkpoint: Checkpoint, settings: CriticSettings): Promise<MethodVerdict> {
  const samples = await Promise.all(
    Array.from({ length: settings.samples }, async (_, i) => {
      const prompt = buildStandardPrompt(checkpoint, input.instruction, i + 1);
      return sampleDetail(await call.ask(prompt, { temperature: settings.sampleTemperature, sample: i + 1 }));
    }),
  );
  const votesCorrect = samples.filter((s) => s.correct === true).length;
  const votesIncorrect = samples.filter((s) => s.correct === false).length;
  const readable = votesCorrect + votesIncorrect;
  const detail: SelfConsistencyDetail = {
    template: templateRef(CRITIC_TEMPLATES.standard),
    temperature: settings.sampleTemperature,
    samples,
    votesCorrect,
    votesIncorrect,
    unreadable: samples.length - readable,
  };
  if (readable === 0) return { inferredTasks: [], forward: null, reverse: null, detail, p: null, error: `self-consistency: none of the ${samples.length} samples could be read (${samples[0]?.error ?? "no samples"})` };
  return { inferredTasks: [], forward: null, reverse: null, detail, p: votesCorrect / readable, error: null };
}

/** Folds per-step probabilities into one. */
export function aggregate(values: readonly number[], how: CriticAggregation): number {
  if (values.length === 0) throw new RangeError("nothing to aggregate");
  switch (how) {
    case "min":
      return Math.min(...values);
    case "max":
      return Math.max(...values);
    case "mean":
      return values.reduce((a, b) => a + b, 0) / values.length;
    case "product":
      return values.reduce((a, b) => a * b, 1);
  }
}

async function multiStep(call: Caller, input: CriticInput, checkpoint: Checkpoint, settings: CriticSettings): Promise<MethodVerdict> {
  const prompt = buildMultiStepPrompt(checkpoint, input.instruction);
  const raw = await call.ask(prompt);
  const n = stepCount(checkpoint);
  const parsed = parseStepProbabilities(raw, n);
  const detail: MultiStepDetail = {
    template: prompt.template,
    raw,
    aggregation: settings.aggregation,
    steps: parsed.ok ? parsed.value.probabilities : Array.from({ length: n }, () => null),
    missing: parsed.ok ? parsed.value.missing : Array.from({ length: n }, (_, i) => i + 1),
  };
  if (!parsed.ok) return { inferredTasks: [], forward: null, reverse: null, detail, p: null, error: `multi-step evaluation: ${parsed.error}` };
  const rated = parsed.value.probabilities.filter((p): p is number => p !== null);
  return { inferredTasks: [], forward: null, reverse: null, detail, p: aggregate(rated, settings.aggregation), error: null };
}

/** One checkpoint's verdict by the settings' method. Throws LlmCallError when a call fails for good. */
export async function assessCheckpoint(client: ModelClient, input: CriticInput, checkpoint: Checkpoint, settings: CriticSettings, options: AssessOptions = {}): Promise<CheckpointVerdict> {
  const call = caller(client, checkpoint, options);
  let v: MethodVerdict;
  switch (settings.method) {
    case "INFERACT":
      v = await inferAct(call, input, checkpoint, settings);
      break;
    case "STANDARD":
      v = await standard(call, input, checkpoint);
      break;
    case "SELF_CONSISTENCY":
      v = await selfConsistency(call, input, checkpoint, settings);
      break;
    case "MULTI_STEP":
      v = await multiStep(call, input, checkpoint, settings);
      break;
  }
  return {
    stepIndex: checkpoint.index,
    final: checkpoint.pending.kind === "final",
    tool: checkpoint.pending.kind === "tool" ? checkpoint.pending.action : null,
    amount: checkpointAmount(input, checkpoint),
    ...v,
    usage: call.usage(),
  };
}

/** The checkpoints of an input under the settings (masking on or off). */
export function criticCheckpoints(input: CriticInput, settings: Pick<CriticSettings, "maskInstructionStrings">): Checkpoint[] {
  return checkpointsOf({ steps: input.steps, finalAnswer: input.finalAnswer }, input.criticalTools, settings.maskInstructionStrings ? { maskFromInstruction: input.instruction } : {});
}

/** min p and score from checkpoint verdicts (ERROR = a flag, p = 0); null for none. */
export function summarise(verdicts: readonly Pick<CheckpointVerdict, "p">[]): { minP: number | null; score: number | null; errorCount: number } {
  const errorCount = verdicts.filter((c) => c.p === null).length;
  if (verdicts.length === 0) return { minP: null, score: null, errorCount };
  const ps = verdicts.map((c) => c.p ?? ("ERROR" as const));
  return { minP: trajectoryMinP(ps), score: trajectoryScore(ps), errorCount };
}

/** Every checkpoint of the trajectory, assessed side by side; min p and score over them. */
export async function assessTrajectory(client: ModelClient, input: CriticInput, settings: CriticSettings, options: AssessOptions = {}): Promise<CriticAssessmentResult> {
  const cps = criticCheckpoints(input, settings);
  const verdicts = await Promise.all(cps.map((cp) => assessCheckpoint(client, input, cp, settings, options)));
  return { checkpoints: verdicts, ...summarise(verdicts), usage: verdicts.reduce((u, v) => addUsage(u, v.usage), ZERO) };
}
