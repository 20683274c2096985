// The import report as plain text, for the CLI (the import page renders the same report).
import type { AgentRunSummary, ImportReport } from "./analyze";
import { formatIssue } from "./issues";
import type { ApplyResult } from "./apply";

const counts = (c: { new: number; unchanged: number; changed: number }) => `${c.new} new, ${c.unchanged} unchanged, ${c.changed} changed`;

/** "Qwen/Qwen3-32B · int4 (tag int4 from the file names), emulator …: 15 trajectories in 2 files; evaluators A, B" */
function runLine(r: AgentRunSummary): string {
  const tag = r.runTag ? ` (tag ${r.runTag} from the file names)` : "";
  const evaluators = r.evaluators.length ? `evaluators ${r.evaluators.join(", ")}` : "no evaluations";
  return `${r.agentModel}${tag}, emulator ${r.emulatorModel}: ${r.trajectories} trajectories in ${r.files} file${r.files === 1 ? "" : "s"}; ${evaluators}`;
}

export function reportText(report: ImportReport, written: ApplyResult | null, changes: string[], maxIssues = 50): string {
  const lines: string[] = [];
  lines.push(`Files (${report.files.length}):`);
  const shown = report.files.length <= 12 ? report.files : [];
  if (!shown.length) {
    // Many chunk files: one line per kind and model labels instead of one per file.
    const groups = new Map<string, { files: number; records: number }>();
    for (const f of report.files) {
      const models = [f.agentModel && `agent ${f.agentModel}`, f.emulatorModel && `emulator ${f.emulatorModel}`, f.evaluatorModel && `evaluator ${f.evaluatorModel}`].filter(Boolean).join(", ");
      const key = `${f.kind}${models ? ` (${models})` : ""}`;
      const g = groups.get(key) ?? { files: 0, records: 0 };
      g.files++;
      g.records += f.records;
      groups.set(key, g);
    }
    for (const [key, g] of groups) lines.push(`  ${g.files} file${g.files === 1 ? "" : "s"}, ${g.records} records: ${key}`);
  }
  for (const f of shown) {
    const models = [f.agentModel && `agent ${f.agentModel}`, f.emulatorModel && `emulator ${f.emulatorModel}`, f.evaluatorModel && `evaluator ${f.evaluatorModel}`].filter(Boolean).join(", ");
    lines.push(`  ${f.name}: ${f.records} ${f.kind === "toolkits" ? "toolkits" : f.kind === "cases" ? "cases" : f.kind === "trajectories" ? "trajectories" : `${f.kind} evaluations`}${models ? ` (${models})` : ""}`);
  }
  if (report.runs.length) {
    lines.push(`Agent runs (${report.runs.length}):`);
    for (const r of report.runs) lines.push(`  ${runLine(r)}`);
  }
  lines.push(`Toolkits:     ${counts(report.toolkits)} (${report.tools} tools)`);
  lines.push(`Cases:        ${counts(report.cases)}`);
  lines.push(`Trajectories: ${counts(report.trajectories)}`);
  lines.push(`Evaluations:  ${counts(report.evaluations)}${report.evaluations.unparsed ? `; ${report.evaluations.unparsed} with an unparsed score` : ""}`);
  if (report.issues.length) {
    lines.push(``, `${report.issues.length} problem${report.issues.length === 1 ? "" : "s"} — nothing was written:`);
    for (const i of report.issues.slice(0, maxIssues)) lines.push(`  ${formatIssue(i)}`);
    if (report.issues.length > maxIssues) lines.push(`  … and ${report.issues.length - maxIssues} more`);
  } else if (written && written.toolkits + written.cases + written.trajectories + written.evaluations === 0) {
    lines.push(``, `Nothing to write: everything in these files is already imported.`);
  } else if (written) {
    lines.push(``, `Written: ${written.toolkits} toolkits, ${written.cases} cases, ${written.trajectories} trajectories, ${written.evaluations} evaluations.`);
  } else if (changes.length) {
    lines.push(``, `Changes to existing records need confirmation (--yes): ${changes.join("; ")}. Nothing was written.`);
  } else {
    lines.push(``, `Dry run: nothing was written.`);
  }
  return lines.join("\n");
}
