import Link from "next/link";
import { truncate } from "./format";

export function caseHref(name: string): string {
  return `/cases/${encodeURIComponent(name)}`;
}

/** Cases as links with their instruction, for sidebars. */
export function CaseLinkList({ cases }: { cases: { id: string; name: string; userInstruction: string; trajectoryCount: number }[] }) {
  if (cases.length === 0) return <p className="mt-2 text-sm text-slate-500">No case uses it.</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-100 text-sm">
      {cases.map((c) => (
        <li key={c.id} className="py-1.5" data-testid="case-link">
          <Link href={caseHref(c.name)} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{c.name}</Link>
          <span className="ml-1 text-xs text-slate-500">{c.trajectoryCount} traj.</span>
          <p className="text-xs text-slate-600">{truncate(c.userInstruction, 110)}</p>
        </li>
      ))}
    </ul>
  );
}
