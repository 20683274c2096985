// One verdict for an import preview, so the page never says "problems found" and "already imported" as two answers.
import type { ImportReport } from "./analyze";

export interface ImportVerdict {
  /** blocked: problems stop the write; none: nothing new; confirm: changed records need a yes; ready: can be written. */
  kind: "blocked" | "none" | "confirm" | "ready";
  title: string;
  detail: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function importVerdict(r: ImportReport, changes: string[] = []): ImportVerdict {
  const counts = [r.toolkits, r.cases, r.trajectories, r.evaluations];
  const fresh = counts.reduce((n, c) => n + c.new, 0);
  const changed = counts.reduce((n, c) => n + c.changed, 0);
  if (r.issues.length) {
    return {
      kind: "blocked",
      title: `${plural(r.issues.length, "problem")} to fix — nothing will be written`,
      detail: fresh + changed === 0
        ? "The records that could be read are already imported; fix the problems below and check the files again."
        : `Fix the problems below and check the files again; then ${plural(fresh, "new record")}${changed ? ` and ${plural(changed, "changed record")}` : ""} can be written.`,
    };
  }
  if (fresh + changed === 0) return { kind: "none", title: "Already imported — nothing to write", detail: "Everything in these files is already imported." };
  if (changes.length) {
    return { kind: "confirm", title: `Ready to write once you confirm ${plural(changed, "changed record")}`, detail: `${plural(fresh, "new record")}; the changed ones replace what is stored.` };
  }
  return { kind: "ready", title: `Ready to write ${plural(fresh, "new record")}`, detail: "Nothing is written until you press “Write to the database”." };
}
