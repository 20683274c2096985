import type { LabelField, LabelSchema, LabelValues } from "@/lib/trajectory/label-schema";
import { ScoreBadge } from "@/components/toolemu/score-badge";
import { formatDate } from "@/components/toolemu/format";
import { fmtDuration } from "@/components/ui/format";
import { optionScore, valueText } from "./format";
import { ScrollRegion } from "@/components/ui/scroll-region";

export interface ComparedLabel {
  assignmentId: string;
  annotator: string;
  email: string;
  values: LabelValues;
  submittedAt: Date | null;
  updatedAt: Date;
  timeSpentMs: number;
}

export interface ComparedAdjudication {
  values: LabelValues;
  reason: string;
  adjudicator: string | null;
  createdAt: Date;
  updatedAt: Date;
}

function Value({ field, value }: { field: LabelField; value: LabelValues[string] }) {
  const text = valueText(field, value);
  if (text === null) return <span className="text-xs italic text-slate-500">{field.kind === "text" ? "(empty)" : "not answered"}</span>;
  const score = optionScore(field, value);
  if (score !== null) {
    const kind = field.key === "helpfulness" ? "HELPFULNESS" : "SAFETY";
    return (
      <span className="inline-flex items-center gap-1.5">
        <ScoreBadge kind={kind} score={score} />
        <span className="text-sm text-slate-800">{text}</span>
      </span>
    );
  }
  if (field.kind === "text") return <p className="max-w-prose whitespace-pre-wrap break-words text-sm text-slate-800">{text}</p>;
  const tone =
    field.kind === "boolean" ? (value === true ? "bg-rose-50 text-rose-800" : "bg-slate-100 text-slate-700")
      : value === "critical" ? "bg-rose-50 text-rose-800" : value === "minor" ? "bg-amber-50 text-amber-800" : "bg-slate-100 text-slate-700";
  return <span className={`rounded px-1.5 py-0.5 text-sm ${tone}`}>{text}</span>;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** Every field of the label form as a row; one column per annotator (and the adjudication, if any). */
export function LabelComparison({ schema, labels, adjudication }: { schema: LabelSchema; labels: ComparedLabel[]; adjudication: ComparedAdjudication | null }) {
  const cell = "px-4 py-2.5 align-top";
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="label-comparison">
        <caption className="sr-only">Submitted labels side by side; rows where annotators disagree are marked</caption>
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            <th scope="col" className="w-56 px-4 py-2 font-medium uppercase tracking-wide">Field</th>
            {labels.map((l, i) => (
              <th key={l.assignmentId} scope="col" className="min-w-48 px-4 py-2 normal-case" data-testid="label-column">
                <span className="block text-sm font-semibold text-slate-900">{l.annotator}</span>
                <span className="block font-normal text-slate-500">{l.email} · label {i + 1}</span>
              </th>
            ))}
            {adjudication && (
              <th scope="col" className="min-w-48 bg-indigo-50/70 px-4 py-2 normal-case">
                <span className="block text-sm font-semibold text-indigo-900">Adjudicated</span>
                <span className="block font-normal text-indigo-700">{adjudication.adjudicator ?? "a former user"}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {schema.fields.map((f) => {
            const differs = f.kind !== "text" && labels.length > 1 && labels.some((l) => !same(l.values[f.key], labels[0]!.values[f.key]));
            return (
              <tr key={f.key} className={differs ? "bg-amber-50/50" : undefined} data-testid={`compare-${f.key}`} data-differs={differs}>
                <th scope="row" className={`${cell} text-left font-medium text-slate-700`}>
                  {f.label}
                  {f.required ? null : <span className="ml-1 text-xs font-normal text-slate-500">(optional)</span>}
                  {differs && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium text-amber-800">differs</span>}
                </th>
                {labels.map((l) => <td key={l.assignmentId} className={cell}><Value field={f} value={l.values[f.key]} /></td>)}
                {adjudication && <td className={`${cell} bg-indigo-50/40`}><Value field={f} value={adjudication.values[f.key]} /></td>}
              </tr>
            );
          })}
          <tr className="bg-slate-50/60 text-xs text-slate-600">
            <th scope="row" className={`${cell} text-left font-medium`}>Time spent</th>
            {labels.map((l) => <td key={l.assignmentId} className={`${cell} tabular-nums`}>{fmtDuration(l.timeSpentMs)}</td>)}
            {adjudication && <td className={cell}>—</td>}
          </tr>
          <tr className="bg-slate-50/60 text-xs text-slate-600">
            <th scope="row" className={`${cell} text-left font-medium`}>Submitted</th>
            {labels.map((l) => (
              <td key={l.assignmentId} className={`${cell} tabular-nums`}>
                {l.submittedAt ? formatDate(l.submittedAt) : "—"}
                {l.submittedAt && l.updatedAt.getTime() - l.submittedAt.getTime() > 1000 && <span className="block text-slate-500">last changed {formatDate(l.updatedAt)}</span>}
              </td>
            ))}
            {adjudication && (
              <td className={`${cell} tabular-nums`}>
                {formatDate(adjudication.createdAt)}
                {adjudication.updatedAt.getTime() - adjudication.createdAt.getTime() > 1000 && <span className="block text-slate-500">revised {formatDate(adjudication.updatedAt)}</span>}
              </td>
            )}
          </tr>
        </tbody>
      </table>
    </ScrollRegion>
  );
}
