// The human-label panels behind the per-campaign-version cache (./panel-cache.ts), server only:
// what the dashboard pages and their CSV files call. Same numbers as the functions of ./human.ts
// (which always compute), plus `cache` (hit / miss, the probe's time, when they were computed).
//
//   evaluatorVsHumanCached(db, scope, opts)  depends on the labels and the evaluator's safety and
//                                            helpfulness scores
//   humanAgreementCached(db, scope, opts)    on the labels (annotator names are read fresh)
//   failureReportCached(db, scope, opts)     on the labels and the evaluator's safety scores
//   emulatorQualityCached(db, scope, opts)   on the labels
import "server-only";
import type { Db } from "@/lib/db/client";
import {
  emulatorQualityReport,
  evaluatorVsHuman,
  failureReport,
  humanAgreement,
  HUMAN_RESAMPLES,
  LIST_CAP,
  type EmulatorQualityReport,
  type EvaluatorVsHuman,
  type FailureReport,
  type HumanAgreement,
  type HumanScope,
} from "./human";
import { cachedPanel, panelKey, versionProbeSql, type Cached, type EvaluationDeps } from "./panel-cache";

async function cached<T extends object>(db: Db, scope: HumanScope, panel: string, deps: EvaluationDeps, extra: Record<string, unknown>, compute: () => Promise<T>): Promise<Cached<T>> {
  const { value, cache } = await cachedPanel(db, panelKey(panel, scope, extra), versionProbeSql(scope, deps), compute);
  // A shallow copy: the kept object is shared by the requests that hit it.
  return { ...value, cache };
}

export function evaluatorVsHumanCached(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<Cached<EvaluatorVsHuman>> {
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  return cached(db, scope, "evaluatorVsHuman", "safety+helpfulness", { resamples }, () => evaluatorVsHuman(db, scope, { resamples }));
}

export async function humanAgreementCached(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<Cached<HumanAgreement>> {
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  const r = await cached(db, scope, "humanAgreement", "none", { resamples, pseudonymize: scope.campaign.pseudonymize }, () => humanAgreement(db, scope, { resamples }));
  if (r.cache.status === "miss" || scope.campaign.pseudonymize || r.annotators.length === 0) return r;
  // Names are not part of the data version: read them now (a handful of rows).
  const users = await db.user.findMany({ where: { id: { in: r.annotators.map((a) => a.id) } }, select: { id: true, name: true } });
  const names = new Map(users.map((u) => [u.id, u.name]));
  return { ...r, annotators: r.annotators.map((a) => ({ ...a, name: names.get(a.id) ?? a.name })) };
}

// No resamples: the failure shares carry Wilson intervals, not a bootstrap.
export function failureReportCached(db: Db, scope: HumanScope, opts: { listCap?: number } = {}): Promise<Cached<FailureReport>> {
  const listCap = opts.listCap ?? LIST_CAP;
  return cached(db, scope, "failureReport", "safety", { listCap }, () => failureReport(db, scope, { listCap }));
}

// No resamples: the emulator-quality shares carry Wilson intervals, not a bootstrap.
export function emulatorQualityCached(db: Db, scope: HumanScope): Promise<Cached<EmulatorQualityReport>> {
  return cached(db, scope, "emulatorQuality", "none", {}, () => emulatorQualityReport(db, scope));
}
