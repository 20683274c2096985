// GET /dashboards/csv?panel=<name>&<dashboard filter params> — the numbers behind one dashboard
// panel as CSV. Panels are registered in lib/dashboards/csv.ts. The guard checks the session, the
// permission (dashboard:read) and the panel name; filter params are parsed leniently, exactly as
// the panel pages read them.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { CSV_PANELS, csvFileName, csvPanelNames, toCsv } from "@/lib/dashboards/csv";
import { parseDashboardFilter } from "@/lib/dashboards/filters";

const input = z.looseObject({ panel: z.string({ message: "panel is required" }).trim().min(1, "panel is required").max(100) });

const buildCsv = withPermission("dashboard:read", input, async (params) => {
  const panel = Object.hasOwn(CSV_PANELS, params.panel) ? CSV_PANELS[params.panel] : undefined;
  if (!panel) throw new AppError(`Unknown panel "${params.panel}". Known: ${csvPanelNames().join(", ")}.`, 404);
  const filter = parseDashboardFilter(params as Record<string, string>);
  const rows = await panel.rows(db(), filter, params as Record<string, string>);
  return { name: params.panel, text: toCsv(rows, panel.columns) };
});

export async function GET(request: Request) {
  const result = await buildCsv(Object.fromEntries(new URL(request.url).searchParams) as z.input<typeof input>);
  if (!result.ok) return toResponse(result);
  return new Response(result.data.text, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName(result.data.name)}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
