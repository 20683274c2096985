import { PageHeader } from "./page-header";

// An honest placeholder for sections that are planned but not built yet.
export function ComingSoon({ title, description, plan }: { title: string; description: string; plan: string[] }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6">
        <p className="text-sm font-medium text-slate-800">Coming soon — this section is not built yet.</p>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-600">
          {plan.map((p) => <li key={p}>{p}</li>)}
        </ul>
      </div>
    </>
  );
}
