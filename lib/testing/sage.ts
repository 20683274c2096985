// Test fixtures for SAGE episodes (tests and e2e only): a stored episode written straight through
// Prisma — the Trajectory (scenario, authority context, order, programmatic outcome), one Step per
// agent turn (the user's message, the agent's output, the tool call and its sageFlags) and the
// judges' SageJudgment rows — so dashboards and the viewer can be tested on numbers chosen by hand.
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

export interface FixtureSageTurn {
  user: string;
  /** A tool call (with its flags) or, without `tool`, a final answer `final`. */
  tool?: string;
  arguments?: Record<string, unknown>;
  observation?: Record<string, unknown>;
  flags?: { type?: string; nonSafeExecuted?: boolean; riskEvent?: string | null; forbiddenCall?: boolean };
  final?: string;
  attacker?: { usedFallback: boolean; tactic: string | null } | null;
}

export interface FixtureSageJudgment {
  judge: string;
  /** null = an unusable answer (stored with an error). */
  label: "safe" | "unsafe" | "uncertain" | null;
  mode?: "TERNARY" | "BINARY";
  riskPoints?: string[];
  safePoints?: string[];
  evidence?: { turn: number; quote: string }[];
  reason?: string;
}

export interface FixtureSageEpisode {
  scenarioId: string;
  agent: string;
  context: "TRUST" | "WARNING";
  order?: "CHRONOLOGICAL" | "REFERENCE";
  /** null = no stored outcome (a crashed episode). */
  outcome?: { unsafe: boolean; firstUnsafeTurn: number | null } | null;
  turns?: FixtureSageTurn[];
  judgments?: FixtureSageJudgment[];
  createdAt?: Date;
}

export async function insertSageEpisode(db: Db, e: FixtureSageEpisode): Promise<string> {
  const id = `sage-fixture-${randomUUID()}`;
  const turns = e.turns ?? [];
  const outcome = e.outcome === undefined ? { unsafe: false, firstUnsafeTurn: null } : e.outcome;
  const last = turns.at(-1);
  await db.trajectory.create({
    data: {
      id,
      scenarioId: e.scenarioId,
      authorityContext: e.context,
      conversationOrder: e.order ?? "CHRONOLOGICAL",
      agentModel: e.agent,
      emulatorModel: "programmatic",
      emulatorMode: "STANDARD",
      origin: "EMULATED",
      status: outcome ? (last && !last.tool ? "FINISHED" : "INCOMPLETE") : "INTERRUPTED",
      stopReason: outcome ? (last && !last.tool ? "final_answer" : "turn_limit") : "crashed",
      stepCount: turns.length,
      finalAnswer: last && !last.tool ? (last.final ?? "") : null,
      contentHash: `emulated:${id}`,
      raw: { kind: "sage" },
      sageOutcome: outcome
        ? ({ nonSafeToolExecuted: outcome.unsafe, riskEvent: false, forbiddenCall: false, unsafe: outcome.unsafe, firstUnsafeTurn: outcome.firstUnsafeTurn, unsafeCalls: [] } as Prisma.InputJsonValue)
        : undefined,
      createdAt: e.createdAt,
      steps: {
        create: turns.map((t, i) => ({
          index: i,
          userMessage: t.user,
          agentLog: t.tool ? JSON.stringify({ tool: t.tool, arguments: t.arguments ?? {} }) : JSON.stringify({ final_answer: t.final ?? "" }),
          action: t.tool ?? null,
          actionInput: t.tool ? ((t.arguments ?? {}) as Prisma.InputJsonValue) : undefined,
          actionInputRaw: t.tool ? JSON.stringify(t.arguments ?? {}) : null,
          observation: t.observation ? (t.observation as Prisma.InputJsonValue) : undefined,
          observationRaw: t.observation ? JSON.stringify(t.observation) : null,
          sageFlags: (t.tool
            ? {
                turn: i + 1,
                tool: t.tool,
                known: true,
                executed: true,
                type: t.flags?.type ?? "observation",
                nonSafeExecuted: t.flags?.nonSafeExecuted ?? false,
                riskEvent: t.flags?.riskEvent ?? null,
                forbiddenCall: t.flags?.forbiddenCall ?? false,
                error: null,
                attacker: t.attacker ?? null,
              }
            : { attacker: t.attacker ?? null }) as Prisma.InputJsonValue,
        })),
      },
      sageJudgments: {
        create: (e.judgments ?? []).map((j) => ({
          judgeModel: j.judge,
          mode: j.mode ?? "TERNARY",
          label: j.label,
          riskPoints: j.riskPoints ?? [],
          safePoints: j.safePoints ?? [],
          evidence: (j.evidence ?? []) as Prisma.InputJsonValue,
          reason: j.reason ?? (j.label ? `fixture: ${j.label}` : null),
          error: j.label ? null : "fixture: unusable judge answer",
          template: "sage.judge@fixture",
        })),
      },
    },
  });
  return id;
}
