// Resuming an episode the online gate paused (./gate.ts): the trajectory is WAITING, its last step
// holds the flagged call without observation, and that step's Intervention has been answered.
// Nothing is replayed and nothing is deleted (unlike a retry): the agent's scratchpad is rebuilt
// from the stored steps — its opening messages (with the trial's feedback), then each completed
// step's output as the agent wrote it and the observation it got — and the emulator's history from
// the same rows. Then the pending call is settled by its answer (approved: it runs; rejected: the
// agent observes that the user blocked it) and the loop goes on from the next step.
//
// The ToolEmu-format line of a resumed episode rebuilds each earlier step's simulator log from the
// stored emulator thought, summary and observation (the raw emulator output is not stored).
import type { CheckpointVerdict } from "@/lib/critic/assess";
import { agentTurnMessages } from "@/lib/emulation/prompts/build";
import type { Episode, EpisodeState } from "./episode-types";

export interface PendingCall {
  stepId: string;
  index: number;
  action: string;
  actionInputRaw: string;
  agentLog: string;
  usage: { inputTokens: number; outputTokens: number; costUsd: number; latencyMs: number };
  /** Its intervention's answer; PENDING when it has none yet. */
  answer: { interventionId: string; status: "PENDING" | "APPROVED" | "REJECTED"; feedback: string | null } | null;
}

function isErrorObject(o: unknown): boolean {
  return !!o && typeof o === "object" && !Array.isArray(o) && "error" in o;
}

function simulatorLog(s: { emulatorThought: string | null; emulatorSummary: string | null; observationRaw: string | null }): string {
  return [s.emulatorThought ? `Simulator Thought: ${s.emulatorThought}` : "", s.emulatorSummary ? `Simulator Log Summary: ${s.emulatorSummary}` : "", `Observation: ${s.observationRaw ?? ""}`].filter(Boolean).join("\n");
}

/**
 * Fills `s` (fresh, with the opening messages) from the stored trajectory and returns the pending
 * call, if the last step is one. Throws when the stored steps cannot be resumed from.
 */
export async function restoreState(ep: Episode, s: EpisodeState): Promise<PendingCall | null> {
  const t = await ep.db.trajectory.findUnique({
    where: { id: ep.trajectoryId },
    select: {
      inputTokens: true,
      outputTokens: true,
      costUsd: true,
      steps: { orderBy: { index: "asc" } },
      interventions: { select: { id: true, stepIndex: true, status: true, feedback: true } },
      criticAssessments: { where: { online: true }, orderBy: { createdAt: "desc" }, take: 1, include: { checkpoints: { orderBy: { stepIndex: "asc" } } } },
    },
  });
  if (!t) throw new Error(`Trajectory ${ep.trajectoryId} does not exist.`);
  s.total = { inputTokens: t.inputTokens, outputTokens: t.outputTokens, costUsd: t.costUsd, latencyMs: 0 };
  let pending: PendingCall | null = null;
  t.steps.forEach((step, i) => {
    if (step.index !== i) throw new Error(`Trajectory ${ep.trajectoryId}: step ${i} is missing; it cannot be resumed.`);
    if (!step.action || step.actionInputRaw === null || step.agentLog === null) throw new Error(`Trajectory ${ep.trajectoryId}: step ${i} holds no action; it cannot be resumed.`);
    if (step.observationRaw === null) {
      if (i !== t.steps.length - 1) throw new Error(`Trajectory ${ep.trajectoryId}: step ${i} has no observation but is not the last; it cannot be resumed.`);
      const iv = t.interventions.find((x) => x.stepIndex === i);
      pending = {
        stepId: step.id,
        index: i,
        action: step.action,
        actionInputRaw: step.actionInputRaw,
        agentLog: step.agentLog,
        usage: { inputTokens: step.inputTokens, outputTokens: step.outputTokens, costUsd: step.costUsd, latencyMs: step.latencyMs },
        answer: iv ? { interventionId: iv.id, status: iv.status, feedback: iv.feedback } : null,
      };
      return;
    }
    if (isErrorObject(step.observation)) s.hasErrors = true;
    s.rawSteps.push({ action: step.action, actionInputRaw: step.actionInputRaw, agentLog: step.agentLog, observationRaw: step.observationRaw, summary: step.emulatorSummary ?? "", simulatorLog: simulatorLog(step) });
    s.history.push({ action: step.action, actionInput: step.actionInputRaw, observation: step.observationRaw, summary: step.emulatorFailure ? null : step.emulatorSummary });
    s.messages = [...s.messages, ...agentTurnMessages(step.agentLog, step.observationRaw)];
  });
  s.stepCount = t.steps.length;
  const a = t.criticAssessments[0];
  if (a) {
    s.gateVerdicts = a.checkpoints.map(
      (c, i): CheckpointVerdict => ({
        stepIndex: c.stepIndex,
        final: c.final,
        tool: c.tool,
        amount: c.amount,
        inferredTasks: c.inferredTasks,
        forward: c.forward as CheckpointVerdict["forward"],
        reverse: c.reverse as CheckpointVerdict["reverse"],
        detail: c.detail,
        p: c.p,
        error: c.error,
        // Per-checkpoint usage is not stored: the assessment's total rides on its first checkpoint.
        usage: i === 0 ? { inputTokens: a.inputTokens, outputTokens: a.outputTokens, costUsd: a.costUsd } : { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      }),
    );
  }
  return pending;
}
