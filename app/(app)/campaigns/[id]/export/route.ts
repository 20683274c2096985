// GET /campaigns/<id>/export?format=csv|jsonl — every submitted label of the campaign, unblinded,
// as a download. The guard checks session, permission (campaign:manage) and input first.
import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { exportLabels } from "@/lib/annotation/export";
import { campaignName } from "@/lib/annotation/manage-queries";
import { AppError } from "@/lib/errors";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8" } as const;

const exportInput = z.object({
  campaignId: z.string().min(1).max(200),
  format: z.enum(["csv", "jsonl"], { message: "format must be csv or jsonl" }),
});

const runExport = withPermission("campaign:manage", exportInput, async ({ campaignId, format }) => {
  const name = await campaignName(db(), campaignId);
  if (name === null) throw new AppError("No such campaign.", 404);
  const body = await exportLabels(db(), campaignId, format);
  return { body, format, fileName: exportFileName(name, campaignId, format) };
});

/** "Pilot: safety (v2)" → "labels_pilot-safety-v2_<id>_20261129-1542.csv" (ASCII only, header-safe). */
function exportFileName(name: string, id: string, format: "csv" | "jsonl", now = new Date()): string {
  const slug = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "campaign";
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return `labels_${slug}_${id.replace(/[^\w-]/g, "")}_${stamp}.${format}`;
}

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const format = new URL(request.url).searchParams.get("format") ?? "";
  const result = await runExport({ campaignId: id, format: format as "csv" });
  if (!result.ok) return toResponse(result);
  const { body, fileName } = result.data;
  return new Response(body, {
    headers: {
      "Content-Type": CONTENT_TYPES[result.data.format],
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
