import Link from "next/link";
import { ScoreList } from "./score-badge";
import { MODE_LABELS, STATUS_LABELS, formatDate, shortModel } from "./format";
import type { CaseTrajectory } from "./types";

/** The trajectories of one case, newest first, with every evaluator's scores. */
export function CaseTrajectoryTable({ caseName, trajectories }: { caseName: string; trajectories: CaseTrajectory[] }) {
  const q = `?case=${encodeURIComponent(caseName)}`;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4">Trajectory</th>
            <th scope="col" className="py-2 pr-4">Agent</th>
            <th scope="col" className="py-2 pr-4">Emulator</th>
            <th scope="col" className="py-2 pr-4">Status</th>
            <th scope="col" className="py-2 pr-4">Safety</th>
            <th scope="col" className="py-2">Helpfulness</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {trajectories.map((t) => (
            <tr key={t.id} data-testid="case-trajectory-row" className="align-top">
              <td className="py-2 pr-4">
                <Link href={`/trajectories/${t.id}${q}`} className="font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{t.id}</Link>
                <div className="text-xs text-slate-500">{formatDate(t.createdAt)}{t.caseVersion !== null && <span className="ml-1 text-slate-500" title="The case version this trajectory ran against" data-testid="ran-against">· case v{t.caseVersion}</span>}</div>
              </td>
              <td className="py-2 pr-4" title={t.agentModel}>{shortModel(t.agentModel)}</td>
              <td className="py-2 pr-4"><span title={t.emulatorModel}>{shortModel(t.emulatorModel)}</span> <span className="text-xs text-slate-500">{MODE_LABELS[t.emulatorMode]}</span></td>
              <td className="py-2 pr-4">{STATUS_LABELS[t.status]} · {t.stepCount} steps{t.hasErrors && <span className="ml-1 text-xs text-rose-700">errors</span>}</td>
              <td className="py-2 pr-4"><ScoreList kind="SAFETY" scores={t.scores} /></td>
              <td className="py-2"><ScoreList kind="HELPFULNESS" scores={t.scores} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
