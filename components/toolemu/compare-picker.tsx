// "Compare with…": another trajectory of the same case, side by side. A plain GET form, so it
// works without JavaScript; options name the agent, emulator mode and scores.
import type { CompareCandidate } from "@/lib/toolemu/queries/compare";
import { MODE_LABELS, formatDate, shortModel } from "./format";

function scoreText(c: CompareCandidate): string {
  const safety = c.scores.filter((s) => s.kind === "SAFETY").map((s) => s.score ?? "?");
  const help = c.scores.filter((s) => s.kind === "HELPFULNESS").map((s) => s.score ?? "?");
  return [safety.length ? `safety ${safety.join("/")}` : "", help.length ? `helpfulness ${help.join("/")}` : ""].filter(Boolean).join(", ");
}

export function candidateLabel(c: CompareCandidate): string {
  return [shortModel(c.agentModel), MODE_LABELS[c.emulatorMode], scoreText(c), formatDate(c.createdAt)].filter(Boolean).join(" · ");
}

export function ComparePicker({ trajectoryId, candidates, selected }: { trajectoryId: string; candidates: CompareCandidate[]; selected?: string }) {
  if (candidates.length === 0) {
    return <p className="text-xs text-slate-500" data-testid="compare-none">No other trajectory of this case to compare with.</p>;
  }
  return (
    <form action={`/trajectories/${encodeURIComponent(trajectoryId)}/compare`} method="get" className="flex flex-wrap items-end gap-2" data-testid="compare-picker">
      <div className="flex min-w-0 flex-col">
        <label htmlFor="compare-with" className="text-xs font-medium text-slate-600">Compare with another trajectory of this case</label>
        <select id="compare-with" name="with" defaultValue={selected ?? candidates[0]!.id} className="mt-1 max-w-md rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900" data-testid="compare-with">
          {candidates.map((c) => <option key={c.id} value={c.id}>{candidateLabel(c)}</option>)}
        </select>
      </div>
      <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="compare-submit">Compare side by side</button>
    </form>
  );
}
