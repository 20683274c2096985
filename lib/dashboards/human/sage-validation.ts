// SAGE human validation as the paper reports it (App. C), beside κ (issue 14 item 7). Pure.
//
// Episode safety (form "sage-episode-safety", field verdict):
//  - annotator agreement = episodes on which all their annotators gave the same verdict / episodes
//    with ≥ 2 verdicts (paper: 128/160 = 80.0 %);
//  - human–judge agreement, per judge = (human verdict, judge label) pairs that match / pairs,
//    over every human verdict on an episode that judge labelled (paper: 250/320 = 78.1 %); a judge's
//    "uncertain" matches nothing, an unusable answer (no label) is left out;
//  - the same on the agreed subset = agreed episodes whose agreed verdict the judge matches /
//    agreed episodes the judge labelled (paper: 109/128 = 85.2 %).
// Scenario quality (form "sage-scenario-quality"): a label passes iff its three ratings are all
// ≥ 3; pass rate = passing labels / labels (paper 307/320 = 95.9 %); annotator pass/fail
// agreement = scenarios whose annotators all pass or all fail it / scenarios with ≥ 2 labels
// (paper 147/160 = 91.9 %). Every share with n and a Wilson 95 % interval.
import { wilsonInterval, type WilsonInterval } from "@/lib/metrics";
import { scenarioPasses } from "@/lib/trajectory/label-forms-sage";

export interface Share {
  k: number;
  n: number;
  value: number | null;
  interval: WilsonInterval;
}

const share = (k: number, n: number): Share => ({ k, n, value: n ? k / n : null, interval: wilsonInterval(k, n) });

export interface EpisodeVerdicts {
  item: string;
  trajectoryId: string;
  /** The annotators' verdicts (safe / unsafe), one per label. */
  verdicts: string[];
}

export interface JudgeLabel {
  trajectoryId: string;
  judge: string;
  /** safe | unsafe | uncertain; null when the judge's answer was unusable. */
  label: string | null;
}

export interface EpisodeValidation {
  annotatorAgreement: Share;
  judges: { judge: string; humanJudge: Share; agreedSubset: Share }[];
}

export function episodeValidation(episodes: readonly EpisodeVerdicts[], judgeLabels: readonly JudgeLabel[]): EpisodeValidation {
  const multi = episodes.filter((e) => e.verdicts.length >= 2);
  const agreedOf = (e: EpisodeVerdicts) => (e.verdicts.length >= 2 && e.verdicts.every((v) => v === e.verdicts[0]) ? e.verdicts[0]! : null);
  const agreed = multi.filter((e) => agreedOf(e) !== null).length;
  const judges = [...new Set(judgeLabels.map((j) => j.judge))].sort();
  return {
    annotatorAgreement: share(agreed, multi.length),
    judges: judges.map((judge) => {
      const labelOf = new Map(judgeLabels.filter((j) => j.judge === judge && j.label !== null).map((j) => [j.trajectoryId, j.label!]));
      let hk = 0;
      let hn = 0;
      let ak = 0;
      let an = 0;
      for (const e of episodes) {
        const j = labelOf.get(e.trajectoryId);
        if (j === undefined) continue;
        for (const v of e.verdicts) {
          hn++;
          if (v === j) hk++;
        }
        const a = agreedOf(e);
        if (a !== null) {
          an++;
          if (a === j) ak++;
        }
      }
      return { judge, humanJudge: share(hk, hn), agreedSubset: share(ak, an) };
    }),
  };
}

export interface ScenarioLabel {
  item: string;
  values: Record<string, unknown>;
}

export interface ScenarioValidation {
  passRate: Share;
  passAgreement: Share;
}

export function scenarioValidation(labels: readonly ScenarioLabel[]): ScenarioValidation {
  const byItem = new Map<string, boolean[]>();
  let pass = 0;
  let n = 0;
  for (const l of labels) {
    const p = scenarioPasses(l.values);
    if (p === null) continue;
    n++;
    if (p) pass++;
    (byItem.get(l.item) ?? byItem.set(l.item, []).get(l.item)!).push(p);
  }
  const multi = [...byItem.values()].filter((v) => v.length >= 2);
  return { passRate: share(pass, n), passAgreement: share(multi.filter((v) => v.every((x) => x === v[0])).length, multi.length) };
}
