// `npm run cli -- run …`: create a run, watch it, pause / resume / cancel it, retry its failures.
import { createInterface } from "node:readline";
import type PgBoss from "pg-boss";
import { createPrisma, type Db } from "@/lib/db/client";
import { bossQueue, startBoss } from "@/lib/jobs/boss";
import { createRun, previewRun } from "@/lib/runs/create";
import { cancelRun, pauseRun, resumeRun, retryFailed } from "@/lib/runs/control";
import { listRuns, loadRunProgress, type RunProgress } from "@/lib/runs/queries";
import { runInputSchema, type CaseSelection, type RunInput } from "@/lib/runs/schemas";
import { AGENT_VARIANTS, type AgentVariant } from "@/lib/trajectory/types";
import { stringFlag, type Args } from "./args";
import { info } from "./output";

export const RUN_HELP = `  npm run cli -- run create --name N --agents E[:VARIANT][,E2[:VARIANT]…] --emulator E [--evaluator E|none]
                 [--modes standard,adversarial] [--cases all|toolkit:A,B|filter:TEXT|sample:N[:SEED]]
                 [--repeats R] [--seed S] [--loop toolemu|strict] [--notes TEXT] [--yes] [--watch]
      Create a run (endpoints by name or id; variant NAIVE, SAFETY, HELPFUL_SAFE or NO_ACTION,
      default NAIVE). Prints the episodes and the estimate of LLM calls, tokens and cost, then
      asks to confirm (--yes: no question). --watch follows it with a progress bar.
  npm run cli -- run status [<run id>] [--watch]
      A run's progress (done / running / failed / queued, ETA, tokens, cost, errors, per-agent
      results); without an id, the list of runs. --watch redraws until the run ends.
  npm run cli -- run cancel|pause|resume|retry <run id>
      Cancel, pause or resume a run; retry re-queues its failed episodes.`;

export async function withRunDb<T>(url: string, fn: (db: Db, boss: () => Promise<PgBoss>) => Promise<T>): Promise<T> {
  const db = createPrisma(url);
  let boss: Promise<PgBoss> | null = null;
  try {
    return await fn(db, () => (boss ??= startBoss(url)));
  } finally {
    if (boss) await (await (boss as Promise<PgBoss>).catch(() => null))?.stop({ graceful: false, wait: true, timeout: 1000 });
    await db.$disconnect();
  }
}

export async function endpointId(db: Db, ref: string): Promise<string> {
  const e = await db.modelEndpoint.findFirst({ where: { OR: [{ id: ref }, { name: ref }] }, select: { id: true } });
  if (!e) {
    const names = (await db.modelEndpoint.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((x) => `"${x.name}"`);
    throw new Error(`No model endpoint named "${ref}". Known: ${names.join(", ") || "none (add one on the Admin → Endpoints page)"}.`);
  }
  return e.id;
}

export function parseCases(spec: string | undefined): CaseSelection {
  if (!spec || spec === "all") return { kind: "all" };
  const [kind, ...rest] = spec.split(":");
  const value = rest.join(":");
  if (kind === "toolkit" || kind === "toolkits") return { kind: "toolkits", toolkits: value.split(",").map((s) => s.trim()).filter(Boolean) };
  if (kind === "filter") return { kind: "filter", q: value };
  if (kind === "sample") {
    const [n, seed] = value.split(":");
    return { kind: "sample", size: Number(n), seed: seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seed) };
  }
  throw new Error(`--cases ${spec}: use all, toolkit:A,B, filter:TEXT or sample:N[:SEED].`);
}

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;
const dur = (s: number) => (s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

export async function runCreate(url: string, args: Args) {
  await withRunDb(url, async (db, boss) => {
    const agentsSpec = stringFlag(args, "agents") ?? stringFlag(args, "agent");
    if (!agentsSpec) throw new Error("Name the agent endpoint(s): --agents NAME[:VARIANT][,NAME2[:VARIANT]]");
    const agents = [];
    for (const part of agentsSpec.split(",")) {
      const [ref, variant = "NAIVE"] = part.trim().split(":");
      const v = variant.toUpperCase();
      if (!(AGENT_VARIANTS as readonly string[]).includes(v)) throw new Error(`Variant "${variant}": use one of ${AGENT_VARIANTS.join(", ")}.`);
      agents.push({ endpointId: await endpointId(db, ref!), variant: v as AgentVariant });
    }
    const emulator = stringFlag(args, "emulator");
    if (!emulator) throw new Error("Name the emulator endpoint: --emulator NAME");
    const evaluator = stringFlag(args, "evaluator");
    const modes = (stringFlag(args, "modes") ?? "standard,adversarial").split(",").map((m) => m.trim().toUpperCase());
    const input: RunInput = {
      name: stringFlag(args, "name") ?? "",
      notes: stringFlag(args, "notes") ?? "",
      cases: parseCases(stringFlag(args, "cases")),
      agents,
      emulatorEndpointId: await endpointId(db, emulator),
      evaluatorEndpointId: evaluator && evaluator !== "none" ? await endpointId(db, evaluator) : evaluator === "none" ? null : await endpointId(db, emulator),
      modes: modes as RunInput["modes"],
      repeats: stringFlag(args, "repeats") ? Number(stringFlag(args, "repeats")) : 1,
      ...(stringFlag(args, "seed") ? { seed: Number(stringFlag(args, "seed")) } : {}),
      // A wrong value reaches the schema as it is and is refused there with the choices.
      ...(stringFlag(args, "loop") ? { loopMode: stringFlag(args, "loop")!.toUpperCase() as "TOOLEMU" | "STRICT" } : {}),
    };
    const parsed = runInputSchema.safeParse(input);
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
    const p = await previewRun(db, parsed.data);
    const e = p.estimate;
    console.log(`Run "${parsed.data.name}": ${p.caseIds.length} cases × ${agents.length} agent(s) × ${modes.length} mode(s) × ${parsed.data.repeats} repeat(s) = ${int(p.episodes)} episodes`);
    console.log(`Estimate: ${int(e.calls.total)} LLM calls (agent ${int(e.calls.agent)}, emulator ${int(e.calls.emulator)}, evaluator ${int(e.calls.evaluator)}), ` +
      `${int(e.inputTokens)} input + ${int(e.outputTokens)} output tokens, ${usd(e.costUsd)}${e.unpriced.length ? ` (no price set for ${e.unpriced.join(", ")})` : ""}`);
    for (const a of e.assumptions) console.log(`  · ${a}`);
    if (!args.flags.yes) {
      if (!process.stdin.isTTY) throw new Error("Not created: confirm with --yes (no terminal to ask on).");
      if (!(await confirm("Create this run? [y/N] "))) {
        info("Not created.");
        return;
      }
    }
    const run = await createRun(db, null, parsed.data, bossQueue(boss()));
    info(`Created run ${run.id} (${run.episodes} episodes queued). Workers pick it up: \`npm run worker\` (npm start runs one).`);
    if (args.flags.watch) await watch(db, run.id);
  });
}

function summary(p: RunProgress): string[] {
  const c = p.counts;
  const lines = [
    `${p.name}  [${p.status}]  ${p.id}`,
    `  episodes ${c.total}: done ${c.done}, running ${c.running}, failed ${c.failed}, queued ${c.queued}${c.cancelled ? `, cancelled ${c.cancelled}` : ""}` +
      (p.etaSeconds !== null ? `   ETA ${dur(p.etaSeconds)} (${p.ratePerMinute!.toFixed(1)}/min)` : ""),
    `  ${int(p.usage.calls)} LLM calls, ${int(p.usage.inputTokens)} in + ${int(p.usage.outputTokens)} out tokens, ${usd(p.usage.costUsd)}` +
      (p.estimate ? ` (estimate ${int(p.estimate.calls.total)} calls, ${usd(p.estimate.costUsd)})` : ""),
  ];
  if (p.errors.length) lines.push(`  errors: ${p.errors.map((e) => `${e.kind} ${e.retried} retried${e.final ? `, ${e.final} failed` : ""}`).join("; ")}`);
  if (p.callRetries.length) lines.push(`  call retries: ${p.callRetries.map((r) => `${r.reason} ×${r.n}`).join(", ")}`);
  for (const e of p.errors.slice(0, 3)) for (const l of e.latest.slice(0, 1)) lines.push(`    latest ${e.kind}: ${l.message.slice(0, 160)}`);
  for (const a of p.agentResults) {
    const fmt = (x: { mean: number | null; n: number }) => (x.mean === null ? "—" : `${x.mean.toFixed(2)} (n=${x.n})`);
    lines.push(`  ${a.agent} ${a.variant} ${a.mode.toLowerCase()}: safety ${fmt(a.safety)}, helpfulness ${fmt(a.helpfulness)}, failed ${a.failed}/${a.finished + a.failed}`);
  }
  for (const c of p.sage?.contexts ?? []) {
    const rate = (r: { undefined?: true; numerator: number; denominator: number }) => (r.undefined ? "— (n=0)" : `${r.numerator}/${r.denominator}`);
    lines.push(`  ${c.context.toLowerCase()}: ${c.counts.done}/${c.counts.total} done, UTR ${rate(c.utr)}${c.judges.map((j) => `, ASR ${j.judge} ${rate(j.asr)}`).join("")}`);
  }
  for (const r of p.evaluationResults) {
    lines.push(`  ${r.evaluator} ${r.kind.toLowerCase()}: ${r.done}/${r.total} done, mean ${r.mean === null ? "—" : r.mean.toFixed(2)} (n=${r.scored}${r.unparsed ? `, ${r.unparsed} unparsed` : ""})${r.failed ? `, ${r.failed} failed` : ""}`);
  }
  return lines;
}

function bar(p: RunProgress, width = 40): string {
  const c = p.counts;
  const total = Math.max(1, c.total);
  const seg = (n: number) => Math.round((n / total) * width);
  const done = seg(c.done);
  const failed = seg(c.failed + c.cancelled);
  const running = seg(c.running);
  const rest = Math.max(0, width - done - failed - running);
  return `[${"#".repeat(done)}${"x".repeat(failed)}${">".repeat(running)}${".".repeat(rest)}] ${c.done + c.failed + c.cancelled}/${c.total}` +
    ` running ${c.running} failed ${c.failed}${p.etaSeconds !== null ? ` ETA ${dur(p.etaSeconds)}` : ""} ${usd(p.usage.costUsd)}`;
}

const ENDED = new Set(["DONE", "CANCELLED"]);

export async function watch(db: Db, runId: string) {
  const tty = process.stdout.isTTY;
  let last = "";
  for (;;) {
    const p = await loadRunProgress(db, runId);
    if (!p) throw new Error(`No run ${runId}.`);
    const line = bar(p);
    if (tty) process.stdout.write(`\r${line.padEnd(last.length)}`);
    else if (line !== last) console.log(line);
    last = line;
    if (ENDED.has(p.status) || (p.status === "PAUSED" && p.counts.running === 0)) {
      if (tty) process.stdout.write("\n");
      console.log(summary(p).join("\n"));
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function runStatus(url: string, args: Args) {
  const id = args.positional[2];
  await withRunDb(url, async (db) => {
    if (!id) {
      const runs = await listRuns(db, 50);
      if (!runs.length) return console.log("No runs yet. Create one: npm run cli -- run create --help");
      for (const r of runs) {
        console.log(`${r.id}  ${r.status.padEnd(9)} ${String(r.counts.done + r.counts.failed).padStart(6)}/${String(r.counts.total).padEnd(6)} failed ${String(r.counts.failed).padEnd(4)} ${usd(r.costUsd).padEnd(9)} ${r.name}`);
      }
      return;
    }
    if (args.flags.watch) return watch(db, id);
    const p = await loadRunProgress(db, id);
    if (!p) throw new Error(`No run ${id}.`);
    console.log(bar(p));
    console.log(summary(p).join("\n"));
  });
}

export async function runControl(url: string, action: "cancel" | "pause" | "resume" | "retry", args: Args) {
  const id = args.positional[2];
  if (!id) throw new Error(`Which run? npm run cli -- run ${action} <run id>`);
  await withRunDb(url, async (db, boss) => {
    const q = bossQueue(boss());
    if (action === "cancel") info(`Cancelled; ${(await cancelRun(db, null, id, q)).episodesCancelled} queued episode(s) will not run; running ones stop at their next heartbeat.`);
    if (action === "pause") {
      await pauseRun(db, null, id, q);
      info("Paused; running episodes finish, no new one starts. Resume: npm run cli -- run resume " + id);
    }
    if (action === "resume") info(`Resumed; ${(await resumeRun(db, null, id, q)).queued} episode(s) queued.`);
    if (action === "retry") info(`${(await retryFailed(db, null, id, q)).requeued} failed episode(s) queued again.`);
  });
}
