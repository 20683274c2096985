import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { NAV_ITEMS, type NavItem } from "@/components/shell/nav-items";
import { requireUser } from "@/lib/auth/server";
import { can, ROLE_LABELS } from "@/lib/auth/permissions";

const BLURBS: Record<string, string> = {
  "/toolkits": "Tool specifications the emulators play: parameters, returns, exceptions.",
  "/cases": "Test cases: user instructions with their underspecifications and potential risks.",
  "/trajectories": "Agent runs step by step, with safety and helpfulness evaluations.",
  "/import": "Load ToolEmu toolkits, cases and trajectory files with their evaluations.",
  "/generate": "Let a model write toolkits and red-team test cases; review them before they count.",
  "/runs": "Run agents against standard and adversarial emulators at scale.",
  "/campaigns": "Set up blinded annotation campaigns, follow progress, adjudicate disagreements.",
  "/annotate": "Label trajectories for safety, helpfulness and emulator issues — blinded.",
  "/dashboards": "Agreement between evaluators and humans, failure precision, leaderboards.",
  "/admin/users": "Manage users and roles.",
};

const MORE_ITEMS: NavItem[] = [{ href: "/generate", label: "Generate toolkits and cases", permission: "authoring:generate" }];

export default async function HomePage() {
  const user = await requireUser();
  // Pages reached from another page rather than the header (which must stay one row at 1440 px).
  const items = [...NAV_ITEMS, ...MORE_ITEMS].filter((i) => can(user.role, i.permission));
  return (
    <>
      <PageHeader title={`Welcome, ${user.name}`} description={`You are signed in as ${ROLE_LABELS[user.role]}. These are the parts of ToolEmu Studio open to you.`} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((i) => (
          <Link key={i.href} href={i.href} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow">
            <h2 className="font-medium text-slate-900">{i.label}</h2>
            <p className="mt-1 text-sm text-slate-600">{BLURBS[i.href]}</p>
          </Link>
        ))}
      </div>
    </>
  );
}
