"use client";

// The trajectory as annotators see it, with its keys (use-item-view.ts): c task context,
// t thoughts, f final message, o the focused observation in full, [ ] between steps. Long inputs
// and observations are keyboard-scrollable regions (scroll-box.tsx). The adjudication screen
// mounts it with the same keys on (keyboard off by default).
import { useMemo, useRef } from "react";
import type { BlindedItem } from "@/lib/annotation/blinded";
import { ScrollBox } from "./scroll-box";
import { useItemView } from "./use-item-view";

function pretty(text: string | null): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function List({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {items.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">{items.map((x, i) => <li key={i}>{x}</li>)}</ul>
      ) : (
        <p className="mt-1 text-sm text-slate-500">None</p>
      )}
    </div>
  );
}

/** A key's badge beside what it opens. */
function Key({ k }: { k: string }) {
  return <kbd aria-hidden="true" className="ml-1.5 rounded border border-slate-300 bg-white px-1 font-mono text-[10px] font-normal normal-case text-slate-500">{k}</kbd>;
}

/**
 * The trajectory as annotators see it: no model names, no mode, no scores, no emulator thoughts.
 * `keyboard`: whether its keys are on (the annotate screen turns them off while a dialog is open).
 */
export function BlindedTrajectory({ item, keyboard = false }: { item: BlindedItem; keyboard?: boolean }) {
  const root = useRef<HTMLDivElement | null>(null);
  const thoughtSteps = useMemo(() => item.steps.filter((s) => s.thought).map((s) => s.index), [item.steps]);
  const view = useItemView({ root, stepCount: item.steps.length, thoughtSteps, keyboard });
  return (
    <div className="space-y-4" ref={root}>
      {/* A SAGE episode has no ToolEmu case: its scenario is shown above it (scenario-item.tsx). */}
      {!item.scenario && <section className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-section="context">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">User instruction</h2>
        <p className="mt-1 whitespace-pre-wrap text-slate-900" data-testid="user-instruction">{item.case.userInstruction}</p>
        <details className="mt-3" open={view.contextOpen} onToggle={(e) => view.setContextOpen(e.currentTarget.open)} data-testid="task-context">
          <summary className="cursor-pointer text-sm font-medium text-indigo-700">Task context: underspecifications, expected achievements, potential risky outcomes<Key k="c" /></summary>
          <div className="mt-3 grid gap-3 md:grid-cols-2">
            <List title="Underspecified task information" items={item.case.underspecTaskInfo} />
            <List title="Underspecified safety constraints" items={item.case.underspecSafety} />
            <List title="Expected achievements" items={item.case.expectedAchievements} />
            <List title="Potential risky outcomes" items={item.case.potentialRiskyOutcomes} />
          </div>
        </details>
      </section>}
      {item.campaign.redactModelNames && (
        <p className="text-xs text-slate-500" data-testid="names-redacted">Names of AI models in this trajectory are shown as [model].</p>
      )}
      <ol className="space-y-3" aria-label={`${item.steps.length} step${item.steps.length === 1 ? "" : "s"}`}>
        {item.steps.map((s) => (
          <li
            key={s.index}
            id={`step-${s.index + 1}`}
            tabIndex={-1}
            aria-label={`Step ${s.index + 1} of ${item.steps.length}: ${s.action ?? "no action"}`}
            data-step-index={s.index}
            onFocus={() => view.onStepFocus(s.index)}
            className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
            data-testid="annotate-step"
          >
            <div className="flex items-center gap-2">
              <span className="rounded bg-slate-900 px-1.5 py-0.5 text-xs font-medium text-white">Step {s.index + 1}</span>
              <code className="font-mono text-sm font-semibold text-indigo-800">{s.action ?? "(no action)"}</code>
            </div>
            {s.userMessage && (
              <div className="mt-2 rounded-md bg-amber-50 p-2" data-testid="user-turn">
                <h3 className="text-xs font-semibold uppercase tracking-wide text-amber-800">User message this turn</h3>
                <p className="mt-0.5 whitespace-pre-wrap text-sm text-slate-800">{s.userMessage}</p>
              </div>
            )}
            {s.thought && (
              <details className="mt-2" open={view.thoughts.has(s.index)} onToggle={(e) => view.setThought(s.index, e.currentTarget.open)} data-testid={`thought-${s.index + 1}`}>
                <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Agent thought<Key k="t" /></summary>
                <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{s.thought}</p>
              </details>
            )}
            <div className="mt-2 grid gap-3 lg:grid-cols-2">
              <ScrollBox id={`input-${s.index + 1}`} kind="input" step={s.index} title="Action input" label={`Action input of step ${s.index + 1}`} text={pretty(s.actionInput)}
                expanded={view.expanded.has(`input-${s.index}`)} onToggle={() => view.toggleExpanded(`input-${s.index}`)} />
              <ScrollBox id={`observation-${s.index + 1}`} kind="observation" step={s.index} title="Observation" label={`Observation of step ${s.index + 1}`} text={pretty(s.observation) || "(empty)"}
                expanded={view.expanded.has(`observation-${s.index}`)} onToggle={() => view.toggleExpanded(`observation-${s.index}`)} />
            </div>
          </li>
        ))}
      </ol>
      <section className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-section="final">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Final answer</h2>
        <p className="mt-1 whitespace-pre-wrap text-slate-900" data-testid="final-answer">{item.finalAnswer ?? "(the agent gave no final answer)"}</p>
        {item.finalMessage && (
          <details className="mt-2" open={view.finalOpen} onToggle={(e) => view.setFinalOpen(e.currentTarget.open)} data-testid="final-message">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Agent&apos;s final message<Key k="f" /></summary>
            <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{item.finalMessage}</p>
          </details>
        )}
      </section>
    </div>
  );
}
