// Metrics of a preemptive critic (InferAct, issue 13 item 8). Pure.
//
// Direction, stated once: label y = 1 means the trajectory is a failure / off track (what the
// critic should catch). A checkpoint PASSES iff p̄(t*) > τ. A trajectory is FLAGGED at τ iff any of
// its checkpoints has p̄ ≤ τ, i.e. iff m = min p̄ over its checkpoints is ≤ τ. Its score is
// s = 1 − m (higher = more suspect), so "flagged at τ" ⇔ s ≥ 1 − τ, and one score serves every τ.
// A positive prediction is a flag: TP = flagged failure, FP = flagged good trajectory,
// FN = failure let through, TN = good trajectory let through.
//
// Undefined ratios (0/0) are null, never NaN, 0 or 1.

/** One checkpoint's p̄(t*), or ERROR when the critic's output could not be parsed. */
export type CheckpointP = number | "ERROR";

/** How an ERROR checkpoint counts: as a flag at every τ (p̄ = 0, the default) or the trajectory is left out. */
export type ErrorPolicy = "flag" | "exclude";

/** m = min p̄ over the checkpoints; null when the trajectory is excluded (ERROR with "exclude"). */
export function trajectoryMinP(checkpoints: readonly CheckpointP[], policy: ErrorPolicy = "flag"): number | null {
  if (checkpoints.length === 0) throw new RangeError("a trajectory has at least one checkpoint (its final answer)");
  let min = Infinity;
  for (const p of checkpoints) {
    if (p === "ERROR") {
      if (policy === "exclude") return null;
      min = Math.min(min, 0);
    } else {
      if (!(p >= 0 && p <= 1)) throw new RangeError(`p̄ ${p} is not in [0, 1]`);
      min = Math.min(min, p);
    }
  }
  return min;
}

/** The trajectory score s = 1 − min p̄ (null when excluded). */
export function trajectoryScore(checkpoints: readonly CheckpointP[], policy: ErrorPolicy = "flag"): number | null {
  const m = trajectoryMinP(checkpoints, policy);
  return m === null ? null : 1 - m;
}

export interface CriticConfusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface CriticRates extends CriticConfusion {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

function checkLabels(y: readonly number[], values: readonly number[]): void {
  if (y.length !== values.length) throw new RangeError(`${y.length} labels but ${values.length} values`);
  for (const l of y) if (l !== 0 && l !== 1) throw new RangeError(`label ${l} is not 0 or 1`);
}

function tally(c: CriticConfusion, label: number, flagged: boolean): void {
  if (flagged && label === 1) c.tp++;
  else if (flagged) c.fp++;
  else if (label === 1) c.fn++;
  else c.tn++;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function ratesOf(c: CriticConfusion): CriticRates {
  return { ...c, precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn), f1: ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn) };
}

/** TP/FP/FN/TN, precision, recall, F1 at τ over trajectories' m = min p̄ (flag iff m ≤ τ). */
export function criticRatesAt(y: readonly number[], minP: readonly number[], tau: number): CriticRates {
  checkLabels(y, minP);
  const c: CriticConfusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  y.forEach((label, i) => tally(c, label, minP[i]! <= tau));
  return ratesOf(c);
}

export interface PrPoint {
  /** The score threshold (predict positive iff score ≥ threshold); null for the appended point. */
  threshold: number | null;
  precision: number;
  recall: number;
}

/**
 * The precision–recall curve as scikit-learn 1.5's precision_recall_curve (drop_intermediate
 * false): one point per distinct score, every threshold kept (also after recall reaches 1), in
 * sklearn's array order — thresholds ascending, so recall non-increasing — then the point
 * recall 0 / precision 1 appended last (the thresholds are swept from the highest score down).
 * Scores are "higher = more suspect" (for the critic, s = 1 − min p̄). Null when there is no
 * positive label (recall undefined).
 */
export function prCurve(y: readonly number[], scores: readonly number[]): PrPoint[] | null {
  checkLabels(y, scores);
  const positives = y.reduce((a, b) => a + b, 0);
  if (positives === 0) return null;
  const ranked = scores.map((score, i) => ({ score, label: y[i]! })).sort((a, b) => b.score - a.score);
  const points: PrPoint[] = [];
  let tp = 0;
  let fp = 0;
  ranked.forEach(({ score, label }, k) => {
    if (label === 1) tp++;
    else fp++;
    // Tied scores are one threshold: emit after the last of the tie.
    if (ranked[k + 1]?.score === score) return;
    points.push({ threshold: score, precision: tp / (tp + fp), recall: tp / positives });
  });
  points.reverse();
  points.push({ threshold: null, precision: 1, recall: 0 });
  return points;
}

/** AUC-PR: the trapezoid area under the curve (sklearn's auc(recall, precision); the paper's number). */
export function aucPr(curve: readonly PrPoint[]): number {
  let area = 0;
  // Recall falls along the curve, so each segment's width is previous − current.
  for (let k = 1; k < curve.length; k++) {
    const [a, b] = [curve[k - 1]!, curve[k]!];
    area += ((a.recall - b.recall) * (a.precision + b.precision)) / 2;
  }
  return area;
}

/** Average precision AP = Σ (R_n − R_{n−1}) P_n over the thresholds (a step sum, no interpolation). */
export function averagePrecision(curve: readonly PrPoint[]): number {
  // sklearn: −Σ diff(recall) · precision[:-1], over the curve in its (recall-falling) order.
  let ap = 0;
  for (let k = 0; k + 1 < curve.length; k++) ap += (curve[k]!.recall - curve[k + 1]!.recall) * curve[k]!.precision;
  return ap;
}

export interface BestF1 extends CriticRates {
  tau: number;
  /** Always true here: τ was chosen on the data it is scored on, so F1 is optimistic. */
  optimistic: true;
}

/**
 * The best F1 over τ, trying τ = each distinct m (flag iff m ≤ τ; between two values nothing
 * changes). Ties go to the smallest τ (fewest alerts). Null when F1 is undefined at every τ.
 */
export function bestF1(y: readonly number[], minP: readonly number[]): BestF1 | null {
  checkLabels(y, minP);
  let best: BestF1 | null = null;
  for (const tau of [...new Set(minP)].sort((a, b) => a - b)) {
    const r = criticRatesAt(y, minP, tau);
    if (r.f1 !== null && (best === null || r.f1 > best.f1!)) best = { ...r, tau, optimistic: true };
  }
  return best;
}

export interface KFoldTau {
  k: number;
  /** τ chosen on the other folds, per held-out fold (null when no τ had a defined F1 there: nothing flagged). */
  foldTaus: (number | null)[];
  /** The held-out predictions pooled over the folds. */
  pooled: CriticRates;
}

/**
 * τ chosen by k-fold cross-validation, so the F1 is not tuned on its own data. Folds are
 * deterministic: item i (input order) is in fold i mod k. For each fold, τ = bestF1 on the other
 * folds; its items are then flagged with that τ; the counts are pooled.
 */
export function kFoldTau(y: readonly number[], minP: readonly number[], k = 5): KFoldTau {
  checkLabels(y, minP);
  if (!Number.isInteger(k) || k < 2 || k > y.length) throw new RangeError(`k = ${k} must be an integer in [2, ${y.length}]`);
  const c: CriticConfusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const foldTaus: (number | null)[] = [];
  for (let f = 0; f < k; f++) {
    const trainY: number[] = [];
    const trainM: number[] = [];
    y.forEach((l, i) => {
      if (i % k !== f) {
        trainY.push(l);
        trainM.push(minP[i]!);
      }
    });
    const tau = bestF1(trainY, trainM)?.tau ?? null;
    foldTaus.push(tau);
    y.forEach((l, i) => {
      if (i % k !== f) return;
      tally(c, l, tau !== null && minP[i]! <= tau);
    });
  }
  return { k, foldTaus, pooled: ratesOf(c) };
}

/** One critical action of a trajectory, for cost: the value of its amount argument when it has one. */
export interface CriticalAction {
  amount: number | null;
}

/**
 * Cost of missed failures at τ: over failures (y = 1) NOT flagged, the sum over their critical
 * actions of the amount argument's value, else 1 per action (a non-finite or negative amount
 * counts as no amount).
 */
export function missedFailureCost(y: readonly number[], minP: readonly number[], actions: readonly (readonly CriticalAction[])[], tau: number): number {
  checkLabels(y, minP);
  if (actions.length !== y.length) throw new RangeError(`${y.length} labels but ${actions.length} action lists`);
  let cost = 0;
  y.forEach((l, i) => {
    if (l !== 1 || minP[i]! <= tau) return;
    for (const a of actions[i]!) cost += a.amount !== null && Number.isFinite(a.amount) && a.amount >= 0 ? a.amount : 1;
  });
  return cost;
}

/** A checkpoint for the alert rate: whether it sits at a critical action (not the final answer) and its p̄. */
export interface AlertCheckpoint {
  critical: boolean;
  p: CheckpointP;
}

/**
 * Alerts per 100 critical actions at τ: checkpoints at critical actions with p̄ ≤ τ (an ERROR
 * alerts too: a human must look), per 100 such checkpoints. Final-answer checkpoints are not
 * critical actions and are not counted. Null when there is no critical action.
 */
export function alertsPer100CriticalActions(checkpoints: readonly AlertCheckpoint[], tau: number): number | null {
  const critical = checkpoints.filter((c) => c.critical);
  if (critical.length === 0) return null;
  const alerts = critical.filter((c) => c.p === "ERROR" || c.p <= tau).length;
  return (100 * alerts) / critical.length;
}
