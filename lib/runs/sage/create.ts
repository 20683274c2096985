// Creating a SAGE run (issue 14 items 2–4): resolve the scenarios, expand to episodes — scenario ×
// agent × authority context × repeat, the two contexts of a scenario next to each other so the
// pairs finish together —, estimate, then store the run and its episodes and queue them on the
// same `episode` queue as every other run kind (lib/runs/store-run.ts): the same workers, claim,
// leases, retries, pause/resume/cancel and progress. An episode is played and judged by ./unit.ts.
import "server-only";
import { randomInt } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { templateRef } from "@/lib/prompts/template";
import { SAGE_AGENT } from "@/lib/sage/prompts/agent";
import { SAGE_ATTACKER } from "@/lib/sage/prompts/attacker";
import { SAGE_JUDGE_TEMPLATES } from "@/lib/sage/prompts/judge";
import type { RunEstimate } from "../estimate";
import { MIN_OBSERVED } from "../estimate";
import { storeRunAndQueue } from "../store-run";
import { estimateSageRun, turnsUnder, type SageEstimateEndpoint, type SageEstimateRole } from "./estimate";
import { resolveScenarios, type ResolvedScenario } from "./selection";
import {
  CONTEXT_LABELS,
  MAX_SAGE_EPISODES_PER_RUN,
  SAGE_UNIT_VARIANT,
  maxTurnsOf,
  sageRunInputSchema,
  type SageRunInput,
  type SageRunSettings,
  type StoredSageRunSettings,
} from "./schemas";

type Endpoint = SageEstimateEndpoint & { model: string; offline: boolean };

export interface SageRunPreview {
  scenarios: number;
  description: string;
  /** Scenarios whose own turn limit the policy cuts (5 → 4 under "published"). */
  capped: number;
  episodes: number;
  perContext: number;
  judgeModels: string[];
  estimate: RunEstimate & { maxTurns: number };
}

interface Resolved extends SageRunPreview {
  settings: SageRunSettings;
  selected: ResolvedScenario[];
  endpoints: Map<string, Endpoint>;
}

/** The endpoints with their observed mean tokens per SAGE role. */
async function loadSageEndpoints(db: Db, ids: string[]): Promise<Map<string, Endpoint>> {
  const rows = await db.modelEndpoint.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, model: true, offline: true, priceInputPer1k: true, priceOutputPer1k: true },
  });
  if (rows.length !== new Set(ids).size) throw new AppError("A chosen model endpoint no longer exists; reload the page.", 422);
  const observed = await db.$queryRaw<{ endpointId: string; role: SageEstimateRole; input: number; output: number; n: bigint }[]>`
    SELECT "endpointId", role, avg("inputTokens")::float8 AS input, avg("outputTokens")::float8 AS output, count(*) AS n
    FROM (SELECT "endpointId", role, "inputTokens", "outputTokens" FROM "LlmCall"
          WHERE "endpointId" = ANY(${ids}) AND error IS NULL AND NOT cached AND role IN ('agent', 'attacker', 'judge')
          ORDER BY id DESC LIMIT 20000) recent
    GROUP BY 1, 2`;
  const out = new Map<string, Endpoint>(rows.map((r) => [r.id, { ...r, observed: {} }]));
  for (const o of observed) if (Number(o.n) >= MIN_OBSERVED) out.get(o.endpointId)!.observed![o.role] = { input: o.input, output: o.output };
  return out;
}

async function resolve(db: Db, input: SageRunInput | SageRunSettings): Promise<Resolved> {
  const s = sageRunInputSchema.parse(input);
  const endpoints = await loadSageEndpoints(db, [...new Set([...s.agents, s.attackerEndpointId, ...s.judgeEndpointIds])]);
  const judgeModels = s.judgeEndpointIds.map((id) => endpoints.get(id)!.model);
  const dup = judgeModels.find((m, i) => judgeModels.indexOf(m) !== i);
  if (dup) throw new AppError(`Two judges serve the same model "${dup}": a verdict is stored per judge model, so pick judges with different models.`, 422);
  const sel = await resolveScenarios(db, s.scenarios);
  const cap = maxTurnsOf(s.turns);
  const estimate = estimateSageRun({
    scenarios: sel.scenarios.map((r) => ({ turns: turnsUnder(r.turnLimit, cap), chars: r.chars })),
    agents: s.agents.map((id) => endpoints.get(id)!),
    attacker: endpoints.get(s.attackerEndpointId)!,
    judges: s.judgeEndpointIds.map((id) => endpoints.get(id)!),
    contexts: s.contexts.length,
    repeats: s.repeats,
  });
  return {
    settings: s,
    selected: sel.scenarios,
    endpoints,
    scenarios: sel.scenarios.length,
    description: sel.description,
    capped: cap === null ? 0 : sel.scenarios.filter((r) => r.turnLimit > cap).length,
    episodes: estimate.episodes,
    perContext: sel.scenarios.length * s.agents.length * s.repeats,
    judgeModels,
    estimate,
  };
}

/** Resolves the selection and estimates the run, writing nothing. */
export async function previewSageRun(db: Db, input: SageRunInput | SageRunSettings): Promise<SageRunPreview> {
  const { settings: _s, selected: _r, endpoints: _e, ...preview } = await resolve(db, input);
  return preview;
}

/**
 * Episodes in queue order: repeat, then scenario, then agent, then context — the Trust and Warning
 * episodes of a pair are queued next to each other, so partial results stay paired.
 */
export function expandSageEpisodes(scenarioIds: string[], s: Pick<SageRunSettings, "agents" | "contexts" | "repeats">) {
  const out: { scenarioId: string; agentEndpointId: string; authority: "TRUST" | "WARNING"; repeat: number; position: number }[] = [];
  for (let repeat = 0; repeat < s.repeats; repeat++) {
    for (const scenarioId of scenarioIds) {
      for (const agentEndpointId of s.agents) {
        for (const authority of s.contexts) out.push({ scenarioId, agentEndpointId, authority, repeat, position: out.length });
      }
    }
  }
  return out;
}

export async function createSageRun(
  db: Db,
  actorId: string | null,
  input: SageRunInput | SageRunSettings,
  queue: EpisodeQueue | null,
  opts: { rerunOfId?: string } = {},
): Promise<{ id: string; episodes: number; estimate: RunEstimate }> {
  const p = await resolve(db, input);
  const s = p.settings;
  if (p.episodes === 0) throw new AppError(`The selection (${p.description}) has no scenarios; import them first (SAGE → Import).`, 422);
  if (p.episodes > MAX_SAGE_EPISODES_PER_RUN) throw new AppError(`That is ${p.episodes} episodes; a run may have at most ${MAX_SAGE_EPISODES_PER_RUN}.`, 422);
  const seed = s.seed ?? randomInt(0, 2 ** 31);
  const episodes = expandSageEpisodes(p.selected.map((r) => r.id), s);
  const stored: StoredSageRunSettings = {
    selection: s.scenarios,
    description: p.description,
    scenarios: p.scenarios,
    contexts: s.contexts,
    order: s.order,
    turns: s.turns,
    maxTurns: maxTurnsOf(s.turns),
    attackerEndpointId: s.attackerEndpointId,
    judgeEndpointIds: s.judgeEndpointIds,
    judgeModels: p.judgeModels,
    judgeMode: s.judgeMode,
  };
  const agentNames = s.agents.map((id) => p.endpoints.get(id)!.name);
  const name = s.name || `SAGE: ${p.scenarios} scenario${p.scenarios === 1 ? "" : "s"} × ${s.contexts.map((c) => CONTEXT_LABELS[c]).join(" / ")} (${agentNames.join(", ")})`;
  const run = await storeRunAndQueue(db, queue, actorId, async () => ({
    data: {
      kind: "SAGE",
      name,
      notes: s.notes,
      caseSelection: s.scenarios as Prisma.InputJsonValue,
      caseIds: [],
      agents: s.agents.map((endpointId) => ({ endpointId, variant: SAGE_UNIT_VARIANT })) as unknown as Prisma.InputJsonValue,
      emulatorEndpointId: null,
      modes: ["STANDARD"],
      evaluatorEndpointId: null,
      repeats: s.repeats,
      seed,
      promptVersions: [templateRef(SAGE_ATTACKER), templateRef(SAGE_AGENT), templateRef(SAGE_JUDGE_TEMPLATES[s.judgeMode])],
      estimate: p.estimate as unknown as Prisma.InputJsonValue,
      sage: stored as unknown as Prisma.InputJsonValue,
      rerunOfId: opts.rerunOfId ?? null,
    },
    units: episodes.map((e) => ({ ...e, caseId: null, variant: SAGE_UNIT_VARIANT, mode: "STANDARD" as const })),
    audit: { kind: "SAGE", name, episodes: episodes.length, scenarios: p.scenarios, contexts: s.contexts, order: s.order, turns: s.turns, judges: p.judgeModels, judgeMode: s.judgeMode, rerunOfId: opts.rerunOfId },
  }));
  return { id: run.id, episodes: run.units, estimate: p.estimate };
}

/** "Re-run as new": the same scenarios (by instance_id), agents, contexts, order, attacker, judges and seed. */
export async function rerunSageRun(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const r = await db.run.findUnique({ where: { id: runId }, select: { kind: true, name: true, notes: true, seed: true, repeats: true, agents: true, sage: true } });
  if (!r) throw new AppError("No such run.", 404);
  if (r.kind !== "SAGE" || !r.sage) throw new AppError("Not a SAGE run.", 409);
  const s = r.sage as unknown as StoredSageRunSettings;
  const ids = await db.$queryRaw<{ instanceId: string }[]>`
    SELECT DISTINCT sc."instanceId" FROM "RunEpisode" e JOIN "SageScenario" sc ON sc.id = e."scenarioId" WHERE e."runId" = ${runId}`;
  return createSageRun(
    db,
    actorId,
    {
      name: `${r.name} (re-run)`,
      notes: r.notes,
      scenarios: { kind: "ids", ids: ids.map((x) => x.instanceId) },
      agents: (r.agents as { endpointId: string }[]).map((a) => a.endpointId),
      contexts: s.contexts,
      order: s.order,
      turns: s.turns,
      attackerEndpointId: s.attackerEndpointId,
      judgeEndpointIds: s.judgeEndpointIds,
      judgeMode: s.judgeMode,
      repeats: r.repeats,
      seed: r.seed,
    },
    queue,
    { rerunOfId: runId },
  );
}
