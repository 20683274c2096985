// One SAGE episode as the trajectory page shows it (server only; the page is staff-only): its
// turns in order (the attacker's message, the agent's output, the tool call, observation and the
// flags the environment raised), the attacker's strategy and per-turn tactics, each judge's label,
// points and cited evidence grouped by the turn it cites, and the scenario's hidden judge
// specification. Null for a missing id and for a ToolEmu trajectory (it has no scenario).
import "server-only";
import type { Db } from "@/lib/db/client";
import { readSageOutcome } from "./query";

export interface SageEpisodeTurnFlags {
  tool: string | null;
  type: string | null;
  executed: boolean;
  nonSafeExecuted: boolean;
  riskEvent: string | null;
  forbiddenCall: boolean;
  error: string | null;
}

export interface SageEpisodeTurn {
  /** Agent turn, 1-based (= step index + 1; the judge's transcript numbers turns the same way). */
  turn: number;
  user: string | null;
  agentLog: string | null;
  reason: string | null;
  tool: string | null;
  arguments: unknown;
  observation: string | null;
  /** The final answer, when this turn gave one. */
  final: string | null;
  parseError: string | null;
  flags: SageEpisodeTurnFlags | null;
  /** The attacker's tactic of this turn (turns ≥ 2) and whether its fallback message was used. */
  tactic: string | null;
  usedFallback: boolean;
  /** Unsafe act in this turn: a non-safe tool executed, a risk event or the forbidden-call flag. */
  unsafe: boolean;
}

export interface SageEpisodeEvidence {
  judge: string;
  label: string | null;
  quote: string;
}

export interface SageEpisodeJudgment {
  judgeModel: string;
  mode: string;
  label: string | null;
  riskPoints: string[];
  safePoints: string[];
  evidence: { turn: number; quote: string }[];
  reason: string | null;
  error: string | null;
  warnings: string[];
  template: string;
}

const str = (v: unknown) => (typeof v === "string" ? v : null);

function flagsOf(json: unknown): { flags: SageEpisodeTurnFlags | null; tactic: string | null; usedFallback: boolean } {
  if (!json || typeof json !== "object" || Array.isArray(json)) return { flags: null, tactic: null, usedFallback: false };
  const o = json as Record<string, unknown>;
  const attacker = o.attacker && typeof o.attacker === "object" ? (o.attacker as Record<string, unknown>) : null;
  const flags = typeof o.tool === "string"
    ? { tool: o.tool, type: str(o.type), executed: o.executed === true, nonSafeExecuted: o.nonSafeExecuted === true, riskEvent: str(o.riskEvent), forbiddenCall: o.forbiddenCall === true, error: str(o.error) }
    : null;
  return { flags, tactic: attacker ? str(attacker.tactic) : null, usedFallback: attacker?.usedFallback === true };
}

function evidenceOf(json: unknown): { turn: number; quote: string }[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((x) => {
    if (!x || typeof x !== "object") return [];
    const e = x as Record<string, unknown>;
    return typeof e.turn === "number" && Number.isInteger(e.turn) ? [{ turn: e.turn, quote: typeof e.quote === "string" ? e.quote : "" }] : [];
  });
}

export async function loadSageEpisode(db: Db, id: string) {
  const t = await db.trajectory.findUnique({
    where: { id },
    select: {
      id: true, agentModel: true, authorityContext: true, conversationOrder: true, status: true, stopReason: true, stopDetail: true, stepCount: true,
      finalAnswer: true, sageOutcome: true, settings: true, inputTokens: true, outputTokens: true, costUsd: true, createdAt: true, startedAt: true, runId: true,
      scenario: {
        select: {
          id: true, instanceId: true, theme: true, domain: true, roleContext: true, taskContext: true, authorityTrust: true, authorityWarning: true,
          judgeSpec: true, judgeExtra: true, attackerMode: true, attackerStrategy: true, attackerObjective: true, turnLimit: true,
          subcategory: { select: { key: true, name: true, dimension: { select: { key: true, name: true } } } },
        },
      },
      steps: { orderBy: { index: "asc" }, select: { index: true, userMessage: true, agentLog: true, thought: true, action: true, actionInput: true, observationRaw: true, parseError: true, sageFlags: true } },
      sageJudgments: { orderBy: [{ judgeModel: "asc" }, { mode: "asc" }], select: { judgeModel: true, mode: true, label: true, riskPoints: true, safePoints: true, evidence: true, reason: true, error: true, warnings: true, template: true } },
    },
  });
  if (!t || !t.scenario) return null;
  const lastIndex = t.steps.at(-1)?.index;
  const turns: SageEpisodeTurn[] = t.steps.map((s) => {
    const f = flagsOf(s.sageFlags);
    const final = !s.action && !s.parseError && s.index === lastIndex ? t.finalAnswer : null;
    return {
      turn: s.index + 1,
      user: s.userMessage,
      agentLog: s.agentLog,
      reason: s.thought,
      tool: s.action,
      arguments: s.actionInput,
      observation: s.observationRaw,
      final,
      parseError: s.parseError,
      flags: f.flags,
      tactic: f.tactic,
      usedFallback: f.usedFallback,
      unsafe: !!f.flags && (f.flags.nonSafeExecuted || !!f.flags.riskEvent || f.flags.forbiddenCall),
    };
  });
  const judgments: SageEpisodeJudgment[] = t.sageJudgments.map((j) => ({ ...j, mode: j.mode, evidence: evidenceOf(j.evidence) }));
  const evidenceByTurn: Record<number, SageEpisodeEvidence[]> = {};
  for (const j of judgments) for (const e of j.evidence) (evidenceByTurn[e.turn] ??= []).push({ judge: j.judgeModel, label: j.label, quote: e.quote });
  return { ...t, scenario: t.scenario, outcome: readSageOutcome(t.sageOutcome), turns, judgments, evidenceByTurn };
}

export type SageEpisodeView = NonNullable<Awaited<ReturnType<typeof loadSageEpisode>>>;
