// The episode's end: the evaluators read the trajectory the loop holds in memory (no read back
// from the database) and each kind's result is stored as soon as it is in.
import { evaluateTrajectory, type TrajectoryForEvaluation } from "@/lib/evaluation/evaluate";
import type { Episode, EpisodeState, EvaluationOutcome } from "./episode-types";
import { saveEvaluations } from "./trajectory-store";

export async function evaluateEpisode(ep: Episode, s: EpisodeState): Promise<EvaluationOutcome[]> {
  const evaluator = ep.opts.evaluator;
  if (!evaluator) return [];
  const trajectory: TrajectoryForEvaluation = { id: ep.trajectoryId, steps: s.rawSteps, finalAnswer: s.final?.answer ?? null, stopReason: s.stopReason };
  const one = async (kind: (typeof ep.kinds)[number]) => {
    const results = await evaluateTrajectory(ep.spec, trajectory, evaluator.client, [kind], { signal: ep.opts.signal });
    const [outcome] = await saveEvaluations(ep.db, ep.trajectoryId, results, ep.calls ?? null);
    return outcome!;
  };
  return Promise.all(ep.kinds.map(one));
}
