import Link from "next/link";
import type { ActionResult } from "@/lib/auth/guard";
import { can, ROLE_LABELS, type Role } from "@/lib/auth/permissions";
import { NAV_ITEMS } from "./nav-items";
import { NavLinks } from "./nav-links";
import { SignOutButton } from "./sign-out-button";

export function AppHeader({ user, signOutEverywhere, counts }: {
  user: { name: string; email: string; role: Role };
  signOutEverywhere?: (i: Record<string, never>) => Promise<ActionResult<unknown>>;
  /** A number beside a link (by href), e.g. the interventions waiting for a human. */
  counts?: Record<string, { n: number; label: string }>;
}) {
  const items = NAV_ITEMS.filter((i) => can(user.role, i.permission)).map(({ href, label }) => ({ href, label, count: counts?.[href] }));
  return (
    <header className="border-b border-slate-200 bg-white">
      {/* Wider than the page body so that every role's links fit in one row at 1440 px (e2e/polish.spec.ts):
          below 1536 px (2xl) the brand shows its logo only (its name stays for screen readers and in
          the title) and the links sit closer. */}
      <div className="mx-auto flex max-w-[96rem] flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
        <Link href="/" title="ToolEmu Studio: start page" className="flex shrink-0 items-center gap-2 whitespace-nowrap text-base font-semibold tracking-tight text-slate-900">
          {/* eslint-disable-next-line @next/next/no-img-element -- a 24 px SVG needs no image optimisation */}
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span className="sr-only 2xl:not-sr-only">ToolEmu Studio</span>
        </Link>
        <NavLinks items={items} />
        <div className="ml-auto flex shrink-0 items-center gap-2 text-sm">
          <span className="flex items-center gap-1.5 whitespace-nowrap text-slate-700" data-testid="current-user" title={`Signed in as ${user.name} (${user.email})`}>
            <span className="max-w-[7rem] truncate">{user.name}</span>
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700" data-testid="current-role">
              {ROLE_LABELS[user.role]}
            </span>
          </span>
          <SignOutButton signOutEverywhere={signOutEverywhere} />
        </div>
      </div>
    </header>
  );
}
