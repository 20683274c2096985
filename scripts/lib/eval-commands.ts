// `npm run cli -- eval …`: score stored trajectories again (an evaluation run). Status, watch,
// pause, resume, cancel and retry are the run commands: an evaluation run is a run.
import { bossQueue } from "@/lib/jobs/boss";
import { createEvaluationRun, previewEvaluationRun } from "@/lib/runs/evaluation/create";
import { evaluationRunInputSchema, type EvaluationRunInput, type TrajectorySelection } from "@/lib/runs/evaluation/schemas";
import { stringFlag, type Args } from "./args";
import { info } from "./output";
import { confirm, endpointId, int, usd, watch, withRunDb } from "./run-commands";

export const EVAL_HELP = `  npm run cli -- eval create (--filter QUERY | --run RUN_ID | --campaign CAMPAIGN_ID | --ids ID,ID…)
                 --endpoint E [--kinds safety,helpfulness] [--replicates R] [--template-version V]
                 [--replace] [--temperature T] [--name N] [--yes] [--watch]
      Score stored trajectories again: an evaluation run, executed by the run workers. --filter
      takes the /trajectories URL query ("agent=Qwen/Qwen2.5-7B-Instruct&mode=STANDARD"; "" = all).
      Each replicate is its own evaluator, named "<model> · evaluator@V · rN" on the dashboards.
      Replicates are appended after the evaluator's existing ones; --replace rewrites 1..R and
      deletes those above. Prints the estimate and asks to confirm (--yes: no question).
  npm run cli -- eval status|watch [<run id>]   npm run cli -- eval pause|resume|cancel|retry <run id>
      The same as the run commands (an evaluation run is a run).`;

function selection(args: Args): TrajectorySelection {
  const given = (["filter", "run", "campaign", "ids"] as const).filter((k) => args.flags[k] !== undefined);
  if (given.length !== 1) throw new Error("Say which trajectories, with exactly one of --filter QUERY, --run ID, --campaign ID or --ids A,B.");
  const value = stringFlag(args, given[0]!) ?? "";
  switch (given[0]!) {
    case "filter":
      return { kind: "filter", query: value.replace(/^\?/, "") };
    case "run":
      return { kind: "run", runId: value };
    case "campaign":
      return { kind: "campaign", campaignId: value };
    case "ids":
      return { kind: "ids", ids: value.split(",").map((s) => s.trim()).filter(Boolean) };
  }
}

export async function evalCreate(url: string, args: Args) {
  await withRunDb(url, async (db, boss) => {
    const endpoint = stringFlag(args, "endpoint") ?? stringFlag(args, "evaluator");
    if (!endpoint) throw new Error("Name the evaluator endpoint: --endpoint NAME");
    const num = (k: string) => (stringFlag(args, k) === undefined ? undefined : Number(stringFlag(args, k)));
    const input: EvaluationRunInput = {
      name: stringFlag(args, "name"),
      notes: stringFlag(args, "notes") ?? "",
      trajectories: selection(args),
      endpointId: await endpointId(db, endpoint),
      kinds: (stringFlag(args, "kinds") ?? "safety,helpfulness").split(",").map((k) => k.trim().toUpperCase()) as EvaluationRunInput["kinds"],
      replicates: num("replicates"),
      templateVersion: num("template-version"),
      write: args.flags.replace ? "replace" : "append",
      temperature: num("temperature") ?? null,
    };
    const parsed = evaluationRunInputSchema.safeParse(input);
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `--${i.path.join(".") || "input"}: ${i.message}`).join("; "));
    const p = await previewEvaluationRun(db, parsed.data);
    const e = p.estimate;
    console.log(`Evaluate ${p.description}: ${int(p.trajectories)} trajector${p.trajectories === 1 ? "y" : "ies"}${p.running ? ` (${p.running} still running, left out)` : ""} × ${parsed.data.kinds.length} kind(s) × ${parsed.data.replicates} replicate(s) = ${int(p.units)} evaluator calls`);
    console.log(`Evaluator ${p.evaluatorBase}, replicates ${p.replicateNumbers.map((r) => `r${r}`).join(", ")} (${parsed.data.write}` +
      (parsed.data.write === "replace" ? `: ${p.existing} existing rows, ${p.toDelete} above r${parsed.data.replicates} deleted` : p.existing ? `: ${p.existing} existing rows kept` : "") + ")");
    console.log(`Estimate: ${int(e.inputTokens)} input + ${int(e.outputTokens)} output tokens, ${usd(e.costUsd)}${e.unpriced.length ? ` (no price set for ${e.unpriced.join(", ")})` : ""}`);
    for (const a of e.assumptions) console.log(`  · ${a}`);
    if (!args.flags.yes) {
      if (!process.stdin.isTTY) throw new Error("Not created: confirm with --yes (no terminal to ask on).");
      if (!(await confirm("Create this evaluation run? [y/N] "))) return info("Not created.");
    }
    const run = await createEvaluationRun(db, null, parsed.data, bossQueue(boss()));
    info(`Created evaluation run ${run.id} (${run.units} units queued). Workers pick it up: \`npm run worker\` (npm start runs one).`);
    if (args.flags.watch) await watch(db, run.id);
  });
}
