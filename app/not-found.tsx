import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Page not found" };

// Any address that matches no page, and any record a page could not find (notFound()).
export default function NotFound() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-16" data-testid="not-found">
      <Link href="/" className="mb-10 inline-flex items-center gap-2 text-base font-semibold tracking-tight text-slate-900">
        {/* eslint-disable-next-line @next/next/no-img-element -- a 28 px SVG needs no image optimisation */}
        <img src="/favicon.svg" alt="" width={28} height={28} />
        ToolEmu Studio
      </Link>
      <PageHeader
        eyebrow={<p className="text-sm font-semibold text-indigo-600">404</p>}
        title="Page not found"
        description="There is nothing at this address: the link may be mistyped, or the toolkit, case, trajectory or run it pointed to was renamed or deleted."
      />
      <div className="flex flex-wrap gap-3">
        <Link href="/" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Go to the start page</Link>
        <Link href="/trajectories" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">Browse trajectories</Link>
      </div>
    </main>
  );
}
