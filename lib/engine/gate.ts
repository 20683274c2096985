// The online critic gate inside an episode (issue 13 item 7, InferAct). Before a critical tool
// call runs — its tool in the case's critical set (lib/critic/context.ts) and its input valid, so
// it would reach the emulator — the critic judges the chain so far, S_i = earlier actions, inputs
// and observations plus the pending action and input (lib/critic/checkpoints.ts: never the
// agent's thoughts, the emulator's notes or the pending call's observation). The verdict is kept
// as the trajectory's online CriticAssessment (every checkpoint of the episode so far).
//
//   p̄ > τ             the call runs (no intervention)
//   p̄ ≤ τ or ERROR    flagged: an Intervention row (the inferred tasks and p̄ for the queue), then
//      answerer "human"      PENDING; the episode pauses (./episode.ts stores the step with its
//                            action and input but no observation, the trajectory WAITING) and a
//                            worker resumes it once someone answers (./resume.ts)
//      answerer "simulated"  the simulated user (lib/critic/simulated-user.ts, an LM given the
//                            case's expected achievements) answers at once; the answer is stored
//                            on the Intervention (simulated = true) and the episode goes on
//   approved → the call runs (emulator); rejected → the agent observes BLOCKED_OBSERVATION (with
//   the written feedback, if any) and goes on.
//
// The critic's and the simulated user's calls are LlmCall rows of the trajectory at the step
// (purposes "critic" and "simulated-user"); their tokens count on the CriticAssessment, not in
// the trajectory's agent + emulator totals.
import type { Prisma } from "@/lib/db/generated/client";
import type { ModelClient } from "@/lib/llm/types";
import { assessCheckpoint, summarise, type CheckpointVerdict } from "@/lib/critic/assess";
import { checkpoints, type Checkpoint, type CriticStep } from "@/lib/critic/checkpoints";
import { saveAssessment } from "@/lib/critic/store";
import { askSimulatedUser, SimulatedUserParseError } from "@/lib/critic/simulated-user";
import { checkToolInput, errorObservation } from "@/lib/emulation/input-check";
import type { Episode, EpisodeState } from "./episode-types";

/** What the agent sees when the user blocked its call (plus their feedback, when they wrote some). */
export function blockedObservation(feedback: string | null): string {
  const text = feedback?.trim();
  return errorObservation(`the user blocked this action; it did not run.${text ? ` The user's feedback: ${text}` : ""}`, "ActionBlockedByUser");
}

export type GateOutcome =
  | { kind: "pass" }
  | { kind: "wait"; interventionId: string }
  | { kind: "approved"; interventionId: string }
  | { kind: "rejected"; interventionId: string; feedback: string | null };

/** The pending call's checkpoint is flagged: p̄ ≤ τ, or the critic's answer could not be read (ERROR). */
export function isFlagged(verdict: Pick<CheckpointVerdict, "p">, tau: number): boolean {
  return verdict.p === null || verdict.p <= tau;
}

/** The chain of completed calls so far, as the critic reads it (action, input, observation only). */
function chainSoFar(s: EpisodeState): CriticStep[] {
  return s.rawSteps.map((r) => ({ action: r.action, actionInputRaw: r.actionInputRaw, observation: r.observationRaw }));
}

/** Whether the gate looks at this call at all: a gated episode, a critical tool, a valid input. */
export function gatesCall(ep: Episode, action: string, actionInputRaw: string): boolean {
  const gate = ep.opts.gate;
  if (!gate || ep.opts.agent.variant === "NO_ACTION") return false;
  if (!gate.context.criticalTools.has(action)) return false;
  return checkToolInput(ep.tools, action, actionInputRaw).ok;
}

/** The online assessment of the episode so far (all its gate checkpoints), replacing the previous one. */
async function storeVerdicts(ep: Episode, s: EpisodeState): Promise<void> {
  const gate = ep.opts.gate!;
  const verdicts = [...s.gateVerdicts].sort((a, b) => a.stepIndex - b.stepIndex);
  const usage = verdicts.reduce((u, v) => ({ inputTokens: u.inputTokens + v.usage.inputTokens, outputTokens: u.outputTokens + v.usage.outputTokens, costUsd: u.costUsd + v.usage.costUsd }), { inputTokens: 0, outputTokens: 0, costUsd: 0 });
  const result = { checkpoints: verdicts, ...summarise(verdicts), usage };
  await saveAssessment(ep.db, { trajectoryId: ep.trajectoryId, runId: ep.opts.runId ?? null, online: true, criticModel: gate.client.endpoint.model, settings: gate.settings, result });
}

/**
 * Judges the pending call of step `index` (already stored, without observation) and says what
 * happens to it. Call only when gatesCall() is true.
 */
export async function gateCall(ep: Episode, s: EpisodeState, index: number, call: { action: string; actionInputRaw: string }): Promise<GateOutcome> {
  const gate = ep.opts.gate!;
  const { context, settings } = gate;
  const steps: CriticStep[] = [...chainSoFar(s), { action: call.action, actionInputRaw: call.actionInputRaw, observation: "" }];
  const all = checkpoints({ steps, finalAnswer: null }, context.criticalTools, settings.maskInstructionStrings ? { maskFromInstruction: context.instruction } : {});
  const checkpoint = all.find((c) => c.index === index);
  if (!checkpoint) return { kind: "pass" };
  const input = { instruction: context.instruction, steps, finalAnswer: null, criticalTools: context.criticalTools, amountArgs: context.amountArgs, styleExamples: context.styleExamples };
  const calls = { trajectoryId: ep.trajectoryId, runId: ep.opts.runId ?? undefined, signal: ep.opts.signal };
  const verdict = await assessCheckpoint(gate.client, input, checkpoint, settings, calls);
  s.gateVerdicts = [...s.gateVerdicts.filter((v) => v.stepIndex !== index), verdict];
  await storeVerdicts(ep, s);
  if (!isFlagged(verdict, settings.tau)) return { kind: "pass" };

  const critic = {
    method: settings.method,
    criticModel: gate.client.endpoint.model,
    tau: settings.tau,
    p: verdict.p,
    error: verdict.error,
    inferredTasks: verdict.inferredTasks,
    forwardP: verdict.forward?.p ?? null,
    reverseP: verdict.reverse?.p ?? null,
    amount: verdict.amount,
  };
  const base = {
    runId: ep.opts.runId ?? null,
    runEpisodeId: gate.runEpisodeId ?? null,
    trajectoryId: ep.trajectoryId,
    stepIndex: index,
    tool: call.action,
    actionInput: call.actionInputRaw,
    critic: critic as unknown as Prisma.InputJsonValue,
    p: verdict.p,
  };
  if (gate.answerer === "simulated" && gate.simulatedUser) {
    const answer = await simulatedAnswer(gate.simulatedUser, ep, index, checkpoint);
    const approved = answer.decision === "approve";
    const feedback = approved ? null : answer.feedback?.trim() || null;
    const row = await ep.db.intervention.create({
      data: {
        ...base,
        critic: { ...critic, simulatedUser: { raw: answer.raw, error: answer.error } } as unknown as Prisma.InputJsonValue,
        status: approved ? "APPROVED" : "REJECTED",
        feedback,
        simulated: true,
        answeredAt: new Date(),
      },
      select: { id: true },
    });
    return approved ? { kind: "approved", interventionId: row.id } : { kind: "rejected", interventionId: row.id, feedback };
  }
  // Written with the trajectory's WAITING status in one transaction (./trajectory-store.ts pauseTrajectory).
  return { kind: "wait", interventionId: await createPendingIntervention(ep, base) };
}

/**
 * The simulated user's answer. One whose decision cannot be read counts as a plain rejection: the
 * gate flagged the call and nobody approved it (the raw answer and the error stay on the
 * Intervention's critic JSON).
 */
async function simulatedAnswer(client: ModelClient, ep: Episode, index: number, checkpoint: Checkpoint) {
  if (checkpoint.pending.kind !== "tool") throw new Error("The simulated user answers tool calls only.");
  try {
    const a = await askSimulatedUser(
      client,
      { instruction: ep.spec.userInstruction, expectedAchievements: ep.spec.expectedAchievements, chain: checkpoint.earlier, pending: { action: checkpoint.pending.action, input: checkpoint.pending.input } },
      { trajectoryId: ep.trajectoryId, stepIndex: index, runId: ep.opts.runId ?? undefined, signal: ep.opts.signal },
    );
    return { decision: a.decision, feedback: a.feedback, raw: a.raw, error: null as string | null };
  } catch (e) {
    if (!(e instanceof SimulatedUserParseError)) throw e;
    return { decision: "reject" as const, feedback: null, raw: e.raw, error: e.message };
  }
}

async function createPendingIntervention(ep: Episode, data: Prisma.InterventionUncheckedCreateInput): Promise<string> {
  const row = await ep.db.intervention.upsert({
    where: { trajectoryId_stepIndex: { trajectoryId: data.trajectoryId, stepIndex: data.stepIndex } },
    create: { ...data, status: "PENDING" },
    update: {},
    select: { id: true },
  });
  return row.id;
}
