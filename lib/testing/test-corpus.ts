// For tests: the real ToolEmu outputs in the shared data (agent logs, simulator logs, evaluator
// results of the Qwen2.5-7B runs) and the 330 real tool specs. Read at test time, never bundled.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { toolSpecsFromToolkitJson } from "@/lib/trajectory/tool-spec";
import type { ToolkitSpec, ToolSpec } from "@/lib/trajectory/types";

const RUNS = () => path.join(sharedDataDir(), "trajectories/qwen2.5-7b-instruct");
/** The trajectory files of both judge folders are byte-identical; one folder's copy is read. */
const TRAJECTORY_JUDGE = "judge-q32";
export const JUDGES = ["judge-q32", "judge-gpt5m"] as const;

export function realToolkits(): ToolkitSpec[] {
  const raw = JSON.parse(readFileSync(path.join(sharedDataDir(), "toolemu/all_toolkits.json"), "utf8")) as unknown[];
  return toolSpecsFromToolkitJson(raw);
}

export function realTools(): ToolSpec[] {
  return realToolkits().flatMap((t) => t.tools);
}

function jsonl(file: string): unknown[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}

export interface RealActionStep {
  where: string;
  tool: string;
  toolInput: string;
  agentLog: string;
  observation: string;
  simulatorSummary: string;
  simulatorLog: string;
}

export interface RealFinish {
  where: string;
  output: string;
  log: string;
}

export interface RealTrajectory {
  where: string;
  toolkits: string[];
  steps: RealActionStep[];
  finish: RealFinish | null;
}

type RawStep = [unknown, unknown];

export function realTrajectories(): RealTrajectory[] {
  const dir = path.join(RUNS(), TRAJECTORY_JUDGE);
  const out: RealTrajectory[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl") && !f.includes("_eval_agent_")).sort()) {
    const chunk = /_(r\d+-\d+)_/.exec(file)?.[1] ?? file;
    jsonl(path.join(dir, file)).forEach((line, i) => {
      const t = line as { case: { Toolkits: string[] }; intermediate_steps: RawStep[] };
      const traj: RealTrajectory = { where: `${chunk}#${i}`, toolkits: t.case.Toolkits, steps: [], finish: null };
      t.intermediate_steps.forEach((step, s) => {
        const where = `${chunk}#${i} step ${s}`;
        const [a, o] = step;
        if (Array.isArray(a)) {
          const obs = o as [string, string, string];
          traj.steps.push({ where, tool: a[0] as string, toolInput: a[1] as string, agentLog: a[2] as string, observation: obs[0], simulatorSummary: obs[1], simulatorLog: obs[2] });
        } else {
          const f = a as { return_values: { output: string }; log: string };
          traj.finish = { where, output: f.return_values.output, log: f.log };
        }
      });
      out.push(traj);
    });
  }
  return out;
}

export interface RealEvaluation {
  where: string;
  kind: "SAFETY" | "HELPFULNESS";
  thought: string | null;
  label: string | null;
  score: string | number | null;
  summary: string | null;
  /** eval_scores.ToolCallRisk / eval_scores.Helpfulness: what ToolEmu's pipeline read as the score. */
  recordedScore: number | null;
}

export function realEvaluations(): RealEvaluation[] {
  const out: RealEvaluation[] = [];
  for (const judge of JUDGES) {
    const dir = path.join(RUNS(), judge);
    for (const file of readdirSync(dir).filter((f) => f.includes("_eval_agent_")).sort()) {
      const kind = file.endsWith("_eval_agent_safe.jsonl") ? "SAFETY" : "HELPFULNESS";
      const chunk = /_(r\d+-\d+)_/.exec(file)?.[1] ?? file;
      for (const line of jsonl(path.join(dir, file))) {
        const e = line as Record<string, unknown> & { eval_id: number; eval_scores?: Record<string, number> };
        const scores = e.eval_scores ?? {};
        const recorded = kind === "SAFETY" ? scores.ToolCallRisk : scores.Helpfulness;
        out.push({
          where: `${judge} ${chunk}#${e.eval_id} ${kind}`,
          kind,
          thought: (e["Evaluator Thought"] as string | null) ?? null,
          label: (e["Overall Qualitative Label"] as string | null) ?? null,
          score: (e["Overall Quantitative Score"] as string | number | null) ?? null,
          summary: (e["Evaluator Log Summary"] as string | null) ?? null,
          recordedScore: typeof recorded === "number" ? recorded : recorded === undefined ? null : Number(recorded),
        });
      }
    }
  }
  return out;
}

/**
 * The evaluator's text rebuilt from the four fields ToolEmu stored (the raw text is not kept in
 * these files): the sections in ToolEmu's order, a missing one left out.
 */
export function evaluatorText(e: RealEvaluation): string {
  const parts: string[] = [];
  if (e.thought !== null) parts.push(`Evaluator Thought: ${e.thought}`);
  if (e.label !== null) parts.push(`Overall Qualitative Label: ${e.label}`);
  if (e.score !== null) parts.push(`Overall Quantitative Score: ${e.score}`);
  if (e.summary !== null) parts.push(`Evaluator Log Summary: ${e.summary}`);
  return parts.join("\n\n");
}
