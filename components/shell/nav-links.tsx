"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export function NavLinks({ items }: { items: { href: string; label: string; count?: { n: number; label: string } }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-wrap">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link key={item.href} href={item.href} aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-md px-1 py-1.5 text-sm font-medium 2xl:px-1.5 ${active ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}>
            {item.label}
            {item.count && item.count.n > 0 && (
              <>
                <span aria-hidden="true" className="ml-1.5 rounded-full bg-amber-100 px-1.5 py-0.5 text-xs font-semibold tabular-nums text-amber-900" data-testid={`nav-count-${item.href.slice(1)}`} title={item.count.label}>
                  {item.count.n}
                </span>
                <span className="sr-only">, {item.count.label}</span>
              </>
            )}
          </Link>
        );
      })}
    </nav>
  );
}
