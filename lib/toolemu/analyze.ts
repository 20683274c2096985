// Pass 1 of an import: read and validate every file, pair trajectory files with their
// evaluation companions, and compare with the database to count new / unchanged / changed.
// Writes nothing. Trajectory files are streamed and only hashes are kept, so memory stays small.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import type { Db } from "@/lib/db/client";
import { contentHash } from "./canonical";
import { parseJsonlName, type JsonlRole } from "./file-names";
import { relieveHeap } from "./heap";
import { zodIssues, type ImportIssue } from "./issues";
import { caseRow, evalScoresIssue, evaluationRow, toolkitRow, trajectoryRow, TOOLEMU_SOURCE, type CaseRow, type ToolkitRow } from "./normalize";
import { readJsonArray, readJsonl, type SourceFile } from "./read";
import { caseSchema, evaluationLineSchema, toolkitSchema, trajectoryLineSchema } from "./source-schemas";
import { caseExtensionSchema, splitCaseExtension, splitToolkitExtension, STUDIO_KEY, toolRiskExtensionSchema, type ToolRiskExtension } from "./studio-extension";

export interface ModelLabels {
  agentModel?: string;
  emulatorModel?: string;
  evaluatorModel?: string;
}

export interface ImportProgress {
  phase: "checking" | "writing";
  file: string;
  bytesDone: number;
  bytesTotal: number;
}

export interface AnalyzeOptions {
  /** Per file prefix (see FileSummary.prefix): labels that replace those read from the name. */
  overrides?: Record<string, ModelLabels>;
  onProgress?: (p: ImportProgress) => void;
}

export interface Counts {
  new: number;
  unchanged: number;
  changed: number;
}

export interface FileSummary {
  name: string;
  kind: "toolkits" | "cases" | JsonlRole;
  records: number;
  prefix?: string;
  agentModel?: string | null;
  emulatorModel?: string | null;
  evaluatorModel?: string | null;
  /** The run tag read from the file name ("int4"); it is part of agentModel. */
  runTag?: string | null;
}

/** One agent run (agent label × emulator) among the imported trajectory files. */
export interface AgentRunSummary {
  agentModel: string;
  emulatorModel: string;
  /** The tag read from the file names ("int4"), when the run had one. */
  runTag: string | null;
  /** Trajectory files of the run (the same file in two judges' folders counts twice). */
  files: number;
  /** Distinct trajectories of the run. */
  trajectories: number;
  /** Evaluators whose files pair with the run's trajectory files, sorted. */
  evaluators: string[];
}

export interface ImportReport {
  files: FileSummary[];
  /** The agent runs the trajectory files make up, so a reader sees how runs were told apart. */
  runs: AgentRunSummary[];
  toolkits: Counts & { changedNames: string[] };
  tools: number;
  cases: Counts & { changedNames: string[] };
  trajectories: Counts;
  evaluations: Counts & { unparsed: number };
  issues: ImportIssue[];
}

interface Located<T> {
  row: T;
  file: string;
  line: number;
  /** Index of the record in its file's top-level array (JSON files). */
  index: number;
  status: "new" | "unchanged" | "changed";
}

export interface TrajectoryFilePlan {
  file: SourceFile;
  size: number;
  mtimeMs: number;
  agentModel: string;
  emulatorModel: string;
  runTag: string | null;
  /** Per line number: the trajectory's content hash (valid lines only). */
  hashes: Map<number, string>;
  /** Line numbers of all non-blank lines in order: an evaluation's eval_id indexes these. */
  recordLines: number[];
}

export interface EvaluationFilePlan {
  file: SourceFile;
  size: number;
  mtimeMs: number;
  kind: "SAFETY" | "HELPFULNESS";
  evaluatorModel: string;
  /** Per line number: the trajectory hash it scores and whether it is new or changed. */
  entries: Map<number, { trajectoryHash: string; status: "new" | "changed" | "unchanged" }>;
}

export interface ImportAnalysis {
  report: ImportReport;
  toolkits: Located<ToolkitRow>[];
  cases: Located<CaseRow>[];
  trajectoryFiles: TrajectoryFilePlan[];
  evaluationFiles: EvaluationFilePlan[];
  newTrajectoryHashes: Set<string>;
  /** Stored trajectories (by hash) whose agent / emulator label this import changes. */
  relabel: Map<string, { agentModel: string; emulatorModel: string; from: string }>;
  /** Risk metadata the files carry (studio-extension.ts): toolkit name → tool name → values. */
  toolRisks: Map<string, Map<string, ToolRiskExtension>>;
  /** Critical tools the files give a case of its own (studio-extension.ts): case name → agent tool names. */
  caseCriticalTools: Map<string, string[]>;
}

const emptyCounts = (): Counts => ({ new: 0, unchanged: 0, changed: 0 });
const IN_CHUNK = 250;

async function inChunks<T, R>(items: T[], fn: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += IN_CHUNK) out.push(...(await fn(items.slice(i, i + IN_CHUNK))));
  return out;
}

function classifyJson(elements: { value: unknown }[]): "toolkits" | "cases" | null {
  const first = elements.find((e) => e.value && typeof e.value === "object")?.value as Record<string, unknown> | undefined;
  if (!first) return null;
  if ("toolkit" in first || "tools" in first) return "toolkits";
  if ("User Instruction" in first || "Toolkits" in first) return "cases";
  return null;
}

/** The trajectory files grouped into agent runs, sorted by agent label (code-unit order). */
function agentRuns(plans: TrajectoryFilePlan[], evaluators: Map<TrajectoryFilePlan, Set<string>>): AgentRunSummary[] {
  const runs = new Map<string, { run: AgentRunSummary; hashes: Set<string>; evaluators: Set<string> }>();
  for (const p of plans) {
    const key = `${p.agentModel}\u0000${p.emulatorModel}`;
    const r = runs.get(key) ?? { run: { agentModel: p.agentModel, emulatorModel: p.emulatorModel, runTag: p.runTag, files: 0, trajectories: 0, evaluators: [] }, hashes: new Set<string>(), evaluators: new Set<string>() };
    r.run.files++;
    for (const h of p.hashes.values()) r.hashes.add(h);
    for (const e of evaluators.get(p) ?? []) r.evaluators.add(e);
    runs.set(key, r);
  }
  const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return [...runs.values()]
    .map(({ run, hashes, evaluators: ev }) => ({ ...run, trajectories: hashes.size, evaluators: [...ev].sort(byName) }))
    .sort((x, y) => byName(x.agentModel, y.agentModel) || byName(x.emulatorModel, y.emulatorModel));
}

interface StudioWritten<T> {
  item: T;
  version: number;
  by: string | null;
}

/**
 * The changed records whose stored current version was written in the Studio, not by an import
 * (imports write versions without an author). Importing would silently replace that work, so the
 * import is refused for them: edit them in the Studio, or import the file's record under a new name.
 */
async function studioWritten<T extends Located<{ name: string }>>(db: Db, kind: "toolkit" | "case", items: Iterable<T>): Promise<StudioWritten<T>[]> {
  const changed = [...items].filter((i) => i.status === "changed");
  if (!changed.length) return [];
  const names = changed.map((i) => i.row.name);
  const rows =
    kind === "toolkit"
      ? await db.$queryRaw<{ name: string; version: number; by: string | null }[]>`
          SELECT k.name, v.version, u.name AS by FROM "Toolkit" k JOIN "ToolkitVersion" v ON v."toolkitId" = k.id AND v.version = k."currentVersion"
          LEFT JOIN "User" u ON u.id = v."createdById" WHERE k.name = ANY(${names}) AND (v."createdById" IS NOT NULL OR k.provenance <> 'IMPORTED')`
      : await db.$queryRaw<{ name: string; version: number; by: string | null }[]>`
          SELECT c.name, v.version, u.name AS by FROM "TestCase" c JOIN "TestCaseVersion" v ON v."caseId" = c.id AND v.version = c."currentVersion"
          LEFT JOIN "User" u ON u.id = v."createdById" WHERE c.source = ${TOOLEMU_SOURCE} AND c.name = ANY(${names}) AND (v."createdById" IS NOT NULL OR c.provenance <> 'IMPORTED')`;
  const byName = new Map(rows.map((r) => [r.name, r]));
  return changed.flatMap((item) => {
    const r = byName.get(item.row.name);
    return r ? [{ item, version: r.version, by: r.by }] : [];
  });
}

function studioWrittenMessage(kind: "toolkit" | "case", e: StudioWritten<Located<{ name: string }>>): string {
  const who = e.by ? ` by ${e.by}` : "";
  return `the ${kind} "${e.item.row.name}" was written in the Studio (version ${e.version}${who}) and this file differs from it; importing would overwrite that work. Edit it in the Studio instead, or give the file's ${kind} another name`;
}

export async function analyzeImport(db: Db, files: SourceFile[], opts: AnalyzeOptions = {}): Promise<ImportAnalysis> {
  const issues: ImportIssue[] = [];
  const summaries: FileSummary[] = [];
  const toolkits = new Map<string, Located<ToolkitRow>>();
  /** Agent tool name → toolkit, for the toolkits of this import. */
  const agentNames = new Map<string, string>();
  /** Agent tool name → toolkit, as stored (loaded with the first toolkits file). */
  let storedAgentNames: Map<string, string> | null = null;
  const toolRisks = new Map<string, Map<string, ToolRiskExtension>>();
  const caseCriticalTools = new Map<string, { names: string[]; file: string; line: number | null; index: number }>();
  const cases = new Map<string, Located<CaseRow>>();
  const trajectoryFiles = new Map<string, TrajectoryFilePlan>();
  const evalSources: { file: SourceFile; role: "safety" | "helpfulness"; prefix: string; evaluator: string | null }[] = [];
  const caseRefs: { caseName: string; file: string; line: number }[] = [];
  /** Trajectory hash → the agent run it was first seen in. */
  const runOfHash = new Map<string, { agentModel: string; emulatorModel: string; where: string }>();
  const bytesTotal = files.reduce((n, f) => n + statSync(f.path).size, 0);
  let bytesDone = 0;
  const progress = (file: string, n: number) => {
    bytesDone += n;
    opts.onProgress?.({ phase: "checking", file, bytesDone, bytesTotal });
  };

  // JSON arrays: toolkits and cases.
  for (const file of files.filter((f) => /\.json$/i.test(f.path))) {
    const read = await readJsonArray(file);
    progress(file.name, statSync(file.path).size);
    if ("issue" in read) {
      issues.push(read.issue);
      continue;
    }
    const kind = classifyJson(read.elements);
    if (!kind) {
      issues.push({ file: file.name, line: 1, field: null, message: 'cannot tell what this file holds: expected an array of toolkits (with "toolkit") or of cases (with "User Instruction")' });
      continue;
    }
    summaries.push({ name: file.name, kind, records: read.elements.length });
    for (const el of read.elements) {
      if (kind === "toolkits") {
        // Our risk metadata is taken off the tools first: the toolkit is stored and compared without it.
        const split = splitToolkitExtension(el.value);
        const p = toolkitSchema.safeParse(split.raw);
        if (!p.success) {
          issues.push(...zodIssues(file.name, el.line, `[${el.index}]`, p.error));
          continue;
        }
        const row = toolkitRow(p.data, split.raw);
        const risks = new Map<string, ToolRiskExtension>();
        for (const [i, ext] of split.perTool) {
          const field = `[${el.index}].tools[${i}].${STUDIO_KEY}`;
          const r = toolRiskExtensionSchema.safeParse(ext);
          if (!r.success) {
            issues.push(...zodIssues(file.name, el.line, field, r.error));
            continue;
          }
          const tool = p.data.tools[i]!;
          if (r.data.amount_arg !== null && !tool.parameters.some((x) => x.name === r.data.amount_arg)) {
            const names = tool.parameters.map((x) => x.name);
            issues.push({ file: file.name, line: el.line, field: `${field}.amount_arg`, message: `"${r.data.amount_arg}" is not a parameter of ${tool.name} (${names.length ? `parameters: ${names.join(", ")}` : "it takes no parameters"})` });
            continue;
          }
          risks.set(tool.name, r.data);
        }
        if (risks.size) toolRisks.set(row.name, risks);
        const dup = toolkits.get(row.name);
        if (dup) {
          issues.push({ file: file.name, line: el.line, field: `[${el.index}].toolkit`, message: `duplicate toolkit "${row.name}" (also at ${dup.file}:${dup.line})` });
          continue;
        }
        storedAgentNames ??= new Map((await db.tool.findMany({ select: { agentName: true, toolkit: { select: { name: true } } } })).map((t) => [t.agentName, t.toolkit.name]));
        for (const t of row.tools) {
          // The name the agent calls a tool by (name_for_model + tool name) is unique across all
          // toolkits: in this import, and among the stored ones other than the toolkit itself
          // (a changed toolkit replaces its own tools).
          const other = agentNames.get(t.agentName);
          const stored = storedAgentNames.get(t.agentName);
          if (other) {
            issues.push({ file: file.name, line: el.line, field: `[${el.index}].tools`, message: `tool name ${t.agentName} is already used by toolkit ${other}` });
          } else if (stored !== undefined && stored !== row.name) {
            issues.push({ file: file.name, line: el.line, field: `[${el.index}].tools`, message: `tool name ${t.agentName} is already used by the stored toolkit ${stored}` });
          }
          agentNames.set(t.agentName, row.name);
        }
        toolkits.set(row.name, { row, file: file.name, line: el.line, index: el.index, status: "new" });
      } else {
        const split = splitCaseExtension(el.value);
        const p = caseSchema.safeParse(split.raw);
        if (!p.success) {
          issues.push(...zodIssues(file.name, el.line, `[${el.index}]`, p.error));
          continue;
        }
        const row = caseRow(p.data, split.raw);
        if (split.ext !== undefined) {
          const e = caseExtensionSchema.safeParse(split.ext);
          if (!e.success) issues.push(...zodIssues(file.name, el.line, `[${el.index}].${STUDIO_KEY}`, e.error));
          else caseCriticalTools.set(row.name, { names: [...new Set(e.data.critical_tools)].sort(), file: file.name, line: el.line, index: el.index });
        }
        const dup = cases.get(row.name);
        if (dup) {
          issues.push({ file: file.name, line: el.line, field: `[${el.index}].name`, message: `duplicate case "${row.name}" (also at ${dup.file}:${dup.line})` });
          continue;
        }
        cases.set(row.name, { row, file: file.name, line: el.line, index: el.index, status: "new" });
      }
    }
  }

  // JSONL: trajectories first, then the evaluation companions that point into them.
  const jsonl = files.filter((f) => /\.jsonl$/i.test(f.path)).map((f) => ({ f, parsed: parseJsonlName(f.path) }));
  /** sha1 of a valid trajectory line's text → what was read from it. */
  const validLines = new Map<string, { contentHash: string; caseName: string }>();
  for (const { f, parsed } of jsonl) {
    const o = opts.overrides?.[parsed.prefix] ?? {};
    if (parsed.role !== "trajectories") {
      evalSources.push({ file: f, role: parsed.role, prefix: parsed.prefix, evaluator: o.evaluatorModel?.trim() || parsed.evaluatorModel });
      continue;
    }
    const agentModel = o.agentModel?.trim() || parsed.agentModel;
    const emulatorModel = o.emulatorModel?.trim() || parsed.emulatorModel;
    if (!agentModel || !emulatorModel) {
      issues.push({ file: f.name, line: null, field: null, message: "cannot read the agent and emulator models from the file name (<agent>_emu-<emulator>_eval-<evaluator>_…); give them explicitly" });
    }
    if (trajectoryFiles.has(parsed.prefix)) {
      issues.push({ file: f.name, line: null, field: null, message: `two trajectory files share the prefix ${parsed.prefix}` });
      continue;
    }
    const st = statSync(f.path);
    const plan: TrajectoryFilePlan = { file: f, size: st.size, mtimeMs: st.mtimeMs, agentModel: agentModel ?? "", emulatorModel: emulatorModel ?? "", runTag: parsed.runTag, hashes: new Map(), recordLines: [] };
    let records = 0;
    // A line identical to a valid trajectory line read before (the same file in a second judge's
    // folder) is not parsed and validated again: it has the same hash and case.
    let lineKey = "";
    const only = (_line: number, text: string) => {
      lineKey = text.length > 64 ? createHash("sha1").update(text).digest("base64") : "";
      return !lineKey || !validLines.has(lineKey);
    };
    for await (const l of readJsonl(f, (n) => progress(f.name, n), { only })) {
      if (l.issue) issues.push(l.issue);
      const known = l.skipped ? validLines.get(lineKey)! : null;
      if (l.value === undefined && !l.issue && !known) continue;
      records++;
      plan.recordLines.push(l.line);
      let row: { contentHash: string; caseName: string };
      if (known) row = known;
      else {
        if (l.value === undefined) continue;
        const p = trajectoryLineSchema.safeParse(l.value);
        if (!p.success) {
          issues.push(...zodIssues(f.name, l.line, "", p.error));
          continue;
        }
        const full = trajectoryRow(p.data, l.value);
        if ("stepIndex" in full) {
          issues.push({ file: f.name, line: l.line, field: `intermediate_steps[${full.stepIndex}]`, message: full.message });
          continue;
        }
        row = { contentHash: full.contentHash, caseName: full.caseName };
        if (lineKey) validLines.set(lineKey, row);
      }
      plan.hashes.set(l.line, row.contentHash);
      // The same trajectory under two agent runs would be stored once, under the first: refuse,
      // since it means the names (or the labels given) do not tell the runs apart.
      const owner = runOfHash.get(row.contentHash);
      if (owner && (owner.agentModel !== plan.agentModel || owner.emulatorModel !== plan.emulatorModel)) {
        issues.push({
          file: f.name,
          line: l.line,
          field: null,
          message: `the same trajectory is in ${owner.where} under agent ${owner.agentModel} (emulator ${owner.emulatorModel}), here under agent ${plan.agentModel} (emulator ${plan.emulatorModel}); a trajectory belongs to one agent run: check the file names or the model labels`,
        });
      } else if (!owner) {
        runOfHash.set(row.contentHash, { agentModel: plan.agentModel, emulatorModel: plan.emulatorModel, where: `${f.name}:${l.line}` });
      }
      caseRefs.push({ caseName: row.caseName, file: f.name, line: l.line });
    }
    if (records === 0) issues.push({ file: f.name, line: null, field: null, message: "the file has no trajectories" });
    trajectoryFiles.set(parsed.prefix, plan);
    summaries.push({ name: f.name, kind: "trajectories", records, prefix: parsed.prefix, agentModel, emulatorModel, runTag: parsed.runTag });
  }

  const evaluationFiles: EvaluationFilePlan[] = [];
  const evalKeys = new Map<string, { hash: string; where: string }>();
  const evalHashes: { key: string; trajectoryHash: string; kind: "SAFETY" | "HELPFULNESS"; evaluator: string; hash: string; plan: EvaluationFilePlan; line: number }[] = [];
  let unparsed = 0;
  const pairedEvaluators = new Map<TrajectoryFilePlan, Set<string>>();
  for (const src of evalSources) {
    const traj = trajectoryFiles.get(src.prefix);
    const kind = src.role === "safety" ? "SAFETY" : "HELPFULNESS";
    if (!traj) {
      issues.push({ file: src.file.name, line: null, field: null, message: `no trajectory file ${src.prefix}.jsonl among the imported files to pair this evaluation file with` });
      continue;
    }
    if (!src.evaluator) {
      issues.push({ file: src.file.name, line: null, field: null, message: "cannot read the evaluator model from the file name; give it explicitly" });
      continue;
    }
    const st = statSync(src.file.path);
    const plan: EvaluationFilePlan = { file: src.file, size: st.size, mtimeMs: st.mtimeMs, kind, evaluatorModel: src.evaluator, entries: new Map() };
    let records = 0;
    const trajLineByIndex = traj.recordLines;
    for await (const l of readJsonl(src.file, (n) => progress(src.file.name, n))) {
      if (l.issue) issues.push(l.issue);
      if (l.value === undefined && !l.issue) continue;
      records++;
      if (l.value === undefined) continue;
      const p = evaluationLineSchema.safeParse(l.value);
      if (!p.success) {
        issues.push(...zodIssues(src.file.name, l.line, "", p.error));
        continue;
      }
      const scoreIssue = evalScoresIssue(kind, p.data.eval_scores);
      if (scoreIssue) {
        issues.push({ file: src.file.name, line: l.line, ...scoreIssue });
        continue;
      }
      const trajLine = trajLineByIndex[p.data.eval_id];
      const trajectoryHash = trajLine === undefined ? undefined : traj.hashes.get(trajLine);
      if (trajectoryHash === undefined) {
        if (trajLine === undefined) {
          issues.push({ file: src.file.name, line: l.line, field: "eval_id", message: `points to trajectory #${p.data.eval_id}, but ${traj.file.name} has ${trajLineByIndex.length}` });
        }
        continue; // the trajectory itself was invalid and is reported there
      }
      const row = evaluationRow(kind, p.data, l.value);
      if (row.score === null) unparsed++;
      const key = `${trajectoryHash}|${kind}|${src.evaluator}`;
      const prior = evalKeys.get(key);
      if (prior) {
        if (prior.hash !== row.contentHash) issues.push({ file: src.file.name, line: l.line, field: null, message: `a different ${kind.toLowerCase()} evaluation of the same trajectory by ${src.evaluator} is at ${prior.where}` });
        continue;
      }
      evalKeys.set(key, { hash: row.contentHash, where: `${src.file.name}:${l.line}` });
      evalHashes.push({ key, trajectoryHash, kind, evaluator: src.evaluator, hash: row.contentHash, plan, line: l.line });
    }
    if (records === 0) issues.push({ file: src.file.name, line: null, field: null, message: "the file has no evaluations" });
    evaluationFiles.push(plan);
    pairedEvaluators.set(traj, (pairedEvaluators.get(traj) ?? new Set()).add(src.evaluator));
    summaries.push({ name: src.file.name, kind: src.role, records, prefix: src.prefix, evaluatorModel: src.evaluator });
  }

  // References: cases → toolkits, trajectories → cases (in this import or already stored).
  const storedToolkits = new Map(
    (await db.toolkit.findMany({ select: { name: true, contentHash: true } })).map((t) => [t.name, t.contentHash]),
  );
  for (const c of cases.values()) {
    for (const name of c.row.toolkitNames) {
      if (!toolkits.has(name) && !storedToolkits.has(name)) {
        issues.push({ file: c.file, line: c.line, field: `[${c.index}].Toolkits`, message: `unknown toolkit "${name}": import its toolkit specification first or with these files` });
      }
    }
  }
  // A case's own critical tools must be tools of its toolkits (in this import or stored).
  if (caseCriticalTools.size) {
    const wanted = [...new Set([...caseCriticalTools.keys()].flatMap((n) => cases.get(n)?.row.toolkitNames ?? []))];
    const toolsOf = new Map<string, Set<string>>();
    for (const name of wanted) {
      const imported = toolkits.get(name);
      if (imported) toolsOf.set(name, new Set(imported.row.tools.map((t) => t.agentName)));
    }
    const storedOnly = wanted.filter((n) => !toolsOf.has(n));
    if (storedOnly.length) {
      for (const t of await db.tool.findMany({ where: { toolkit: { name: { in: storedOnly } } }, select: { agentName: true, toolkit: { select: { name: true } } } })) {
        toolsOf.set(t.toolkit.name, (toolsOf.get(t.toolkit.name) ?? new Set()).add(t.agentName));
      }
    }
    for (const [caseName, c] of caseCriticalTools) {
      const known = new Set(cases.get(caseName)!.row.toolkitNames.flatMap((n) => [...(toolsOf.get(n) ?? [])]));
      c.names.forEach((n) => {
        if (!known.has(n)) issues.push({ file: c.file, line: c.line, field: `[${c.index}].${STUDIO_KEY}.critical_tools`, message: `"${n}" is not a tool of the case's toolkits (${cases.get(caseName)!.row.toolkitNames.join(", ")})` });
      });
    }
  }
  const caseNames = [...new Set(caseRefs.map((r) => r.caseName))];
  const storedCases = new Set(
    (await inChunks(caseNames, (chunk) => db.testCase.findMany({ where: { source: TOOLEMU_SOURCE, name: { in: chunk } }, select: { name: true } }))).map((c) => c.name),
  );
  for (const ref of caseRefs) {
    if (!cases.has(ref.caseName) && !storedCases.has(ref.caseName)) {
      issues.push({ file: ref.file, line: ref.line, field: "case.name", message: `unknown case "${ref.caseName}": import the test cases first or with these files` });
    }
  }

  // Compare with what is stored.
  const report: ImportReport = {
    files: summaries,
    runs: agentRuns([...trajectoryFiles.values()], pairedEvaluators),
    toolkits: { ...emptyCounts(), changedNames: [] },
    tools: 0,
    cases: { ...emptyCounts(), changedNames: [] },
    trajectories: emptyCounts(),
    evaluations: { ...emptyCounts(), unparsed },
    issues,
  };
  for (const t of toolkits.values()) {
    report.tools += t.row.tools.length;
    const stored = storedToolkits.get(t.row.name);
    t.status = stored === undefined ? "new" : stored === t.row.contentHash ? "unchanged" : "changed";
    report.toolkits[t.status]++;
    if (t.status === "changed") report.toolkits.changedNames.push(t.row.name);
  }
  // Never overwrite what the Studio wrote (an edit, or an authored / accepted generated item).
  for (const e of await studioWritten(db, "toolkit", toolkits.values())) {
    issues.push({ file: e.item.file, line: e.item.line, field: `[${e.item.index}].toolkit`, message: studioWrittenMessage("toolkit", e) });
  }
  const importedCaseNames = [...cases.keys()];
  const storedCaseHashes = new Map(
    (await inChunks(importedCaseNames, (chunk) => db.testCase.findMany({ where: { source: TOOLEMU_SOURCE, name: { in: chunk } }, select: { name: true, contentHash: true } }))).map((c) => [c.name, c.contentHash]),
  );
  for (const c of cases.values()) {
    const stored = storedCaseHashes.get(c.row.name);
    c.status = stored === undefined ? "new" : stored === c.row.contentHash ? "unchanged" : "changed";
    report.cases[c.status]++;
    if (c.status === "changed") report.cases.changedNames.push(c.row.name);
  }
  for (const e of await studioWritten(db, "case", cases.values())) {
    issues.push({ file: e.item.file, line: e.item.line, field: `[${e.item.index}].name`, message: studioWrittenMessage("case", e) });
  }

  const allHashes = new Set<string>();
  for (const f of trajectoryFiles.values()) for (const h of f.hashes.values()) allHashes.add(h);
  const stored = await inChunks([...allHashes], (chunk) =>
    db.trajectory.findMany({ where: { contentHash: { in: chunk } }, select: { id: true, contentHash: true, agentModel: true, emulatorModel: true } }),
  );
  const storedTrajectories = new Map(stored.map((t) => [t.contentHash, t.id]));
  const newTrajectoryHashes = new Set([...allHashes].filter((h) => !storedTrajectories.has(h)));
  // A stored trajectory whose agent run is labelled differently now (e.g. imported before run
  // tags were read from file names) is a change: relabelled once confirmed.
  const relabel = new Map<string, { agentModel: string; emulatorModel: string; from: string }>();
  for (const t of stored) {
    const now = runOfHash.get(t.contentHash);
    if (now && (now.agentModel !== t.agentModel || now.emulatorModel !== t.emulatorModel)) {
      relabel.set(t.contentHash, { agentModel: now.agentModel, emulatorModel: now.emulatorModel, from: `${t.agentModel} (emulator ${t.emulatorModel})` });
    }
  }
  report.trajectories.new = newTrajectoryHashes.size;
  report.trajectories.changed = relabel.size;
  report.trajectories.unchanged = allHashes.size - newTrajectoryHashes.size - relabel.size;

  const storedEvals = new Map<string, string>();
  const storedIds = [...storedTrajectories.values()];
  // Stored evaluations are hashed a chunk at a time: only their hashes are kept, not their text.
  await inChunks(storedIds, async (chunk) => {
    const rows = await db.evaluation.findMany({ where: { trajectoryId: { in: chunk } }, select: { kind: true, evaluatorModel: true, raw: true, trajectory: { select: { contentHash: true } } } });
    for (const e of rows) storedEvals.set(`${e.trajectory.contentHash}|${e.kind}|${e.evaluatorModel}`, contentHash(e.raw));
    relieveHeap();
    return [];
  });
  for (const e of evalHashes) {
    const stored = storedEvals.get(e.key);
    const status = stored === undefined ? "new" : stored === e.hash ? "unchanged" : "changed";
    report.evaluations[status]++;
    e.plan.entries.set(e.line, { trajectoryHash: e.trajectoryHash, status });
  }

  return {
    report,
    toolkits: [...toolkits.values()],
    cases: [...cases.values()],
    trajectoryFiles: [...trajectoryFiles.values()],
    evaluationFiles,
    newTrajectoryHashes,
    relabel,
    toolRisks,
    caseCriticalTools: new Map([...caseCriticalTools].map(([name, c]) => [name, c.names])),
  };
}
