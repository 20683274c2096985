// Judging stored SAGE episodes (issue 14 item 4): one or more judge endpoints at T = 0 label each
// episode safe / unsafe / uncertain (or, in binary mode, must choose safe or unsafe). The judge
// sees the hidden specification, the tools' hidden roles, the transcript and the programmatic
// result "for reference only" (./prompts/build.ts); its answer is read by ./parse-judge.ts.
//
// Everything is read back from the stored rows (Trajectory.sageOutcome, Step.userMessage /
// agentLog / observationRaw), so a judge added later labels old episodes without replaying them.
// One SageJudgment row per episode × judge model × mode: an unusable answer (or a failed call) is
// stored with `error` and no label — counted apart from the labels. An existing row is kept
// unless `replace` is set, except one whose call failed (tried again).
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { LlmCallError, type ModelClient } from "@/lib/llm/types";
import type { SageEpisodeOutcome } from "./environment";
import { parseSageAgentOutput } from "./parse-agent";
import { parseSageJudgeOutput } from "./parse-judge";
import { buildSageJudgeMessages, type SageJudgeInput, type SageTurn } from "./prompts/build";
import type { SageJudgeMode } from "./prompts/judge";
import type { SageTool } from "./tools";

export type { SageJudgeMode } from "./prompts/judge";

/** How a stored verdict whose call failed begins (such rows are judged again without `replace`). */
export const CALL_FAILED = "call failed: ";

/** Judges answer at temperature 0. */
export const SAGE_JUDGE_TEMPERATURE = 0;

/** The judge's view of a stored episode. */
export async function loadJudgeInput(db: Db, trajectoryId: string): Promise<SageJudgeInput> {
  const t = await db.trajectory.findUnique({
    where: { id: trajectoryId },
    include: { steps: { orderBy: { index: "asc" } }, scenario: { include: { subcategory: true } } },
  });
  if (!t) throw new Error(`Trajectory ${trajectoryId} does not exist.`);
  if (!t.scenario || !t.authorityContext) throw new Error(`Trajectory ${trajectoryId} is not a SAGE episode (it has no scenario or no authority context).`);
  if (t.status === "RUNNING") throw new Error(`Trajectory ${trajectoryId} is still running; judge it when it has ended.`);
  const s = t.scenario;
  const turns: SageTurn[] = t.steps.map((step) => {
    const parsed = step.agentLog === null ? null : parseSageAgentOutput(step.agentLog);
    return {
      user: step.userMessage ?? "",
      agentOutput: step.agentLog,
      action: parsed?.ok ? parsed.action : null,
      toolResult: step.observationRaw,
    };
  });
  if (turns.length === 0) throw new Error(`Trajectory ${trajectoryId} has no turns to judge.`);
  const outcome = (t.sageOutcome ?? null) as SageEpisodeOutcome | null;
  const definition = (s.subcategory.definition ?? null) as Record<string, unknown> | null;
  return {
    family: { key: s.subcategory.key, name: s.subcategory.name, criteria: definition?.judge_template ?? null },
    scenario: {
      roleContext: s.roleContext,
      taskContext: s.taskContext,
      crisisContext: s.crisisContext,
      consequence: s.consequence,
      judgeSpec: s.judgeExtra && typeof s.judgeExtra === "object" ? { ...(s.judgeSpec as object), ...(s.judgeExtra as object) } : s.judgeSpec,
      environmentState: s.environmentState,
    },
    authority: t.authorityContext,
    authorityText: t.authorityContext === "TRUST" ? s.authorityTrust : s.authorityWarning,
    tools: (Array.isArray(s.tools) ? s.tools : []) as unknown as SageTool[],
    turns,
    programmatic: {
      unsafeCalls: outcome?.unsafeCalls ?? [],
      forbiddenCall: outcome?.forbiddenCall ?? false,
      stopReason: t.stopReason ?? "unknown",
    },
  };
}

export interface SageJudgmentResult {
  trajectoryId: string;
  judgeModel: string;
  mode: SageJudgeMode;
  label: string | null;
  error: string | null;
  /** false when an existing row was kept. */
  written: boolean;
}

/** One judge labels one stored episode; the verdict (or the error) is stored. */
export async function judgeSageEpisode(
  db: Db,
  trajectoryId: string,
  judge: ModelClient,
  mode: SageJudgeMode = "TERNARY",
  options: { seed?: number | null; replace?: boolean; runId?: string } = {},
): Promise<SageJudgmentResult> {
  const judgeModel = judge.endpoint.model;
  const key = { trajectoryId_judgeModel_mode: { trajectoryId, judgeModel, mode } };
  if (!options.replace) {
    const existing = await db.sageJudgment.findUnique({ where: key, select: { label: true, error: true } });
    // A verdict, or an answer that was unusable, is kept; a call that failed is tried again.
    if (existing && !existing.error?.startsWith(CALL_FAILED)) return { trajectoryId, judgeModel, mode, label: existing.label, error: existing.error, written: false };
  }
  const input = await loadJudgeInput(db, trajectoryId);
  const prompt = buildSageJudgeMessages(input, mode, options.seed);
  let raw: string | null = null;
  let error: string | null = null;
  let usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 };
  try {
    const r = await judge.chat({ purpose: "judge", messages: prompt.messages, temperature: SAGE_JUDGE_TEMPERATURE, trajectoryId, runId: options.runId });
    raw = r.content;
    usage = { inputTokens: r.inputTokens, outputTokens: r.outputTokens, costUsd: r.costUsd, latencyMs: Math.round(r.latencyMs) };
  } catch (e) {
    if (!(e instanceof LlmCallError)) throw e;
    error = `${CALL_FAILED}${e.message}`;
  }
  const data = {
    endpointId: judge.endpoint.id,
    template: prompt.template,
    raw,
    label: null as string | null,
    riskPoints: [] as string[],
    safePoints: [] as string[],
    evidence: [] as Prisma.InputJsonValue,
    reason: null as string | null,
    warnings: [] as string[],
    error,
    ...usage,
  };
  if (raw !== null) {
    const p = parseSageJudgeOutput(raw, { binary: mode === "BINARY", turns: input.turns.length });
    if (p.ok) {
      Object.assign(data, {
        label: p.verdict.label,
        riskPoints: p.verdict.riskPoints,
        safePoints: p.verdict.safePoints,
        evidence: p.verdict.evidence as unknown as Prisma.InputJsonValue,
        reason: p.verdict.reason || null,
        warnings: p.warnings,
      });
    } else data.error = `unusable answer (${p.code}): ${p.problem}`;
  }
  await db.sageJudgment.upsert({ where: key, create: { trajectoryId, judgeModel, mode, ...data }, update: data });
  return { trajectoryId, judgeModel, mode, label: data.label, error: data.error, written: true };
}

/**
 * Every judge labels every given stored episode (a judge added later: only the missing rows are
 * written unless `replace`). Episodes one after another, judges of an episode in parallel.
 */
export async function judgeStoredEpisodes(
  db: Db,
  trajectoryIds: readonly string[],
  judges: readonly ModelClient[],
  mode: SageJudgeMode = "TERNARY",
  options: { seed?: number | null; replace?: boolean; runId?: string } = {},
): Promise<SageJudgmentResult[]> {
  const models = judges.map((j) => j.endpoint.model);
  const dup = models.find((m, i) => models.indexOf(m) !== i);
  if (dup) throw new Error(`Two judges with the same model "${dup}": a verdict is stored per judge model, so each judge needs its own model.`);
  const out: SageJudgmentResult[] = [];
  for (const id of trajectoryIds) {
    out.push(...(await Promise.all(judges.map((j) => judgeSageEpisode(db, id, j, mode, options)))));
  }
  return out;
}
