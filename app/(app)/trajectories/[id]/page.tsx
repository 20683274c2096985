import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { Section, TextList } from "@/components/toolemu/text-list";
import { StepCard } from "@/components/toolemu/step-card";
import { EvaluationCard } from "@/components/toolemu/evaluation-card";
import { ScoreBadge } from "@/components/toolemu/score-badge";
import { ModelText, CodeBlock } from "@/components/toolemu/code-block";
import { KeyboardNav } from "@/components/toolemu/keyboard-nav";
import { TrajectoryPager } from "@/components/toolemu/trajectory-pager";
import { caseHref } from "@/components/toolemu/case-link-list";
import { MODE_LABELS, STATUS_LABELS, decodeParam, formatDate, shortModel } from "@/components/toolemu/format";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { KIND_LABELS } from "@/components/toolemu/score-scale";
import { ReplayButton } from "@/components/toolemu/replay-button";
import { ComparePicker } from "@/components/toolemu/compare-picker";
import { replayTrajectoryAction } from "@/app/(app)/trajectories/_actions/replay";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadTrajectoryPage, type RanAgainst } from "@/lib/toolemu/queries/trajectory";
import { loadCheckpointTimelines } from "@/lib/runs/critic/queries";
import { CheckpointTimelines } from "@/components/critic/checkpoint-timeline";
import { PAGE_SIZE, filterQuery, parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { loadSageEpisode } from "@/lib/dashboards/sage/episode";
import { SageEpisodeViewer } from "@/components/sage/episode-viewer";

/** A version, linked to its entity's history: the changes since, when it is no longer the current one. */
function VersionLink({ href, what, v, testId }: { href: string; what: string; v: { name: string; version: number; current: number }; testId: string }) {
  const outdated = v.version < v.current;
  return (
    <Link href={outdated ? `${href}?from=${v.version}&to=${v.current}#history` : `${href}#history`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid={testId}
      title={outdated ? `The ${what} is now at version ${v.current}: see what changed since` : `The ${what}'s current version`}>
      {what === "case" ? "case" : v.name} v{v.version}{outdated ? ` (now v${v.current})` : ""}
    </Link>
  );
}

/** The case and toolkit versions the trajectory ran against, each linked to its history; "imported (no version)" when none is recorded. */
function RanAgainstVersions({ versions }: { versions: RanAgainst }) {
  return (
    <div data-testid="ran-against">
      <dt className="inline text-slate-500">Ran against </dt>
      {!versions.case && versions.toolkits.length === 0 ? (
        <dd className="inline" data-testid="no-version">imported (no version)</dd>
      ) : (
        <dd className="inline">
          {versions.case ? <VersionLink href={caseHref(versions.case.name)} what="case" v={versions.case} testId="case-version" /> : <span data-testid="case-version">case: imported (no version)</span>}
          {versions.toolkits.map((k) => (
            <span key={k.name}> · <VersionLink href={`/toolkits/${encodeURIComponent(k.name)}`} what="toolkit" v={k} testId="toolkit-version" /></span>
          ))}
          {versions.toolkits.length === 0 && <span data-testid="toolkit-version"> · toolkits: imported (no version)</span>}
        </dd>
      )}
    </div>
  );
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: "Trajectory" };

export default async function TrajectoryPage({ params, searchParams }: Props) {
  const user = await requirePermission("trajectory:read");
  const id = decodeParam((await params).id);
  const filter = parseTrajectoryFilter(await searchParams);
  const data = await loadTrajectoryPage(db(), id, filter);
  if (!data) {
    // A SAGE episode has a scenario, not a case: its own viewer (attacker / agent / tool turns, flags, judges).
    const episode = await loadSageEpisode(db(), id);
    if (episode) return <SageEpisodeViewer e={episode} />;
    notFound();
  }
  const { trajectory: t, neighbours, compareWith, versions } = data;
  const timelines = await loadCheckpointTimelines(db(), t.id);
  const carry = filterQuery(filter, { page: false });
  const prevHref = neighbours?.prevId ? `/trajectories/${neighbours.prevId}${carry}` : null;
  const nextHref = neighbours?.nextId ? `/trajectories/${neighbours.nextId}${carry}` : null;
  const listHref = `/trajectories${filterQuery({ ...filter, page: neighbours ? Math.ceil(neighbours.position / PAGE_SIZE) : 1 })}`;
  const kinds = (["SAFETY", "HELPFULNESS"] as const).filter((k) => t.evaluations.some((e) => e.kind === k));

  return (
    <>
      <KeyboardNav prevHref={prevHref} nextHref={nextHref} listHref={listHref} />
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <Breadcrumbs items={[{ href: listHref, label: "Trajectories" }, { label: t.id }]} />
        <TrajectoryPager prevHref={prevHref} nextHref={nextHref} listHref={listHref} position={neighbours?.position ?? null} total={neighbours?.total ?? null} />
      </div>

      <PageHeader
        card
        title={<>Trajectory of <Link href={caseHref(t.case.name)} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="case-link">{t.case.name}</Link></>}
        meta={
            <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
              <div><dt className="inline text-slate-500">Agent </dt><dd className="inline font-medium" title={t.agentModel}>{t.agentModel}</dd></div>
              <div><dt className="inline text-slate-500">Emulator </dt><dd className="inline font-medium" title={t.emulatorModel}>{shortModel(t.emulatorModel)} · {MODE_LABELS[t.emulatorMode]}</dd></div>
              <div><dt className="inline text-slate-500">Status </dt><dd className="inline font-medium">{STATUS_LABELS[t.status]} · {t.stepCount} {t.stepCount === 1 ? "step" : "steps"}{t.hasErrors ? " · error observation" : ""}</dd></div>
              {t.origin === "EMULATED" ? (
                <>
                  <div><dt className="inline text-slate-500">Emulated </dt><dd className="inline">{formatDate(t.startedAt ?? t.createdAt)}{t.agentVariant ? ` · agent prompt ${t.agentVariant}` : ""}</dd></div>
                  {t.stopReason && <div><dt className="inline text-slate-500">Stopped </dt><dd className="inline" data-testid="stop-reason" title={t.stopDetail ?? undefined}>{t.stopReason.replace(/_/g, " ")}</dd></div>}
                  <div><dt className="inline text-slate-500">Usage </dt><dd className="inline tabular-nums">{fmtInt(t.inputTokens + t.outputTokens)} tokens · {fmtUsd(t.costUsd)}</dd></div>
                  {(t.trial > 1 || t.nextTrials.length > 0) && (
                    <div data-testid="trajectory-trial"><dt className="inline text-slate-500">Trial </dt><dd className="inline">{t.trial}{t.previousTrialId ? <> · <Link href={`/trajectories/${t.previousTrialId}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="previous-trial">previous trial</Link></> : null}{t.nextTrials.map((n) => <span key={n.id}> · <Link href={`/trajectories/${n.id}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="next-trial">trial {n.trial}</Link></span>)}</dd></div>
                  )}
                </>
              ) : (
                <div><dt className="inline text-slate-500">Imported </dt><dd className="inline">{formatDate(t.createdAt)}</dd></div>
              )}
              <RanAgainstVersions versions={versions} />
              {t.sourceFile && <div className="min-w-0"><dt className="inline text-slate-500">Source </dt><dd className="inline break-all font-mono text-xs" title={t.sourceFile}>{t.sourceFile.split(/[\\/]/).pop()}{t.sourceLine ? `:${t.sourceLine}` : ""}</dd></div>}
            </dl>
        }
      >
          {t.origin === "IMPORTED" && can(user.role, "run:create") && <ReplayButton trajectoryId={t.id} action={replayTrajectoryAction} />}
          {t.evaluations.length > 0 && (
            <a href="#evaluations" className="flex flex-wrap gap-6 rounded-lg bg-slate-50 px-3 py-2 hover:bg-slate-100" title="Jump to the evaluations">
              {kinds.map((k) => (
                <span key={k} className="flex flex-col gap-1">
                  <span className="text-xs font-medium text-slate-500">{KIND_LABELS[k]}</span>
                  {t.evaluations.filter((e) => e.kind === k).map((e) => (
                    <span key={e.id} className="flex items-center gap-1.5">
                      <ScoreBadge kind={k} score={e.score} evaluator={e.evaluatorModel} />
                      <span className="text-xs text-slate-500" title={e.evaluatorModel}>{shortModel(e.evaluatorModel)}</span>
                    </span>
                  ))}
                </span>
              ))}
            </a>
          )}
      </PageHeader>

      <div className="space-y-6">
        <Section id="instruction" title="User instruction">
          <ModelText text={t.case.userInstruction} className="text-base text-slate-900" testId="user-instruction" />
          {t.trialFeedback && (
            <div className="mt-3 rounded-md bg-indigo-50 p-2 text-sm text-indigo-900" data-testid="trial-feedback">
              <p className="font-medium">Trial {t.trial}: the agent&apos;s prompt carried the feedback of its earlier trials</p>
              <p className="mt-1 whitespace-pre-wrap text-xs">{t.trialFeedback}</p>
            </div>
          )}
          <p className="mt-2 text-xs text-slate-500">
            Toolkits: {t.case.toolkits.map((k, i) => (
              <span key={k.toolkit.name}>{i > 0 && ", "}<Link href={`/toolkits/${encodeURIComponent(k.toolkit.name)}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{k.toolkit.name}</Link></span>
            ))}
            <span className="mx-2 text-slate-300">·</span>
            <Link href={caseHref(t.case.name)} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Case details →</Link>
          </p>
          <details className="mt-3 rounded-md border border-slate-200 bg-slate-50/60 px-3 py-2" data-testid="case-risks">
            <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Underspecifications and potential risks of this case</summary>
            <div className="mt-3 grid gap-4 md:grid-cols-2">
              <div><h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Underspecified task information</h3><TextList items={t.case.underspecTaskInfo} /></div>
              <div><h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Underspecified safety constraints</h3><TextList items={t.case.underspecSafety} /></div>
              <div><h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Potential risky outcomes</h3><TextList items={t.case.potentialRiskyOutcomes} /></div>
              <div><h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Potential risky actions</h3><TextList items={t.case.potentialRiskyActions} /></div>
            </div>
          </details>
          <div className="mt-3 border-t border-slate-100 pt-3">
            <ComparePicker trajectoryId={t.id} candidates={compareWith} />
          </div>
        </Section>

        <section aria-labelledby="evaluations" id="evaluations-section" className="scroll-mt-4">
          <h2 id="evaluations" className="mb-3 scroll-mt-4 text-lg font-semibold">Evaluations ({t.evaluations.length})</h2>
          {t.evaluations.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500">No evaluator has scored this trajectory yet.</p>
          ) : (
            <div className="space-y-4">
              {kinds.map((k) => {
                const evals = t.evaluations.filter((e) => e.kind === k);
                return (
                  <div key={k}>
                    <h3 className="mb-2 text-sm font-semibold text-slate-700">{KIND_LABELS[k]}</h3>
                    <div className={`grid gap-4 ${evals.length > 1 ? "md:grid-cols-2" : ""} ${evals.length > 2 ? "xl:grid-cols-3" : ""}`}>
                      {evals.map((e) => <EvaluationCard key={e.id} evaluation={e} />)}
                    </div>
                  </div>
                );
              })}
            </div>
          )}
        </section>

        <section aria-labelledby="steps">
          <h2 id="steps" className="mb-3 text-lg font-semibold">Steps ({t.steps.length})</h2>
          {t.steps.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500">The agent called no tool.</p>
          ) : (
            <ol className="space-y-4">{t.steps.map((s) => <StepCard key={s.id} step={s} />)}</ol>
          )}
        </section>

        <Section id="final" title={t.status === "FINISHED" ? "Final answer" : "Final answer (the run ended without one)"}>
          <div data-testid="final-answer"><ModelText text={t.finalAnswer} className="text-base text-slate-900" /></div>
          {t.finalLog && (
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Final agent log</summary>
              <div className="mt-2" data-testid="final-log"><CodeBlock text={t.finalLog} label="Final agent log" /></div>
            </details>
          )}
        </Section>

        <CheckpointTimelines timelines={timelines} />

        <div className="flex justify-end">
          <TrajectoryPager prevHref={prevHref} nextHref={nextHref} listHref={listHref} position={neighbours?.position ?? null} total={neighbours?.total ?? null} testIdPrefix="bottom-" />
        </div>
      </div>
    </>
  );
}
