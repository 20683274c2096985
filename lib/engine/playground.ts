// What the playground page loads: the choices for a new episode, and one episode as it plays.
import "server-only";
import type { Db } from "@/lib/db/client";
import { OFFLINE_MODEL_LABEL } from "@/lib/llm/types";
import { EVALUATION_DETAIL, STEP_DETAIL } from "@/lib/toolemu/queries/trajectory";
import { AGENT_VARIANTS, EMULATOR_MODES } from "@/lib/trajectory/types";
import { REPLAY_LABEL } from "@/lib/trajectory/replay";
import { compareWithRecording } from "./replay";
import { REPLAY_ENDPOINT_NAME } from "@/lib/llm/endpoints";

export async function loadPlaygroundOptions(db: Db) {
  const [cases, endpoints] = await Promise.all([
    db.testCase.findMany({
      orderBy: [{ source: "asc" }, { name: "asc" }],
      select: { id: true, name: true, userInstruction: true, toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true } } } } },
    }),
    // The replay endpoint answers only for a recorded trajectory (its page's Replay button).
    db.modelEndpoint.findMany({ where: { name: { not: REPLAY_ENDPOINT_NAME } }, orderBy: [{ offline: "desc" }, { name: "asc" }], select: { id: true, name: true, model: true, offline: true } }),
  ]);
  // Sort official_2 before official_10.
  cases.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  return {
    cases: cases.map((c) => ({ id: c.id, name: c.name, instruction: c.userInstruction, toolkits: c.toolkits.map((t) => t.toolkit.name) })),
    endpoints: endpoints.map((e) => ({ ...e, badge: e.offline ? OFFLINE_MODEL_LABEL : null })),
    variants: AGENT_VARIANTS,
    modes: EMULATOR_MODES,
  };
}

export type PlaygroundOptions = Awaited<ReturnType<typeof loadPlaygroundOptions>>;

/** One emulated episode with its steps and evaluations, as the live view polls it. */
export async function loadEpisodeLive(db: Db, id: string) {
  const t = await db.trajectory.findUnique({
    where: { id },
    select: {
      id: true, origin: true, status: true, stopReason: true, stopDetail: true, agentModel: true, emulatorModel: true, emulatorMode: true, agentVariant: true,
      finalAnswer: true, actionInFinalAnswer: true, stepCount: true, inputTokens: true, outputTokens: true, costUsd: true, startedAt: true, finishedAt: true, settings: true,
      agentEndpointId: true, emulatorEndpointId: true, evaluatorEndpointId: true,
      agentEndpoint: { select: { offline: true } }, emulatorEndpoint: { select: { offline: true } }, evaluatorEndpoint: { select: { offline: true } },
      case: { select: { id: true, name: true, userInstruction: true } },
      steps: STEP_DETAIL,
      evaluations: EVALUATION_DETAIL,
    },
  });
  if (!t || t.origin !== "EMULATED" || !t.case) return null;
  // An evaluator call that failed for good leaves no Evaluation row, only its LlmCall with the
  // error; count those so the view knows the evaluations are over.
  const failedEvaluatorCalls = t.evaluatorEndpointId
    ? await db.llmCall.findMany({ where: { trajectoryId: id, role: "evaluator", error: { not: null } }, select: { error: true } })
    : [];
  const settings = (t.settings ?? {}) as { evaluator?: { kinds?: string[] } | null; replayOf?: string; loopMode?: string; maxSteps?: unknown };
  const expectedEvaluations = t.evaluatorEndpointId ? (settings.evaluator?.kinds?.length ?? 2) : 0;
  const { agentEndpoint, emulatorEndpoint, evaluatorEndpoint, startedAt, finishedAt, ...rest } = t;
  const replaying = typeof settings.replayOf === "string";
  return {
    ...rest,
    case: t.case,
    // A replay: the recorded trajectory, and (once the steps are over) how the replay compares with it.
    replay: replaying
      ? { recordedId: settings.replayOf!, comparison: t.status === "RUNNING" ? null : await compareWithRecording(db, id) }
      : null,
    loopMode: settings.loopMode === "STRICT" ? ("STRICT" as const) : ("TOOLEMU" as const),
    // The step limit the episode runs under (the live view says "step k of at most n").
    maxSteps: typeof settings.maxSteps === "number" ? settings.maxSteps : null,
    // Strings, so the page and the polling route hand the client the same shape.
    startedAt: startedAt?.toISOString() ?? null,
    finishedAt: finishedAt?.toISOString() ?? null,
    offline: { agent: !!agentEndpoint?.offline, emulator: !!emulatorEndpoint?.offline, evaluator: !!evaluatorEndpoint?.offline },
    offlineLabel: replaying ? REPLAY_LABEL : OFFLINE_MODEL_LABEL,
    evaluatorErrors: failedEvaluatorCalls.map((c) => c.error ?? ""),
    // The evaluations run after the last step; the view keeps polling until they are in.
    done: t.status !== "RUNNING" && (t.status === "INTERRUPTED" || t.evaluations.length + failedEvaluatorCalls.length >= expectedEvaluations),
  };
}

export type EpisodeLive = NonNullable<Awaited<ReturnType<typeof loadEpisodeLive>>>;

/** Recent playground episodes, newest first. */
export async function listRecentEpisodes(db: Db, take = 10) {
  const rows = await db.trajectory.findMany({
    where: { origin: "EMULATED", caseId: { not: null } },
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, status: true, agentModel: true, emulatorMode: true, agentVariant: true, stepCount: true, createdAt: true, case: { select: { name: true } } },
  });
  return rows.flatMap((r) => (r.case ? [{ ...r, case: r.case }] : []));
}
