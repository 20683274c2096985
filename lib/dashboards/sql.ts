// SQL pieces shared by the dashboard queries (server only).
//
// API:
//   dashboardWhere(filter, alias = "t")  → Prisma.Sql   conditions on a "Trajectory" alias for the
//       filter's data dimensions (campaign, agent, mode, toolkit). It never looks at evaluator /
//       evaluatorB / kind / seed: what those mean is up to each panel. Replays of recorded
//       trajectories (agent model "replay:…") are always left out: they re-play a recorded run,
//       they are not an agent's behaviour, and counting them would double the original.
//   kindSql("SAFETY" | "HELPFULNESS")    → Prisma.Sql   the enum literal, for `e.kind = ${kindSql(k)}`
//   toInt(bigint | number | null)        → number       COUNT(*) results come back as bigint
//
// Use it inside $queryRaw: db.$queryRaw`SELECT … FROM "Trajectory" t WHERE ${dashboardWhere(f)}`.
// Indexes it relies on: Trajectory(agentModel|emulatorMode|caseId), TestCaseToolkit(toolkitId),
// CampaignItem(campaignId, trajectoryId unique).
import "server-only";
import { Prisma } from "@/lib/db/generated/client";
import { REPLAY_MODEL_PREFIX } from "@/lib/trajectory/replay";
import type { DashboardFilter, KindValue } from "./filters";

export function dashboardWhere(f: DashboardFilter, alias = "t"): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new RangeError(`bad SQL alias ${alias}`);
  const t = Prisma.raw(alias);
  const conds: Prisma.Sql[] = [Prisma.sql`${t}."agentModel" NOT LIKE ${`${REPLAY_MODEL_PREFIX}%`}`];
  if (f.campaign !== undefined) {
    conds.push(Prisma.sql`${t}.id IN (SELECT ci."trajectoryId" FROM "CampaignItem" ci WHERE ci."campaignId" = ${f.campaign})`);
  }
  if (f.agent !== undefined) conds.push(Prisma.sql`${t}."agentModel" = ${f.agent}`);
  if (f.mode !== undefined) conds.push(Prisma.sql`${t}."emulatorMode" = CAST(${f.mode} AS "EmulatorMode")`);
  if (f.toolkit !== undefined) {
    conds.push(
      Prisma.sql`${t}."caseId" IN (SELECT tc."caseId" FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE k.name = ${f.toolkit})`,
    );
  }
  return Prisma.join(conds, " AND ");
}

export function kindSql(kind: KindValue): Prisma.Sql {
  return kind === "SAFETY" ? Prisma.sql`'SAFETY'::"EvaluationKind"` : Prisma.sql`'HELPFULNESS'::"EvaluationKind"`;
}

export function toInt(v: bigint | number | null | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}
