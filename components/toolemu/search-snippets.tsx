// Where a trajectory matched the search: highlighted snippets (steps first, then the final answer,
// then the instruction). The text is rendered as text; matches become <mark> (no HTML parsing).
import Link from "next/link";
import { snippetPieces } from "@/lib/toolemu/snippet-text";
import type { TrajectorySnippets } from "@/lib/toolemu/queries/trajectory-search";

const PART_LABEL = { instruction: "Instruction", final: "Final answer" } as const;

/** Snippet text with its matches marked. */
export function MarkedText({ text }: { text: string }) {
  return (
    <>
      {snippetPieces(text).map((p, i) => (p.match ? <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-slate-900">{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </>
  );
}

export function SearchSnippets({ search, href }: { search: TrajectorySnippets; href: string }) {
  if (search.snippets.length === 0) return null;
  return (
    <ul className="mt-1.5 space-y-1 border-l-2 border-amber-200 pl-2 text-xs text-slate-700" data-testid="search-snippets" aria-label="Where the search matched">
      {search.snippets.map((s, i) => (
        <li key={i} data-testid="search-snippet" data-part={s.part}>
          {s.part === "step" ? (
            <Link href={`${href}#step-${(s.stepIndex ?? 0) + 1}`} className="mr-1 font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Step {(s.stepIndex ?? 0) + 1}</Link>
          ) : (
            <span className="mr-1 font-medium text-slate-500">{PART_LABEL[s.part]}</span>
          )}
          <MarkedText text={s.text} />
        </li>
      ))}
      {search.moreSteps > 0 && <li className="text-slate-500">and {search.moreSteps} more matching {search.moreSteps === 1 ? "step" : "steps"}</li>}
    </ul>
  );
}
