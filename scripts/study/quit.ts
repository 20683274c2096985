// Quit-agent study (not a test): the 144 shared ToolEmu cases played by the offline model as the
// naive agent and as the two quit variants, each episode scored by the offline evaluators. Prints,
// per variant, mean safety and mean helpfulness (0–3) with n, the quit rate, and the change from
// the naive agent — the figures a public replication reports for real models (mean safety +0.39,
// helpfulness −0.03 across 12 models with quitting allowed). The offline model is a heuristic,
// not an LLM: its numbers check the plumbing and the rules, they say nothing about real models.
//
//   npm run study:quit -- [--pg <postgresql url>] [--mode STANDARD|ADVERSARIAL] [--concurrency 8]
import path from "node:path";
import { createTestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { runImport } from "@/lib/toolemu/import";
import { createModelClient } from "@/lib/llm/client";
import { ensureOfflineEndpoint } from "@/lib/llm/endpoints";
import { startOfflineModel } from "@/lib/offline/server";
import { runEpisode } from "@/lib/engine/episode";
import { isQuit } from "@/lib/emulation/quit";
import type { AgentVariant, EmulatorModeValue } from "@/lib/trajectory/types";
import { parseArgs, stringFlag } from "../lib/args";

const args = parseArgs(process.argv.slice(2));
const PG = stringFlag(args, "pg");
if (PG) process.env.TEST_DATABASE_URL = PG;
const MODE = (stringFlag(args, "mode") ?? "STANDARD") as EmulatorModeValue;
const CONCURRENCY = Number(stringFlag(args, "concurrency") ?? 8);
const VARIANTS: AgentVariant[] = ["NAIVE", "QUIT_SIMPLE", "QUIT_SPECIFIED"];

async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

async function main() {
  const t = await createTestDatabase();
  const llm = await startOfflineModel({ faults: "" });
  try {
    await runImport(t.prisma, [path.join(sharedDataDir(), "toolemu")]);
    const endpoint = await ensureOfflineEndpoint(t.prisma, llm.url);
    const client = createModelClient(endpoint, { db: t.prisma });
    const cases = await t.prisma.testCase.findMany({ select: { id: true }, orderBy: { name: "asc" } });
    const jobs = VARIANTS.flatMap((variant) => cases.map((c) => ({ variant, caseId: c.id })));
    let done = 0;
    await pool(jobs, CONCURRENCY, async ({ variant, caseId }) => {
      await runEpisode(t.prisma, { caseId, agent: { client, variant }, emulator: { client, mode: MODE }, evaluator: { client }, seed: 1 });
      if (++done % 48 === 0) process.stderr.write(`${done} / ${jobs.length} episodes\n`);
    });
    const rows = await t.prisma.trajectory.findMany({ select: { agentVariant: true, finalAnswer: true, stopReason: true, evaluations: { select: { kind: true, score: true } } } });
    const stat = (v: string) => {
      const ts = rows.filter((r) => r.agentVariant === v);
      const scores = (k: string) => ts.flatMap((r) => r.evaluations.filter((e) => e.kind === k && e.score !== null).map((e) => e.score!));
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const s = scores("SAFETY");
      const h = scores("HELPFULNESS");
      const quits = ts.filter((r) => r.stopReason === "quit" || isQuit(r.finalAnswer)).length;
      return { n: ts.length, safety: mean(s), nS: s.length, helpfulness: mean(h), nH: h.length, quits };
    };
    const base = stat("NAIVE");
    console.log(`offline model (heuristic, not an LLM), ${cases.length} cases, ${MODE} emulator, database ${PG ? "PostgreSQL" : "embedded"}`);
    console.log("variant          episodes  quit rate   mean safety (n)    mean helpfulness (n)   Δ safety  Δ helpfulness");
    for (const v of VARIANTS) {
      const r = stat(v);
      const d = (x: number, y: number) => (v === "NAIVE" ? "" : `${x - y >= 0 ? "+" : ""}${(x - y).toFixed(2)}`);
      console.log(
        `${v.padEnd(16)} ${String(r.n).padStart(8)}  ${((100 * r.quits) / r.n).toFixed(1).padStart(7)} %   ${r.safety.toFixed(2)} (${r.nS})`.padEnd(68) +
          `${r.helpfulness.toFixed(2)} (${r.nH})`.padEnd(23) + `${d(r.safety, base.safety).padStart(8)}  ${d(r.helpfulness, base.helpfulness).padStart(12)}`,
      );
    }
  } finally {
    await llm.close();
    await t.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
