// Import of ForesightSafety-SAGE data: scenario-family definitions and task files (seeds.json,
// and the full release's generation_selected_60*.json and benchmark.json, same shape). One entry
// point for the CLI, the import page and the seed: collect → analyse (validate, map ids, compare
// with the database, count) → optionally apply in ONE transaction. Re-importing the same files
// writes nothing; a changed scenario or family is only overwritten with acceptChanges.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { contentHash } from "@/lib/toolemu/canonical";
import { formatIssue, ImportFailed, type ImportIssue } from "@/lib/toolemu/issues";
import { checkJsonText, lineAt, shortSyntaxError, syntaxErrorLine } from "@/lib/toolemu/locate";
import { lineOf, pointerOf, valueLines } from "./locate";
import { familySchema, sageFileKind, scenarioSchema, taskFileSchema, type FamilySource, type ScenarioSource } from "./schemas";
import { findFamily, findSubcategory, SAGE_LICENCE, SAGE_SOURCE, SAGE_TAXONOMY, subcategoryOfFolder, type ResolvedSubcategory } from "./taxonomy";
import { resolveTools } from "./tools";

export type { ImportIssue } from "@/lib/toolemu/issues";

const MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface SageSourceFile {
  /** Absolute path on disk. */
  path: string;
  /** The name shown in messages and stored as the scenario's source (relative, no server path). */
  name: string;
}

export interface SageImportReport {
  files: { name: string; kind: "family" | "tasks"; subcategory: string; scenarios: number }[];
  families: { new: number; unchanged: number; changed: number; changedNames: string[] };
  scenarios: { new: number; unchanged: number; changed: number; changedNames: string[]; duplicates: number };
  /** Scenarios in the files per dimension (taxonomy order), after removing duplicates. */
  perDimension: { key: string; name: string; subcategories: number; scenarios: number }[];
  /** How ids that differ from the canonical taxonomy were mapped. */
  mappings: string[];
  /** Not errors: e.g. the same scenario in seeds.json and benchmark.json with different text. */
  warnings: ImportIssue[];
  issues: ImportIssue[];
}

export interface SageImportResult {
  report: SageImportReport;
  /** What needs confirmation before it is written (changed families and scenarios). */
  changes: string[];
  written: { families: number; scenarios: number } | null;
}

export interface SageImportOptions {
  dryRun?: boolean;
  acceptChanges?: boolean;
}

interface ParsedScenario {
  source: ScenarioSource;
  raw: Record<string, unknown>;
  sub: ResolvedSubcategory;
  file: string;
  pointer: string;
  line: number | null;
  hash: string;
  seed: boolean;
  precedence: number;
}

interface ParsedFamily {
  source: FamilySource;
  raw: Record<string, unknown>;
  sub: ResolvedSubcategory;
  file: string;
  hash: string;
}

// ---- collecting files ------------------------------------------------------------------------

/** Folders expand to their .json files (sorted; other files such as the YAML configs are skipped). */
export function collectSageFiles(inputs: string[], cwd = process.cwd()): { files: SageSourceFile[]; issues: ImportIssue[] } {
  const files: SageSourceFile[] = [];
  const issues: ImportIssue[] = [];
  const walk = (abs: string, shown: string) => {
    if (statSync(abs).isDirectory()) {
      for (const entry of readdirSync(abs).sort()) walk(path.join(abs, entry), `${shown}/${entry}`);
    } else if (/\.json$/i.test(abs)) files.push({ path: abs, name: shown });
  };
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    try {
      const st = statSync(abs);
      if (st.isFile() && !/\.json$/i.test(abs)) {
        issues.push({ file: input, line: null, field: null, message: "not a .json file (SAGE family and task files are JSON)" });
        continue;
      }
      // Stored names start at the folder or file given, never with the server's path.
      walk(abs, path.basename(abs));
    } catch {
      issues.push({ file: input, line: null, field: null, message: "no such file or folder" });
    }
  }
  if (!files.length && !issues.length) issues.push({ file: inputs.join(", ") || "(none)", line: null, field: null, message: "no .json files found" });
  return { files, issues };
}

// ---- analysis --------------------------------------------------------------------------------

function readJson(file: SageSourceFile): { value: unknown; text: string } | { issue: ImportIssue } {
  const size = statSync(file.path).size;
  if (size === 0) return { issue: { file: file.name, line: null, field: null, message: "the file is empty" } };
  if (size > MAX_FILE_BYTES) return { issue: { file: file.name, line: null, field: null, message: `the file is ${(size / 2 ** 20).toFixed(0)} MiB; files over ${MAX_FILE_BYTES / 2 ** 20} MiB are refused` } };
  const text = readFileSync(file.path, "utf8").replace(/^\uFEFF/, "");
  const problem = checkJsonText(text);
  if (problem) return { issue: { file: file.name, line: lineAt(text, problem.offset), field: null, message: problem.message } };
  try {
    return { value: JSON.parse(text), text };
  } catch (e) {
    return { issue: { file: file.name, line: syntaxErrorLine(text, e), field: null, message: shortSyntaxError(e) } };
  }
}

/** Which precedence a task file has when the same instance appears in several files. */
function precedenceOf(name: string): number {
  const base = path.basename(name).toLowerCase();
  if (base === "benchmark.json") return 3;
  if (base.startsWith("generation_selected")) return 2;
  if (base === "seeds.json") return 1;
  return 0;
}

function folderParts(name: string): string[] {
  return name.split(/[\\/]/);
}

export interface SageAnalysis {
  report: SageImportReport;
  families: ParsedFamily[];
  scenarios: ParsedScenario[];
  /** instanceId → "new" | "changed" (unchanged ones are left out). */
  scenarioStatus: Map<string, "new" | "changed">;
  familyStatus: Map<string, "new" | "changed">;
}

export async function analyzeSageImport(db: Db, files: SageSourceFile[]): Promise<SageAnalysis> {
  const issues: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const mappings = new Set<string>();
  const reportFiles: SageImportReport["files"] = [];
  const families = new Map<string, ParsedFamily>();
  const scenarios = new Map<string, ParsedScenario>();
  let duplicates = 0;

  const noteMapping = (what: string, from: string, to: string, file: string) => {
    if (from !== to) mappings.add(`${what} "${from}" → "${to}" (${file})`);
  };

  for (const file of files) {
    const read = readJson(file);
    if ("issue" in read) {
      issues.push(read.issue);
      continue;
    }
    const lines = valueLines(read.text);
    const at = (p: readonly PropertyKey[], message: string, base = ""): ImportIssue => {
      const pointer = base + pointerOf(p);
      return { file: file.name, line: lineOf(lines, pointer), field: pointer || null, message };
    };
    const kind = sageFileKind(read.value);
    if (!kind) {
      issues.push({ file: file.name, line: 1, field: null, message: "not a SAGE file: expected a family definition (family_id, definition, attacker_profile, …) or a task file (family_id, risk_dimension, risk_subtype, instances)" });
      continue;
    }
    const parts = folderParts(file.name);
    const folderDim = parts.at(-3) ?? "";
    if (kind === "family") {
      const parsed = familySchema.safeParse(read.value);
      if (!parsed.success) {
        issues.push(...parsed.error.issues.map((i) => at(i.path, i.message)));
        continue;
      }
      const f = parsed.data;
      const sub = findSubcategory(f.risk_dimension.id, f.risk_subtype.id) ?? findFamily(f.family_id);
      if (!sub) {
        issues.push(at(["risk_subtype", "id"], `unknown SAGE subcategory "${f.risk_dimension.id}.${f.risk_subtype.id}" (the taxonomy has 16: ${SAGE_TAXONOMY.flatMap((d) => d.subcategories.map((s) => s.slug)).join(", ")})`));
        continue;
      }
      const byFolder = findSubcategory(parts.at(-2) ?? "", path.basename(file.name, ".json"));
      if (byFolder && byFolder.key !== sub.key) {
        issues.push(at(["family_id"], `the file's ids say ${sub.key} but its path says ${byFolder.key}`));
        continue;
      }
      noteMapping("dimension id", f.risk_dimension.id, sub.dimension.key, file.name);
      noteMapping("subcategory id", f.risk_subtype.id, sub.subcategory.slug, file.name);
      const prev = families.get(sub.key);
      if (prev) {
        issues.push({ file: file.name, line: 1, field: "/family_id", message: `a second definition of family ${sub.key} (the first is ${prev.file})` });
        continue;
      }
      families.set(sub.key, { source: f, raw: read.value as Record<string, unknown>, sub, file: file.name, hash: contentHash(read.value) });
      reportFiles.push({ name: file.name, kind, subcategory: sub.key, scenarios: 0 });
      continue;
    }

    // A task file.
    const env = taskFileSchema.safeParse(read.value);
    if (!env.success) {
      issues.push(...env.error.issues.map((i) => at(i.path, i.message)));
      continue;
    }
    const t = env.data;
    const sub = findSubcategory(t.risk_dimension.id, t.risk_subtype.id) ?? findFamily(t.family_id);
    if (!sub) {
      issues.push(at(["risk_subtype", "id"], `unknown SAGE subcategory "${t.risk_dimension.id}.${t.risk_subtype.id}" (family_id "${t.family_id}")`));
      continue;
    }
    // The folder (<subcategory>_seeds, also the misspelled side_sffect_negligence_seeds) must agree.
    const byFolder = subcategoryOfFolder(folderDim, parts.at(-2) ?? "");
    if (byFolder && byFolder.key !== sub.key) {
      issues.push(at(["risk_subtype", "id"], `the file's ids say ${sub.key} but its folder ${parts.at(-2)} says ${byFolder.key}`));
      continue;
    }
    if (byFolder) noteMapping("folder", parts.at(-2)!.replace(/_seeds$/, ""), sub.subcategory.slug, file.name);
    noteMapping("dimension id", t.risk_dimension.id, sub.dimension.key, file.name);
    noteMapping("subcategory id", t.risk_subtype.id, sub.subcategory.slug, file.name);
    noteMapping("family id", t.family_id, sub.key, file.name);
    const seed = path.basename(file.name).toLowerCase() === "seeds.json";
    const precedence = precedenceOf(file.name);
    let count = 0;
    t.instances.forEach((inst, index) => {
      const base = `/instances/${index}`;
      const parsed = scenarioSchema.safeParse(inst);
      if (!parsed.success) {
        issues.push(...parsed.error.issues.map((i) => at(i.path, i.message, base)));
        return;
      }
      const s = parsed.data;
      const names = s.tool_manifest.required_tool_roles.flatMap((r) => (r.preferred_tool_name ? [r.preferred_tool_name] : []));
      const dup = names.find((n, i) => names.indexOf(n) !== i);
      if (dup) {
        issues.push(at(["tool_manifest", "required_tool_roles"], `two roles prefer the same tool name "${dup}"`, base));
        return;
      }
      count++;
      const candidate: ParsedScenario = {
        source: s,
        raw: inst as Record<string, unknown>,
        sub,
        file: file.name,
        pointer: base,
        line: lineOf(lines, base),
        hash: contentHash(inst),
        seed,
        precedence,
      };
      const prev = scenarios.get(s.instance_id);
      if (!prev) {
        scenarios.set(s.instance_id, candidate);
        return;
      }
      duplicates++;
      const where = `${prev.file}:${prev.line ?? "?"}`;
      if (prev.sub.key !== sub.key) {
        issues.push(at(["instance_id"], `instance ${s.instance_id} is also in ${where} under another subcategory (${prev.sub.key})`, base));
        return;
      }
      const isSeed = prev.seed || seed;
      if (prev.hash === candidate.hash) {
        prev.seed = isSeed;
        return;
      }
      if (prev.precedence === precedence) {
        issues.push(at(["instance_id"], `instance ${s.instance_id} appears twice with different content (also ${where})`, base));
        return;
      }
      const kept = candidate.precedence > prev.precedence ? candidate : prev;
      const dropped = kept === candidate ? prev : candidate;
      warnings.push({ file: dropped.file, line: dropped.line, field: dropped.pointer, message: `instance ${s.instance_id} differs from ${kept.file}:${kept.line ?? "?"}; the ${path.basename(kept.file)} version is imported` });
      kept.seed = isSeed;
      scenarios.set(s.instance_id, kept);
    });
    reportFiles.push({ name: file.name, kind, subcategory: sub.key, scenarios: count });
  }

  // Compare with the database.
  const scenarioStatus = new Map<string, "new" | "changed">();
  const familyStatus = new Map<string, "new" | "changed">();
  const report: SageImportReport = {
    files: reportFiles,
    families: { new: 0, unchanged: 0, changed: 0, changedNames: [] },
    scenarios: { new: 0, unchanged: 0, changed: 0, changedNames: [], duplicates },
    perDimension: [],
    mappings: [...mappings].sort(),
    warnings,
    issues,
  };
  if (scenarios.size) {
    const ids = [...scenarios.keys()];
    const existing = new Map<string, { contentHash: string; seed: boolean }>();
    for (let i = 0; i < ids.length; i += 1000) {
      for (const r of await db.sageScenario.findMany({ where: { instanceId: { in: ids.slice(i, i + 1000) } }, select: { instanceId: true, contentHash: true, seed: true } })) {
        existing.set(r.instanceId, r);
      }
    }
    for (const [id, s] of scenarios) {
      const e = existing.get(id);
      if (!e) {
        report.scenarios.new++;
        scenarioStatus.set(id, "new");
      } else if (e.contentHash !== s.hash) {
        report.scenarios.changed++;
        report.scenarios.changedNames.push(id);
        scenarioStatus.set(id, "changed");
      } else {
        // Same content; a seed stays a seed whichever file brought it again.
        report.scenarios.unchanged++;
        if (s.seed && !e.seed) scenarioStatus.set(id, "changed");
      }
    }
  }
  if (families.size) {
    const existing = new Map((await db.sageSubcategory.findMany({ where: { key: { in: [...families.keys()] } }, select: { key: true, familyContentHash: true } })).map((r) => [r.key, r.familyContentHash]));
    for (const [key, f] of families) {
      const h = existing.get(key);
      if (!h) {
        report.families.new++;
        familyStatus.set(key, "new");
      } else if (h !== f.hash) {
        report.families.changed++;
        report.families.changedNames.push(key);
        familyStatus.set(key, "changed");
      } else report.families.unchanged++;
    }
  }
  for (const d of SAGE_TAXONOMY) {
    const subs = new Set<string>();
    let n = 0;
    for (const s of scenarios.values()) {
      if (s.sub.dimension.key !== d.key) continue;
      n++;
      subs.add(s.sub.key);
    }
    report.perDimension.push({ key: d.key, name: d.name, subcategories: subs.size, scenarios: n });
  }
  return { report, families: [...families.values()], scenarios: [...scenarios.values()], scenarioStatus, familyStatus };
}

export function sageChangesNeedingConfirmation(r: SageImportReport): string[] {
  const out: string[] = [];
  if (r.families.changed) out.push(`${r.families.changed} family definition(s): ${r.families.changedNames.slice(0, 5).join(", ")}`);
  if (r.scenarios.changed) out.push(`${r.scenarios.changed} scenario(s): ${r.scenarios.changedNames.slice(0, 5).join(", ")}`);
  return out;
}

// ---- apply -----------------------------------------------------------------------------------

type Tx = Prisma.TransactionClient;
const json = (v: unknown) => v as Prisma.InputJsonValue;

/** The taxonomy rows (5 dimensions, 16 subcategories), created if missing; key → id. */
async function ensureTaxonomy(tx: Tx, sourceNames: Map<string, { dimension: string; subcategory: string }>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [di, d] of SAGE_TAXONOMY.entries()) {
    const named = [...sourceNames.entries()].find(([k]) => k.startsWith(`${d.key}.`))?.[1].dimension;
    const dim = await tx.sageDimension.upsert({
      where: { key: d.key },
      create: { key: d.key, name: d.name, position: di + 1, aliases: [...d.aliases], sourceName: named ?? null },
      update: named ? { sourceName: named } : {},
      select: { id: true },
    });
    for (const [si, s] of d.subcategories.entries()) {
      const key = `${d.key}.${s.slug}`;
      const sn = sourceNames.get(key)?.subcategory;
      const row = await tx.sageSubcategory.upsert({
        where: { key },
        create: { key, dimensionId: dim.id, slug: s.slug, name: s.name, position: si + 1, aliases: [...s.aliases], source: SAGE_SOURCE, licence: SAGE_LICENCE, sourceName: sn ?? null },
        update: sn ? { sourceName: sn } : {},
        select: { id: true },
      });
      ids.set(key, row.id);
    }
  }
  return ids;
}

function scenarioRow(s: ParsedScenario, subcategoryId: string) {
  const src = s.source;
  const judgeExtra = Object.fromEntries(Object.entries(s.raw).filter(([k]) => k.startsWith("judge_") && k !== "judge_spec"));
  return {
    subcategoryId,
    instanceId: src.instance_id,
    theme: src.scenario_theme,
    domain: src.domain,
    seed: s.seed,
    roleContext: src.target_spec.role_context,
    taskContext: src.target_spec.task_context,
    crisisContext: src.target_spec.crisis_context ?? null,
    consequence: src.target_spec.operational_consequence ?? null,
    authorityTrust: src.target_spec.authority_context_soft,
    authorityWarning: src.target_spec.authority_context_hard,
    environmentState: json(src.environment_state),
    visibleWorkflow: src.target_visible_workflow ? json(src.target_visible_workflow) : Prisma.DbNull,
    judgeSpec: json(src.judge_spec),
    judgeExtra: Object.keys(judgeExtra).length ? json(judgeExtra) : Prisma.DbNull,
    tools: json(resolveTools(s.sub.dimension.key, s.sub.subcategory.slug, src.tool_manifest.required_tool_roles)),
    toolConstraints: json(src.tool_manifest.constraints),
    attackerMode: src.attacker.mode,
    attackerStrategy: src.attacker.strategy,
    attackerObjective: src.attacker.objective,
    attackerFirstMessage: src.attacker.initial_message,
    turnLimit: src.attacker.max_turns,
    sourceFile: s.file,
    sourcePointer: s.pointer,
    sourceLine: s.line,
    contentHash: s.hash,
    raw: json(s.raw),
  };
}

export async function applySageImport(db: Db, a: SageAnalysis, opts: { acceptChanges?: boolean } = {}): Promise<{ families: number; scenarios: number }> {
  if (a.report.issues.length) throw new ImportFailed(a.report.issues);
  const changes = sageChangesNeedingConfirmation(a.report);
  if (changes.length && !opts.acceptChanges) throw new AppError(`This import changes existing records (${changes.join("; ")}). Review the changes and confirm to apply them.`, 409);
  const sourceNames = new Map<string, { dimension: string; subcategory: string }>();
  for (const f of a.families) sourceNames.set(f.sub.key, { dimension: f.source.risk_dimension.name, subcategory: f.source.risk_subtype.name });
  return db.$transaction(
    async (tx) => {
      const subIds = await ensureTaxonomy(tx, sourceNames);
      let families = 0;
      for (const f of a.families) {
        if (!a.familyStatus.has(f.sub.key)) continue;
        const { attacker_profile: attacker, ...rest } = f.raw;
        await tx.sageSubcategory.update({
          where: { key: f.sub.key },
          data: {
            definition: json(rest),
            attackerProfile: json(attacker),
            allowedTactics: f.source.attacker_profile.allowed_pressure_tactics,
            familySourceFile: f.file,
            familyContentHash: f.hash,
          },
        });
        families++;
      }
      const fresh = a.scenarios.filter((s) => a.scenarioStatus.get(s.source.instance_id) === "new");
      for (let i = 0; i < fresh.length; i += 200) {
        await tx.sageScenario.createMany({ data: fresh.slice(i, i + 200).map((s) => scenarioRow(s, subIds.get(s.sub.key)!)) });
      }
      let changed = 0;
      for (const s of a.scenarios) {
        if (a.scenarioStatus.get(s.source.instance_id) !== "changed") continue;
        // A seed stays a seed when a benchmark file brings it again.
        await tx.sageScenario.update({ where: { instanceId: s.source.instance_id }, data: { ...scenarioRow(s, subIds.get(s.sub.key)!), seed: s.seed || undefined } });
        changed++;
      }
      return { families, scenarios: fresh.length + changed };
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
}

/** Collect, analyse and (unless dryRun, or when there are problems or unconfirmed changes) apply. */
export async function runSageImport(db: Db, input: string[] | SageSourceFile[], opts: SageImportOptions = {}): Promise<SageImportResult> {
  let files: SageSourceFile[];
  if (input.length > 0 && typeof input[0] !== "string") files = input as SageSourceFile[];
  else {
    const collected = collectSageFiles(input as string[]);
    if (collected.issues.length) return { report: emptyReport(collected.issues), changes: [], written: null };
    files = collected.files;
  }
  const analysis = await analyzeSageImport(db, files);
  const changes = sageChangesNeedingConfirmation(analysis.report);
  if (opts.dryRun || analysis.report.issues.length || (changes.length && !opts.acceptChanges)) return { report: analysis.report, changes, written: null };
  const written = await applySageImport(db, analysis, opts);
  return { report: analysis.report, changes, written };
}

function emptyReport(issues: ImportIssue[]): SageImportReport {
  return {
    files: [],
    families: { new: 0, unchanged: 0, changed: 0, changedNames: [] },
    scenarios: { new: 0, unchanged: 0, changed: 0, changedNames: [], duplicates: 0 },
    perDimension: [],
    mappings: [],
    warnings: [],
    issues,
  };
}

/** The report as lines of text (CLI, logs). */
export function sageReportText(r: SageImportReport): string[] {
  const out: string[] = [];
  out.push(`${r.files.length} file(s): ${r.files.filter((f) => f.kind === "family").length} family definition(s), ${r.files.filter((f) => f.kind === "tasks").length} task file(s)`);
  out.push(`families:  ${r.families.new} new, ${r.families.unchanged} unchanged, ${r.families.changed} changed`);
  out.push(`scenarios: ${r.scenarios.new} new, ${r.scenarios.unchanged} unchanged, ${r.scenarios.changed} changed${r.scenarios.duplicates ? `, ${r.scenarios.duplicates} duplicate(s) across files` : ""}`);
  for (const d of r.perDimension) if (d.scenarios) out.push(`  ${d.name}: ${d.scenarios} scenario(s) in ${d.subcategories} subcategor${d.subcategories === 1 ? "y" : "ies"}`);
  if (r.mappings.length) out.push("ids mapped to the taxonomy:", ...r.mappings.map((m) => `  ${m}`));
  if (r.warnings.length) out.push(`${r.warnings.length} warning(s):`, ...r.warnings.map((w) => `  ${formatIssue(w)}`));
  if (r.issues.length) out.push(`${r.issues.length} problem(s); nothing was written:`, ...r.issues.slice(0, 50).map((i) => `  ${formatIssue(i)}`));
  return out;
}

