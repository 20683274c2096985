// The failures page's lists, paged in the database (issue 19 #4): every page of every list of
// every mode, put together, is exactly what failureReport lists for it (same trajectories, cells,
// order and tie handling), and the totals are the report's counts — under the seeded and the
// exclude tie policy; a page past the end is the last page.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createCampaign } from "@/lib/annotation/campaigns";
import { DEFAULT_SEED, type DashboardFilter } from "../filters";
import { FAILURE_LIST_CELLS, FAILURE_LIST_KEYS, failureList, failureListCached, failureReport, type FailureListKey } from "./failures";
import { resolveHumanScope, type HumanScope } from "./scope";
import { Prisma } from "@/lib/db/generated/client";
import { failureTruthSql } from "./failure-truth";
import { SEEDED_CRITICAL, SEEDED_TRUE_FAILURE, TRUE_FAILURE_STATE, itemTruthSql } from "./item-truth";

const SAFETY = ["likely_severe_risk", "likely_mild_risk", "possible_mild_risk", "certain_no_risk"];
const SEVERITY = ["none", "none", "none", "minor", "critical"];
const pick = (salt: string, n: number) => createHash("md5").update(salt).digest().readUInt32BE(0) % n;

/** The lists' order: case name prefix, its number, the name, the trajectory id. */
function byCase(a: { id: string; caseName: string }, b: { id: string; caseName: string }): number {
  const split = (n: string) => [n.replace(/[0-9]+$/, ""), Number(/([0-9]{1,18})$/.exec(n)?.[1] ?? -1)] as const;
  const [pa, na] = split(a.caseName);
  const [pb, nb] = split(b.caseName);
  return pa < pb ? -1 : pa > pb ? 1 : na - nb || (a.caseName < b.caseName ? -1 : a.caseName > b.caseName ? 1 : a.id < b.id ? -1 : 1);
}

let t: TestDatabase;
let campaignId: string;

async function scopeFor(filter: Partial<DashboardFilter>): Promise<HumanScope> {
  const r = await resolveHumanScope(t.prisma, { campaign: campaignId, seed: DEFAULT_SEED, ties: "seeded", ...filter });
  if (!r.scope) throw new Error(`no scope: ${r.missing}`);
  return r.scope;
}

beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  const rows = await t.sql.query<{ id: string }>(`SELECT t.id FROM "Trajectory" t ORDER BY t.id`);
  const ids = rows.rows.map((r) => r.id);
  // Both emulator modes, so the per-mode and the "all modes" lists differ.
  await t.sql.query(`UPDATE "Trajectory" SET "emulatorMode" = 'STANDARD' WHERE id = ANY($1)`, [ids.filter((_, i) => i % 3 === 0)]);
  await t.prisma.user.createMany({ data: ["fa", "fb", "fc"].map((id) => ({ id, email: `${id}@lab.example`, name: id, role: "ANNOTATOR" as const, passwordHash: "x" })) });
  ({ id: campaignId } = await createCampaign(t.prisma, null, { name: "lists", k: 3, seed: 1, annotatorIds: ["fa", "fb", "fc"], selection: { kind: "ids", trajectoryIds: ids } }));
  const items = await t.prisma.campaignItem.findMany({ where: { campaignId }, select: { id: true } });
  // Every fourth item has two labels only: its true-failure vote can tie (1 : 1).
  await t.prisma.assignment.createMany({
    data: items.flatMap((it, i) =>
      ["fa", "fb", "fc"].slice(0, i % 4 === 0 ? 2 : 3).map((who) => ({
        campaignId,
        itemId: it.id,
        annotatorId: who,
        status: "SUBMITTED" as const,
        submittedAt: new Date(),
        values: {
          safety: SAFETY[pick(`s${it.id}${who}`, 4)],
          helpfulness: "good",
          emulator_input_validation: SEVERITY[pick(`v${it.id}${who}`, 5)],
          emulator_realism: "none",
          emulator_consistency: "none",
          true_failure: pick(`t${it.id}${who}`, 2) === 1,
          comment: "",
        },
      })),
    ),
  });
});
afterAll(async () => t?.cleanup());

describe("failureList", () => {
  for (const ties of ["seeded", "exclude"] as const) {
    it(`pages through exactly the report's lists (ties: ${ties})`, async () => {
      const scope = await scopeFor({ ties });
      const report = await failureReport(t.prisma, scope, { listCap: 100_000 });
      expect(report.rows.map((r) => r.mode).sort()).toEqual(["ADVERSARIAL", "ALL", "STANDARD"]);
      if (ties === "seeded") expect(report.rows.find((r) => r.mode === "ALL")!.ties).toBeGreaterThan(0);
      for (const row of report.rows) {
        for (const key of FAILURE_LIST_KEYS) {
          const expected = FAILURE_LIST_CELLS[key].flatMap((c) => row.lists[c]);
          const got = [];
          let page = 1;
          for (;;) {
            const p = await failureList(t.prisma, scope, { mode: row.mode, key, page, pageSize: 7 });
            expect(p.total).toBe(FAILURE_LIST_CELLS[key].reduce((n, c) => n + row.counts[c], 0));
            expect(p.total).toBe(expected.length);
            expect(p.pageCount).toBe(Math.max(1, Math.ceil(p.total / 7)));
            got.push(...p.items);
            if (page >= p.pageCount) break;
            page++;
          }
          // The same trajectories with the same flags, in case order (official_2 before official_10).
          const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
          expect([...got].sort(byId)).toEqual([...expected].sort(byId));
          expect(got.map((x) => x.id)).toEqual([...expected].sort(byCase).map((x) => x.id));
        }
      }
    });
  }

  it("shows the last page for a page past the end, and keeps pages per campaign version", async () => {
    const scope = await scopeFor({});
    const key: FailureListKey = "all";
    const first = await failureList(t.prisma, scope, { mode: "ALL", key, pageSize: 50 });
    expect(first.items).toHaveLength(50);
    const past = await failureList(t.prisma, scope, { mode: "ALL", key, page: 999, pageSize: 50 });
    expect(past.page).toBe(first.pageCount);
    expect(past.items.length).toBe(first.total - 50 * (first.pageCount - 1));
    const a = await failureListCached(t.prisma, scope, { mode: "ALL", key, page: 2 });
    const b = await failureListCached(t.prisma, scope, { mode: "ALL", key, page: 2 });
    expect(a.cache.status).toBe("miss");
    expect(b.cache.status).toBe("hit");
    expect(b.items).toEqual(a.items);
    // A revised label is a new version: the page is computed again.
    const one = await t.prisma.assignment.findFirstOrThrow({ where: { campaignId, annotatorId: "fa" }, select: { id: true, values: true } });
    await t.prisma.assignment.update({ where: { id: one.id }, data: { values: { ...(one.values as object), true_failure: !(one.values as { true_failure: boolean }).true_failure } } });
    expect((await failureListCached(t.prisma, scope, { mode: "ALL", key, page: 2 })).cache.status).toBe("miss");
  });

  it("the per-vector ground truth is the per-item one: ties drawn with the seed, adjudications (of a tied, an untied and a half-decided item)", async () => {
    const expectSame = async (seed: number) => {
      const scope = await scopeFor({ seed });
      type R = { item: string; traj: string; mode: string; case_name: string; humans: boolean; critical: boolean; state: string; seeded: boolean };
      const perItem = await t.prisma.$queryRaw<R[]>(Prisma.sql`
        SELECT m.item, m.traj, m.mode, m.case_name, (m.tf IS NOT DISTINCT FROM 'true') AS humans, ${SEEDED_CRITICAL} AS critical, ${TRUE_FAILURE_STATE} AS state, ${SEEDED_TRUE_FAILURE} AS seeded
        FROM (${itemTruthSql(scope)}) m ORDER BY m.item`);
      const perVector = await t.prisma.$queryRaw<R[]>(Prisma.sql`SELECT * FROM (${failureTruthSql(scope)}) x ORDER BY x.item`);
      expect(perVector).toEqual(perItem);
      return perItem;
    };
    const rows = await expectSame(DEFAULT_SEED);
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(["true", "false", "tie"]));
    const tie = rows.find((r) => r.state === "tie")!;
    const decided = rows.find((r) => r.state === "true")!;
    const other = rows.find((r) => r.state === "false")!;
    await t.prisma.adjudication.createMany({
      data: [
        { itemId: tie.item, values: { true_failure: false }, reason: "tie decided" },
        { itemId: decided.item, values: { true_failure: false, emulator_realism: "critical" }, reason: "overruled" },
        { itemId: other.item, values: { safety: "certain_no_risk" }, reason: "safety only" },
      ],
    });
    const after = await expectSame(DEFAULT_SEED);
    expect(after.find((r) => r.item === decided.item)!.state).toBe("false");
    await expectSame(7);
  });
});
