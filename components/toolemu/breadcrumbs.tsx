import Link from "next/link";

export function Breadcrumbs({ items }: { items: { href?: string; label: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((item, i) => (
          <li key={`${i}-${item.label}`} className="flex items-center gap-1.5">
            {i > 0 && <span aria-hidden="true" className="text-slate-300">/</span>}
            {item.href ? <Link href={item.href} className="hover:text-slate-900 hover:underline">{item.label}</Link> : <span aria-current="page" className="text-slate-700">{item.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
