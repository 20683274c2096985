// The wrapper of a table that may be wider than the page: it scrolls sideways, and is a focusable
// named region so keyboard users can scroll it too (axe: scrollable-region-focusable). No hooks:
// server or client.
//
//   <ScrollRegion><table>…</table></ScrollRegion>
import type { ReactNode } from "react";

export const SCROLL_REGION_LABEL = "Table (scrolls sideways when wide)";

export function ScrollRegion({ children }: { children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm" tabIndex={0} role="region" aria-label={SCROLL_REGION_LABEL}>
      {children}
    </div>
  );
}
