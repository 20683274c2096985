// Evaluating a preemptive critic against one label source (InferAct, issue 13 item 8). Pure: the
// critic dashboard runs it on the server for its table and in the browser for the τ slider.
//
// Direction as in ./critic.ts: y = 1 means the trajectory is a failure (what the critic should
// catch); a checkpoint passes iff p̄ > τ; a trajectory is flagged at τ iff its min p̄ ≤ τ.
//
//   EvalTrajectory        one trajectory: its label y and its checkpoints (p̄ or null = ERROR,
//                         critical = at a critical action rather than the final answer, amount)
//   prepareCritic(items, policy)             the trajectories the ERROR policy keeps, with m = min p̄
//   criticAtTau(items, τ, policy)            confusion, P/R/F1, cost of missed failures, alerts / 100
//   criticCurve(items, policy)               PR curve (scikit-learn 1.5), AUC-PR, AP
//   criticBootstrap(items, τ, policy, opts)  percentile CIs of P, R, F1, AUC-PR (resampling trajectories)
//   evaluateCritic(items, opts)              all of the above + best F1 (optimistic) + k-fold τ
//   calibrationBins(items, bins)             reliability of m: per bin mean m vs share on track
//   successOverTrials(chains, maxN)          share of chains that succeeded within N feedback rounds
//
// ERROR policy: "flag" (default) counts an unparsable checkpoint as p̄ = 0 (flagged at every τ, and
// an alert when it is at a critical action); "exclude" leaves the trajectory out of every number
// (counted as `excluded`). Undefined ratios are null, never NaN.

import { bootstrapMany, type BootstrapOptions, type PercentileInterval, type WilsonInterval } from "./bootstrap";
import {
  alertsPer100CriticalActions,
  aucPr,
  averagePrecision,
  bestF1,
  criticRatesAt,
  kFoldTau,
  missedFailureCost,
  prCurve,
  trajectoryMinP,
  type BestF1,
  type CheckpointP,
  type CriticRates,
  type ErrorPolicy,
  type KFoldTau,
  type PrPoint,
} from "./critic";
import { wilsonInterval } from "./wilson";

export const ERROR_POLICIES = ["flag", "exclude"] as const satisfies readonly ErrorPolicy[];
export const DEFAULT_ERROR_POLICY: ErrorPolicy = "flag";
export const ERROR_POLICY_NAMES: Record<ErrorPolicy, string> = {
  flag: "ERROR flags (p̄ = 0)",
  exclude: "ERROR excluded",
};

/** One checkpoint: p̄ (null = ERROR), at a critical action (false: the final answer), the amount argument's value. */
export interface EvalCheckpoint {
  p: number | null;
  critical: boolean;
  amount: number | null;
}

export interface EvalTrajectory {
  /** 1 = failure per the label source. */
  y: 0 | 1;
  checkpoints: readonly EvalCheckpoint[];
}

export interface PreparedCritic {
  y: number[];
  /** m = min p̄ per kept trajectory (ERROR counted 0 under "flag"). */
  minP: number[];
  kept: EvalTrajectory[];
  /** Trajectories left out by "exclude" (they have an ERROR checkpoint). */
  excluded: number;
  /** Trajectories with at least one ERROR checkpoint, and the ERROR checkpoints, before the policy. */
  errorTrajectories: number;
  errorCheckpoints: number;
}

const asP = (c: EvalCheckpoint): CheckpointP => (c.p === null ? "ERROR" : c.p);

export function prepareCritic(items: readonly EvalTrajectory[], policy: ErrorPolicy = DEFAULT_ERROR_POLICY): PreparedCritic {
  const out: PreparedCritic = { y: [], minP: [], kept: [], excluded: 0, errorTrajectories: 0, errorCheckpoints: 0 };
  for (const item of items) {
    const errors = item.checkpoints.filter((c) => c.p === null).length;
    out.errorCheckpoints += errors;
    if (errors > 0) out.errorTrajectories++;
    const m = trajectoryMinP(item.checkpoints.map(asP), policy);
    if (m === null) {
      out.excluded++;
      continue;
    }
    out.y.push(item.y);
    out.minP.push(m);
    out.kept.push(item);
  }
  return out;
}

export interface CriticAtTau extends CriticRates {
  tau: number;
  /** Trajectories counted (after the ERROR policy). */
  n: number;
  excluded: number;
  /** Cost of missed failures: Σ over unflagged failures of their critical actions' amounts (1 without one). */
  missedCost: number;
  /** Checkpoints at critical actions with p̄ ≤ τ (or ERROR), over the kept trajectories. */
  alerts: number;
  criticalActions: number;
  /** 100 · alerts / critical actions; null without a critical action. */
  alertsPer100: number | null;
}

function atTau(p: PreparedCritic, tau: number): CriticAtTau {
  const rates = criticRatesAt(p.y, p.minP, tau);
  const actions = p.kept.map((t) => t.checkpoints.filter((c) => c.critical).map((c) => ({ amount: c.amount })));
  const checkpoints = p.kept.flatMap((t) => t.checkpoints.map((c) => ({ critical: c.critical, p: asP(c) })));
  const critical = checkpoints.filter((c) => c.critical);
  return {
    ...rates,
    tau,
    n: p.y.length,
    excluded: p.excluded,
    missedCost: missedFailureCost(p.y, p.minP, actions, tau),
    alerts: critical.filter((c) => c.p === "ERROR" || c.p <= tau).length,
    criticalActions: critical.length,
    alertsPer100: alertsPer100CriticalActions(checkpoints, tau),
  };
}

/** Confusion, P/R/F1, cost and alert rate at τ (what the slider shows). */
export function criticAtTau(items: readonly EvalTrajectory[], tau: number, policy: ErrorPolicy = DEFAULT_ERROR_POLICY): CriticAtTau {
  if (!(tau >= 0 && tau <= 1)) throw new RangeError(`τ = ${tau} is not in [0, 1]`);
  return atTau(prepareCritic(items, policy), tau);
}

export interface CriticCurve {
  /** Scores s = 1 − m; the curve in scikit-learn's order (recall falling), the point (0, 1) last. */
  points: PrPoint[];
  aucPr: number;
  ap: number;
}

function curveOf(y: readonly number[], minP: readonly number[]): CriticCurve | null {
  const points = prCurve(y, minP.map((m) => 1 - m));
  return points ? { points, aucPr: aucPr(points), ap: averagePrecision(points) } : null;
}

/** The PR curve with AUC-PR and AP; null when no kept trajectory is a failure. */
export function criticCurve(items: readonly EvalTrajectory[], policy: ErrorPolicy = DEFAULT_ERROR_POLICY): CriticCurve | null {
  const p = prepareCritic(items, policy);
  return curveOf(p.y, p.minP);
}

export interface CriticIntervals {
  precision: PercentileInterval;
  recall: PercentileInterval;
  f1: PercentileInterval;
  aucPr: PercentileInterval;
}

function bootstrapPrepared(p: PreparedCritic, tau: number, options: BootstrapOptions): CriticIntervals {
  const pairs = p.y.map((y, i) => ({ y, m: p.minP[i]! }));
  const rates = (s: readonly { y: number; m: number }[]) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const { y, m } of s) {
      if (m <= tau) {
        if (y === 1) tp++;
        else fp++;
      } else if (y === 1) fn++;
    }
    return { tp, fp, fn };
  };
  const orUndef = (a: number, b: number) => (b === 0 ? undefined : a / b);
  return bootstrapMany(
    pairs,
    {
      precision: (s) => {
        const r = rates(s);
        return orUndef(r.tp, r.tp + r.fp);
      },
      recall: (s) => {
        const r = rates(s);
        return orUndef(r.tp, r.tp + r.fn);
      },
      f1: (s) => {
        const r = rates(s);
        return orUndef(2 * r.tp, 2 * r.tp + r.fp + r.fn);
      },
      aucPr: (s) => curveOf(s.map((x) => x.y), s.map((x) => x.m))?.aucPr,
    },
    options,
  );
}

/**
 * Percentile bootstrap CIs of precision, recall and F1 at τ and of AUC-PR: B resamples of the kept
 * trajectories (with replacement, seeded mulberry32 — the same resamples for the four), a
 * statistic undefined on a resample (no flag, no failure) is skipped and counted.
 */
export function criticBootstrap(items: readonly EvalTrajectory[], tau: number, policy: ErrorPolicy, options: BootstrapOptions): CriticIntervals {
  return bootstrapPrepared(prepareCritic(items, policy), tau, options);
}

export interface CriticEvaluation {
  atTau: CriticAtTau;
  curve: CriticCurve | null;
  /** Best F1 over τ, tuned on the same data: optimistic. */
  best: BestF1 | null;
  /** τ chosen by k-fold cross-validation (k = min(5, n)); null below 2 trajectories. */
  kFold: KFoldTau | null;
  intervals: CriticIntervals;
  positives: number;
  errorTrajectories: number;
  errorCheckpoints: number;
}

export interface EvaluateCriticOptions extends BootstrapOptions {
  tau: number;
  policy?: ErrorPolicy;
  /** Folds of the k-fold τ (default 5, lowered to n when fewer trajectories). */
  folds?: number;
}

export function evaluateCritic(items: readonly EvalTrajectory[], opts: EvaluateCriticOptions): CriticEvaluation {
  if (!(opts.tau >= 0 && opts.tau <= 1)) throw new RangeError(`τ = ${opts.tau} is not in [0, 1]`);
  const p = prepareCritic(items, opts.policy ?? DEFAULT_ERROR_POLICY);
  const k = Math.min(opts.folds ?? 5, p.y.length);
  return {
    atTau: atTau(p, opts.tau),
    curve: curveOf(p.y, p.minP),
    best: bestF1(p.y, p.minP),
    kFold: k >= 2 ? kFoldTau(p.y, p.minP, k) : null,
    intervals: bootstrapPrepared(p, opts.tau, opts),
    positives: p.y.reduce((a, b) => a + b, 0),
    errorTrajectories: p.errorTrajectories,
    errorCheckpoints: p.errorCheckpoints,
  };
}

export interface CalibrationBin {
  /** [lower, upper) of m; the last bin includes 1. */
  lower: number;
  upper: number;
  n: number;
  /** Mean m of the bin's trajectories (null when empty). */
  meanP: number | null;
  onTrack: number;
  /** Share of the bin's trajectories on track (y = 0); null when empty. */
  share: number | null;
  interval: WilsonInterval;
}

export interface Calibration {
  bins: CalibrationBin[];
  /** Trajectories binned (every checkpoint parsed). */
  n: number;
  /** Left out: a checkpoint is ERROR (no probability to calibrate). */
  errors: number;
  /** Expected calibration error Σ n_b / n · |mean m_b − share_b|; null when n = 0. */
  ece: number | null;
}

/**
 * Reliability of m = min p̄ as the probability that the trajectory is on track (y = 0): equal-width
 * bins of m, per bin the mean m and the share on track with its Wilson interval. Trajectories with
 * an ERROR checkpoint have no probability and are left out (whatever the ERROR policy).
 */
export function calibrationBins(items: readonly EvalTrajectory[], bins = 10): Calibration {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bins = ${bins} must be a positive integer`);
  const acc = Array.from({ length: bins }, () => ({ n: 0, sum: 0, onTrack: 0 }));
  let errors = 0;
  for (const item of items) {
    const m = trajectoryMinP(item.checkpoints.map(asP), "exclude");
    if (m === null) {
      errors++;
      continue;
    }
    const b = acc[Math.min(bins - 1, Math.floor(m * bins))]!;
    b.n++;
    b.sum += m;
    if (item.y === 0) b.onTrack++;
  }
  const n = acc.reduce((a, b) => a + b.n, 0);
  const out: CalibrationBin[] = acc.map((b, i) => ({
    lower: i / bins,
    upper: (i + 1) / bins,
    n: b.n,
    meanP: b.n ? b.sum / b.n : null,
    onTrack: b.onTrack,
    share: b.n ? b.onTrack / b.n : null,
    interval: wilsonInterval(b.onTrack, b.n),
  }));
  const ece = n ? out.reduce((a, b) => a + (b.n ? (b.n / n) * Math.abs(b.meanP! - b.share!) : 0), 0) : null;
  return { bins: out, n, errors, ece };
}

/** One attempt of a chain of trials: its trial number (1, 2, …) and whether it succeeded (null: no label). */
export interface TrialAttempt {
  trial: number;
  success: boolean | null;
}

export interface TrialsPoint {
  /** Feedback rounds N: the chain's first N + 1 trials count. */
  n: number;
  chains: number;
  successes: number;
  share: number | null;
  interval: WilsonInterval;
  /** Chains that actually ran a trial N + 1. */
  reached: number;
}

export interface SuccessOverTrials {
  points: TrialsPoint[];
  /** Chains left out because a trial has no label. */
  unlabelled: number;
}

/**
 * Success over trials N = 0..maxN (InferAct's figure): a chain succeeded by N when one of its
 * trials 1 … N + 1 succeeded (a chain that stopped earlier keeps its result: it needed no more
 * feedback, or got none). Every chain counts at every N; chains with an unlabelled trial are left
 * out and counted.
 */
export function successOverTrials(chains: readonly (readonly TrialAttempt[])[], maxN = 3): SuccessOverTrials {
  const kept = chains.filter((c) => c.length > 0 && c.every((a) => a.success !== null));
  const points: TrialsPoint[] = [];
  for (let n = 0; n <= maxN; n++) {
    const successes = kept.filter((c) => c.some((a) => a.trial <= n + 1 && a.success)).length;
    const reached = kept.filter((c) => c.some((a) => a.trial === n + 1)).length;
    points.push({ n, chains: kept.length, successes, share: kept.length ? successes / kept.length : null, interval: wilsonInterval(successes, kept.length), reached });
  }
  return { points, unlabelled: chains.length - kept.length };
}
