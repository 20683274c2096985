// Panel: emulator quality (server only): per emulator mode and aspect, the share of
// trajectories whose ground-truth severity is not critical ("free of critical issues") and is
// none ("free of any issue"), each with its Wilson interval. "All aspects" uses the worst of the
// three. An aspect whose ground truth is an unadjudicated tie follows the scope's tie policy; for
// "all aspects" the worst severity is a tie only when the ties can change it.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  TieTally,
  emulatorQuality,
  emulatorQualityIntervals,
  shareForm,
  type EmulatorQuality,
  type SensitivityRange,
  type SeverityCounts,
  type TiePolicy,
  type WilsonInterval,
} from "@/lib/metrics";
import type { EmulatorModeValue } from "../filters";
import { analytic, ms } from "./analytic";
import { cached, panelKey, versionProbeSql, type Cached } from "./cache";
import { EMULATOR_ASPECT_KEYS, SEVERITIES, type EmulatorAspectKey, type SeverityValue } from "./fields";
import type { HumanScope } from "./scope";
import { maskLabels } from "./sql";
import { itemTruthSql } from "./item-truth";

export interface EmulatorQualityCell {
  mode: EmulatorModeValue | "ALL";
  aspect: EmulatorAspectKey | "all";
  counts: SeverityCounts;
  quality: EmulatorQuality;
  intervals: { freeOfCritical: WilsonInterval; freeOfAnyIssue: WilsonInterval };
  /** Items whose severity here is an unadjudicated tie, and how many of them were left out. */
  ties: number;
  tiesExcluded: number;
  /** "sensitivity": the exact range of both shares over every resolution of the ties. */
  ranges?: { freeOfCritical: SensitivityRange; freeOfAnyIssue: SensitivityRange };
}

export interface EmulatorQualityReport {
  seed: number;
  ties: TiePolicy;
  modes: (EmulatorModeValue | "ALL")[];
  aspects: (EmulatorAspectKey | "all")[];
  cells: EmulatorQualityCell[];
  /** Items with labels in the scope, and those whose worst severity is an unadjudicated tie. */
  items: number;
  tieItems: number;
  timings: { sqlMs: number; totalMs: number };
}

type Row = { mode: string; e0: string | null; e0_k: number; e1: string | null; e1_k: number; e2: string | null; e2_k: number; n: number };

/** An aspect's possible ground truths: one when decided, the tied labels when a tie, none when unlabelled. */
interface Options {
  seeded: SeverityValue | null;
  possible: SeverityValue[];
}

const rank = (s: SeverityValue) => SEVERITIES.indexOf(s);

function aspectOptions(value: string | null, mask: number): Options {
  const seeded = (value as SeverityValue | null) ?? null;
  if (mask !== 0) return { seeded, possible: maskLabels(SEVERITIES, mask) };
  return { seeded, possible: seeded ? [seeded] : [] };
}

/** The worst severity over the labelled aspects: its seeded value and every value the ties allow. */
function worstOptions(aspects: Options[]): Options {
  const labelled = aspects.filter((a) => a.possible.length > 0);
  if (!labelled.length) return { seeded: null, possible: [] };
  const seeded = labelled.map((a) => a.seeded!).reduce((w, s) => (rank(s) > rank(w) ? s : w));
  let worsts = new Set<SeverityValue>(["none"]);
  for (const a of labelled) {
    const next = new Set<SeverityValue>();
    for (const w of worsts) for (const p of a.possible) next.add(rank(p) > rank(w) ? p : w);
    worsts = next;
  }
  return { seeded, possible: SEVERITIES.filter((s) => worsts.has(s)) };
}

export async function emulatorQualityReport(db: Db, scope: HumanScope): Promise<EmulatorQualityReport> {
  const t0 = performance.now();
  const policy = scope.ties;
  const rows = await analytic<Row[]>(db, Prisma.sql`
    WITH m AS (${itemTruthSql(scope)})
    SELECT m.mode, m.e0, m.e0_k, m.e1, m.e1_k, m.e2, m.e2_k, count(*)::int AS n FROM m GROUP BY 1, 2, 3, 4, 5, 6, 7`);
  const sqlMs = ms(t0);
  const modes = [...new Set(rows.map((r) => r.mode))].sort().reverse() as EmulatorModeValue[];
  const allModes: (EmulatorModeValue | "ALL")[] = modes.length > 1 ? [...modes, "ALL"] : modes;
  const aspects: (EmulatorAspectKey | "all")[] = [...EMULATOR_ASPECT_KEYS, "all"];
  const optionsOf = (r: Row): Record<EmulatorAspectKey | "all", Options> => {
    const per = [aspectOptions(r.e0, r.e0_k), aspectOptions(r.e1, r.e1_k), aspectOptions(r.e2, r.e2_k)];
    return { [EMULATOR_ASPECT_KEYS[0]]: per[0]!, [EMULATOR_ASPECT_KEYS[1]]: per[1]!, [EMULATOR_ASPECT_KEYS[2]]: per[2]!, all: worstOptions(per) } as Record<EmulatorAspectKey | "all", Options>;
  };
  const perRow = rows.map((r) => ({ r, options: optionsOf(r) }));
  const cells: EmulatorQualityCell[] = [];
  for (const mode of allModes) {
    for (const aspect of aspects) {
      // Cells are the severities in their order (rank).
      const tally = new TieTally(policy, SEVERITIES.length);
      for (const { r, options } of perRow) {
        if (mode !== "ALL" && r.mode !== mode) continue;
        const o = options[aspect];
        if (o.possible.length === 0) continue;
        if (o.possible.length === 1) tally.add(r.n, { kind: "decided", label: rank(o.possible[0]!) });
        else tally.add(r.n, { kind: "tie", tiedBetween: o.possible.map(rank) }, rank(o.seeded!));
      }
      const counts: SeverityCounts = { none: tally.counts[0]!, minor: tally.counts[1]!, critical: tally.counts[2]! };
      const { ties, tiesExcluded } = tally;
      const freeOfCritical = tally.range(shareForm(3, [0, 1]));
      const ranges = freeOfCritical ? { freeOfCritical, freeOfAnyIssue: tally.range(shareForm(3, [0]))! } : undefined;
      cells.push({ mode, aspect, counts, quality: emulatorQuality(counts), intervals: emulatorQualityIntervals(counts), ties, tiesExcluded, ...(ranges ? { ranges } : {}) });
    }
  }
  const allRows = perRow.filter((x) => x.options.all.possible.length > 0);
  return {
    seed: scope.seed,
    ties: policy,
    modes: allModes,
    aspects,
    cells,
    items: allRows.reduce((a, x) => a + x.r.n, 0),
    tieItems: allRows.filter((x) => x.options.all.possible.length > 1).reduce((a, x) => a + x.r.n, 0),
    timings: { sqlMs, totalMs: ms(t0) },
  };
}

/** emulatorQualityReport kept per campaign version: depends on the labels only. */
export function emulatorQualityCached(db: Db, scope: HumanScope): Promise<Cached<EmulatorQualityReport>> {
  return cached(db, panelKey("emulatorQuality", scope, {}), versionProbeSql(scope, "none"), () => emulatorQualityReport(db, scope));
}
