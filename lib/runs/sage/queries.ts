// What the run page shows of a SAGE run while it plays (polled with the rest of the progress):
// per authority context, the episodes by status, UTR so far and each judge's ASR so far — each
// with n and a Wilson interval, over the episodes that have ended with a stored outcome — and the
// judge verdicts that were errors. The full analysis (pairs, McNemar, agreement) is the SAGE
// dashboard, filtered to the run.
import "server-only";
import type { Db } from "@/lib/db/client";
import { readSageOutcome, verdictOf } from "@/lib/dashboards/sage/query";
import { asrOfVerdicts, utr, type JudgeAsr, type SageRate } from "@/lib/metrics/sage";
import type { StoredSageRunSettings } from "./schemas";

export interface SageContextProgress {
  context: "TRUST" | "WARNING";
  counts: Record<"queued" | "running" | "done" | "failed" | "cancelled" | "total", number>;
  /** Ended episodes with a programmatic outcome. */
  utr: SageRate;
  judges: JudgeAsr[];
  /** Mean of the judges' ASRs (judges with at least one label); null without any. */
  meanAsr: number | null;
}

export interface SageRunSummary {
  settings: StoredSageRunSettings;
  attacker: { id: string; name: string; model: string; offline: boolean } | null;
  judges: { id: string; name: string; model: string; offline: boolean }[];
  contexts: SageContextProgress[];
  /** Verdict rows without a label (unusable answer or failed call), all contexts. */
  judgeErrors: number;
  /** Episodes that ran the scenario's turn limit down without a final answer. */
  turnLimitStops: number;
}

export async function sageRunSummary(db: Db, runId: string, settings: StoredSageRunSettings): Promise<SageRunSummary> {
  const endpoints = await db.modelEndpoint.findMany({
    where: { id: { in: [settings.attackerEndpointId, ...settings.judgeEndpointIds] } },
    select: { id: true, name: true, model: true, offline: true },
  });
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const status = await db.runEpisode.groupBy({ by: ["authority", "status"], where: { runId }, _count: { _all: true } });
  const episodes = await db.runEpisode.findMany({
    where: { runId, status: "DONE" },
    select: {
      authority: true,
      trajectory: { select: { stopReason: true, sageOutcome: true, sageJudgments: { where: { mode: settings.judgeMode, judgeModel: { in: settings.judgeModels } }, select: { judgeModel: true, label: true } } } },
    },
  });
  let judgeErrors = 0;
  let turnLimitStops = 0;
  const contexts = settings.contexts.map((context): SageContextProgress => {
    const counts = { queued: 0, running: 0, done: 0, failed: 0, cancelled: 0, total: 0 };
    for (const r of status.filter((x) => x.authority === context)) {
      const k = r.status.toLowerCase();
      if (k in counts) counts[k as keyof typeof counts] += r._count._all;
      counts.total += r._count._all;
    }
    const ended = episodes.filter((e) => e.authority === context && e.trajectory);
    const outcomes = ended.map((e) => readSageOutcome(e.trajectory!.sageOutcome)).filter((o) => o !== null);
    const judges = settings.judgeModels.map((model) =>
      asrOfVerdicts(
        model,
        ended.map((e) => {
          const j = e.trajectory!.sageJudgments.find((x) => x.judgeModel === model);
          return j ? verdictOf(j) : null;
        }),
      ),
    );
    for (const j of judges) judgeErrors += j.errors;
    turnLimitStops += ended.filter((e) => e.trajectory!.stopReason === "turn_limit").length;
    const labelled = judges.filter((j) => !j.asr.undefined);
    return {
      context,
      counts,
      utr: utr(outcomes.map((o) => o.unsafe)),
      judges,
      meanAsr: labelled.length ? labelled.reduce((s, j) => s + (j.asr.undefined ? 0 : j.asr.value), 0) / labelled.length : null,
    };
  });
  return {
    settings,
    attacker: byId.get(settings.attackerEndpointId) ?? null,
    judges: settings.judgeEndpointIds.map((id) => byId.get(id)).filter((e) => e !== undefined),
    contexts,
    judgeErrors,
    turnLimitStops,
  };
}
