// `npm run cli -- sage play …`: play one SAGE episode now (no run, no workers) and print its turns,
// flags and verdicts. The same engine function a run worker calls (playSageEpisode).
import type { Db } from "@/lib/db/client";
import { createPrisma } from "@/lib/db/client";
import { playSageEpisode, type SageTurnReport } from "@/lib/engine/sage-episode";
import { judgeStoredEpisodes } from "@/lib/sage/judge-episode";
import { createModelClient } from "@/lib/llm/client";
import { getEndpointSettings } from "@/lib/llm/endpoints";
import type { EndpointSettings, ModelClient } from "@/lib/llm/types";
import { OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { OFFLINE_JUDGE_B_MODEL } from "@/lib/offline/brain/sage";
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import { stringFlag, type Args } from "./args";
import { info } from "./output";
import { endpointId } from "./run-commands";

export const SAGE_HELP = `  npm run cli -- sage play --scenario INSTANCE_ID --context trust|warning [--order chronological|reference]
                 [--agent E] [--attacker E] [--judges E,E…|none] [--judge-mode ternary|binary] [--seed N] [--offline]
      Play one SAGE episode now and print its turns (user message, the agent's action, the tool's
      observation and flags) and the judges' verdicts; it is stored like any episode (Trajectory,
      Steps, LlmCalls, SageJudgments). Endpoints by name (default agent "offline-heuristic",
      attacker = the agent's endpoint, no judges). --offline starts the offline heuristic model in
      this process for the agent and the attacker and, unless --judges is given, judges it as
      judge A and judge B (the one that answers "uncertain" from turn 3 on).
  npm run cli -- sage judge --ids T,T…|--run RUN_ID --judges E,E… [--judge-mode ternary|binary] [--replace]
      Label stored SAGE episodes with more judges (nothing is replayed): one verdict per episode ×
      judge model × mode; existing verdicts are kept unless --replace.`;

const clip = (s: string, n = 400) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

function printTurn(r: SageTurnReport) {
  console.log(`\nTurn ${r.turn}`);
  const via = r.attacker ? (r.attacker.usedFallback ? ` [attacker fallback: ${r.attacker.problems.map((p) => p.kind).join(", ")}]` : ` [attacker${r.attacker.tactic ? `, tactic ${r.attacker.tactic}` : ""}]`) : " [opening message]";
  console.log(`  User${via}: ${clip(r.user)}`);
  if (r.kind === "llm_error" || r.kind === "invalid") {
    console.log(`  Agent: ${r.kind === "invalid" ? "unreadable output" : "call failed"}: ${clip(r.problem ?? "", 300)}`);
    if (r.agentOutput) console.log(`    as written: ${clip(r.agentOutput, 300)}`);
    return;
  }
  if (r.kind === "final_answer") {
    console.log(`  Agent (final answer): ${clip(r.agentOutput ?? "")}`);
    return;
  }
  console.log(`  Agent (tool call): ${clip(r.agentOutput ?? "")}`);
  console.log(`  Tool ${r.tool}: ${clip(r.observation ?? "")}`);
  const f = r.flags;
  if (f) {
    const set = [f.nonSafeExecuted ? `non-safe type executed (${f.type})` : null, f.riskEvent ? `risk event ${f.riskEvent}` : null, f.forbiddenCall ? "forbidden call (the hidden action target)" : null, f.error ? `not executed: ${f.error}` : null].filter(Boolean);
    console.log(`  Flags: ${set.length ? set.join("; ") : "none"}`);
  }
}

async function client(db: Db, ref: string): Promise<ModelClient> {
  return createModelClient(await getEndpointSettings(db, await endpointId(db, ref)), { db });
}

function offlineSettings(server: OfflineModelServer, name: string, model: string): EndpointSettings {
  return { id: null, name, baseUrl: server.url, model, apiKeyEnv: null, temperature: 0, maxTokens: 2048, timeoutMs: 30_000, maxConcurrency: 16, priceInputPer1k: 0, priceOutputPer1k: 0, cacheEnabled: false, offline: true };
}

export async function sagePlay(url: string, args: Args) {
  const scenario = stringFlag(args, "scenario");
  if (!scenario) throw new Error("Name the scenario: --scenario INSTANCE_ID (e.g. privilege_escalation_001).");
  const contextFlag = (stringFlag(args, "context") ?? "").toUpperCase();
  if (contextFlag !== "TRUST" && contextFlag !== "WARNING") throw new Error("--context must be trust or warning (the authority text the agent is given).");
  const orderFlag = (stringFlag(args, "order") ?? "chronological").toUpperCase();
  if (orderFlag !== "CHRONOLOGICAL" && orderFlag !== "REFERENCE") throw new Error("--order must be chronological or reference.");
  const modeFlag = (stringFlag(args, "judge-mode") ?? "ternary").toUpperCase();
  if (modeFlag !== "TERNARY" && modeFlag !== "BINARY") throw new Error("--judge-mode must be ternary or binary.");
  const seedFlag = stringFlag(args, "seed");
  const seed = seedFlag === undefined ? null : Number(seedFlag);
  if (seed !== null && !Number.isInteger(seed)) throw new Error(`--seed must be a whole number, got "${seedFlag}".`);
  const judgeNames = stringFlag(args, "judges");

  const db = createPrisma(url);
  let server: OfflineModelServer | null = null;
  try {
    let agent: ModelClient, attacker: ModelClient;
    let judges: ModelClient[] = [];
    if (args.flags.offline) {
      server = await startOfflineModel({ faults: "" });
      info(`Offline model (${OFFLINE_MODEL_LABEL}) at ${server.url}`);
      agent = stringFlag(args, "agent") ? await client(db, stringFlag(args, "agent")!) : createModelClient(offlineSettings(server, "offline-heuristic (this command)", OFFLINE_MODEL_ID), { db });
      attacker = stringFlag(args, "attacker") ? await client(db, stringFlag(args, "attacker")!) : agent;
      if (judgeNames === undefined) {
        judges = [createModelClient(offlineSettings(server, "offline judge A", OFFLINE_MODEL_ID), { db }), createModelClient(offlineSettings(server, "offline judge B", OFFLINE_JUDGE_B_MODEL), { db })];
      }
    } else {
      agent = await client(db, stringFlag(args, "agent") ?? "offline-heuristic");
      attacker = stringFlag(args, "attacker") ? await client(db, stringFlag(args, "attacker")!) : agent;
    }
    if (judgeNames !== undefined && judgeNames !== "none") {
      for (const n of judgeNames.split(",").map((s) => s.trim()).filter(Boolean)) judges.push(await client(db, n));
    }
    info(`Scenario ${scenario}, context ${contextFlag}, order ${orderFlag}; agent ${agent.endpoint.model}, attacker ${attacker.endpoint.model}, judges ${judges.map((j) => j.endpoint.model).join(", ") || "none"}`);
    const ep = await playSageEpisode(db, { scenarioId: scenario, context: contextFlag, order: orderFlag, agent, attacker, judges, judgeMode: modeFlag, seed, onTurn: printTurn });
    console.log(`\nEnded: ${ep.stopReason}${ep.stopDetail ? ` (${ep.stopDetail})` : ""}`);
    const o = ep.outcome;
    console.log(
      `Unsafe tool call (UTR): ${o.unsafe ? `yes, first in turn ${o.firstUnsafeTurn} — ${o.unsafeCalls.map((c) => `turn ${c.turn} ${c.tool} (${[`type ${c.type}`, c.riskEvent ? `risk event ${c.riskEvent}` : null, c.forbiddenCall ? "forbidden call" : null].filter(Boolean).join(", ")})`).join("; ")}` : "no"}`,
    );
    if (ep.judgments.length) {
      const rows = await db.sageJudgment.findMany({ where: { trajectoryId: ep.trajectoryId, mode: modeFlag }, orderBy: { judgeModel: "asc" } });
      console.log(`Verdicts (${modeFlag.toLowerCase()}):`);
      for (const j of rows) {
        console.log(`  ${j.judgeModel}: ${j.label ?? "ERROR"}${j.error ? ` — ${clip(j.error, 300)}` : ` — ${clip(j.reason ?? "", 300)}`}`);
        const ev = (j.evidence as { turn: number; quote: string }[] | null) ?? [];
        for (const e of ev) console.log(`    evidence turn ${e.turn}: ${clip(e.quote, 160)}`);
      }
    }
    console.log(`Trajectory ${ep.trajectoryId}`);
  } finally {
    await server?.close();
    await db.$disconnect();
  }
}

export async function sageJudge(url: string, args: Args) {
  const ids = (stringFlag(args, "ids") ?? "").split(",").map((x) => x.trim()).filter(Boolean);
  const runId = stringFlag(args, "run");
  if (!ids.length && !runId) throw new Error("Name the episodes: --ids TRAJECTORY_ID,TRAJECTORY_ID… or --run RUN_ID (its ended SAGE episodes).");
  const names = (stringFlag(args, "judges") ?? "").split(",").map((x) => x.trim()).filter(Boolean);
  if (!names.length) throw new Error("Name the judge endpoints: --judges NAME,NAME…");
  const modeFlag = (stringFlag(args, "judge-mode") ?? "ternary").toUpperCase();
  if (modeFlag !== "TERNARY" && modeFlag !== "BINARY") throw new Error("--judge-mode must be ternary or binary.");
  const db = createPrisma(url);
  try {
    const judges: ModelClient[] = [];
    for (const n of names) judges.push(await client(db, n));
    if (runId) {
      // A SAGE run's ended episodes (a judge added after the run; nothing is replayed).
      const rows = await db.trajectory.findMany({ where: { runId, scenarioId: { not: null }, status: { in: ["FINISHED", "INCOMPLETE"] } }, orderBy: { createdAt: "asc" }, select: { id: true } });
      if (!rows.length) throw new Error(`Run ${runId} has no ended SAGE episodes.`);
      ids.push(...rows.map((r) => r.id).filter((id) => !ids.includes(id)));
    }
    const results = await judgeStoredEpisodes(db, ids, judges, modeFlag, { replace: !!args.flags.replace });
    for (const r of results) console.log(`${r.trajectoryId}  ${r.judgeModel}: ${r.label ?? "ERROR"}${r.error ? ` — ${clip(r.error, 200)}` : ""}${r.written ? "" : " (kept)"}`);
    info(`${results.filter((r) => r.written).length} verdict(s) written, ${results.filter((r) => !r.written).length} kept.`);
  } finally {
    await db.$disconnect();
  }
}
