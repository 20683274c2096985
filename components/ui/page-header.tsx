// The heading block of every page: the h1, an optional badge beside it, a description, a line
// of facts under it (meta), and actions on the right. `card` frames it (detail pages).
import type { ReactNode } from "react";

interface Props {
  title: ReactNode;
  description?: ReactNode;
  /** Beside the title (a status badge). */
  badge?: ReactNode;
  /** Above the title (an id, a kicker). */
  eyebrow?: ReactNode;
  /** Under the description (a dl of facts). */
  meta?: ReactNode;
  titleTestId?: string;
  card?: boolean;
  /** Under everything (a note). */
  footer?: ReactNode;
  /** Actions on the right. */
  children?: ReactNode;
}

export function PageHeader({ title, description, badge, eyebrow, meta, titleTestId, card, footer, children }: Props) {
  const h1 = <h1 className={`${eyebrow ? "mt-1 " : ""}text-2xl font-semibold tracking-tight`} data-testid={titleTestId}>{title}</h1>;
  return (
    <header className={card ? "mb-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" : "mb-6"}>
      <div className={`flex flex-wrap justify-between gap-4 ${meta || card ? "items-start" : "items-end"}`}>
        <div className="min-w-0">
          {eyebrow}
          {badge ? <div className="flex flex-wrap items-center gap-3">{h1}{badge}</div> : h1}
          {description && <p className="mt-1 max-w-3xl text-sm text-slate-600">{description}</p>}
          {meta}
        </div>
        {children}
      </div>
      {footer}
    </header>
  );
}
