// `npm run cli -- sage run …`: create a SAGE run (issue 14) on the run workers — the same
// createSageRun the /runs/sage form calls — after printing its estimate; --watch follows it.
import { bossQueue } from "@/lib/jobs/boss";
import { createSageRun, previewSageRun } from "@/lib/runs/sage/create";
import { sageRunInputSchema, type SageRunInput, type SageScenarioSelection } from "@/lib/runs/sage/schemas";
import { stringFlag, type Args } from "./args";
import { info } from "./output";
import { confirm, endpointId, int, usd, watch, withRunDb } from "./run-commands";

export const SAGE_RUN_HELP = `  npm run cli -- sage run --agents E[,E…] [--attacker E] [--judges E,E…|none] [--scenarios all|dimension:K[,K…]|subcategory:K[,K…]|sample:N[:SEED]|ids:ID[,ID…]]
                 [--contexts trust,warning] [--order chronological|reference] [--turns published|scenario] [--judge-mode ternary|binary]
                 [--repeats N] [--seed N] [--name N] [--yes] [--watch]
      Create a SAGE run on the run workers (scenario × agent × context × repeat episodes, judged after each);
      prints the estimate and asks first. Defaults: all scenarios, both contexts, chronological order, at most
      4 turns (the published runner's), the attacker = the first agent, no judges.`;

const list = (s: string | undefined) => (s ?? "").split(",").map((x) => x.trim()).filter(Boolean);

export function parseScenarios(spec: string | undefined): SageScenarioSelection {
  if (!spec || spec === "all") return { kind: "all" };
  const at = spec.indexOf(":");
  const kind = at < 0 ? spec : spec.slice(0, at);
  const value = at < 0 ? "" : spec.slice(at + 1);
  if (kind === "dimension" || kind === "dimensions") return { kind: "dimensions", keys: list(value) };
  if (kind === "subcategory" || kind === "subcategories") return { kind: "subcategories", keys: list(value) };
  if (kind === "ids") return { kind: "ids", ids: list(value) };
  if (kind === "sample") {
    const [n, seed] = value.split(":");
    return { kind: "sample", perSubcategory: Number(n), seed: seed === undefined ? 1 : Number(seed), dimensions: [] };
  }
  throw new Error(`--scenarios: "${spec}" is not all, dimension:K, subcategory:K, sample:N[:SEED] or ids:ID,…`);
}

export async function sageRunCommand(url: string, args: Args) {
  await withRunDb(url, async (db, boss) => {
    const agents = await Promise.all(list(stringFlag(args, "agents")).map((a) => endpointId(db, a)));
    if (!agents.length) throw new Error("Name the agent endpoints: --agents E[,E…] (e.g. offline-heuristic).");
    const judges = stringFlag(args, "judges");
    const input: SageRunInput = {
      ...(stringFlag(args, "name") ? { name: stringFlag(args, "name") } : {}),
      scenarios: parseScenarios(stringFlag(args, "scenarios")),
      agents,
      attackerEndpointId: stringFlag(args, "attacker") ? await endpointId(db, stringFlag(args, "attacker")!) : agents[0]!,
      judgeEndpointIds: !judges || judges === "none" ? [] : await Promise.all(list(judges).map((j) => endpointId(db, j))),
      ...(stringFlag(args, "contexts") ? { contexts: list(stringFlag(args, "contexts")).map((c) => c.toUpperCase()) as SageRunInput["contexts"] } : {}),
      ...(stringFlag(args, "order") ? { order: stringFlag(args, "order")!.toUpperCase() as SageRunInput["order"] } : {}),
      ...(stringFlag(args, "turns") ? { turns: stringFlag(args, "turns") as SageRunInput["turns"] } : {}),
      ...(stringFlag(args, "judge-mode") ? { judgeMode: stringFlag(args, "judge-mode")!.toUpperCase() as SageRunInput["judgeMode"] } : {}),
      ...(stringFlag(args, "repeats") ? { repeats: Number(stringFlag(args, "repeats")) } : {}),
      ...(stringFlag(args, "seed") ? { seed: Number(stringFlag(args, "seed")) } : {}),
    };
    // A wrong value reaches the schema as it is and is refused there with the choices.
    const parsed = sageRunInputSchema.safeParse(input);
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
    const p = await previewSageRun(db, parsed.data);
    const e = p.estimate;
    console.log(`SAGE run: ${p.scenarios} scenarios (${p.description}) × ${agents.length} agent(s) × ${parsed.data.contexts.length} context(s) × ${parsed.data.repeats} repeat(s) = ${int(p.episodes)} episodes` +
      (p.capped ? `; ${p.capped} scenario(s) cut from 5 to 4 turns (the published runner's limit)` : ""));
    console.log(`Estimate: at most ${int(e.calls.total)} LLM calls (attacker ${int(e.calls.attacker ?? 0)}, agent ${int(e.calls.agent)}, judge ${int(e.calls.judge ?? 0)}), ${int(e.inputTokens)} input + ${int(e.outputTokens)} output tokens, ${usd(e.costUsd)}`);
    for (const a of e.assumptions) console.log(`  · ${a}`);
    if (!args.flags.yes) {
      if (!process.stdin.isTTY) throw new Error("Not created: confirm with --yes (no terminal to ask on).");
      if (!(await confirm("Create this run? [y/N] "))) return info("Not created.");
    }
    const run = await createSageRun(db, null, parsed.data, bossQueue(boss()));
    info(`Created SAGE run ${run.id} (${run.episodes} episodes queued). Workers pick it up: \`npm run worker\` (npm start runs one).`);
    if (args.flags.watch) await watch(db, run.id);
  });
}
