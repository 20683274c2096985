// GET /trajectories/export?format=jsonl|csv&<filter params> — the current filter as a download;
// format=jsonl&evaluations=1: a zip of ToolEmu files with their evaluation companions.
// The guard checks session, permission and input; the body then streams in batches.
import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { modelPairs } from "@/lib/toolemu/queries/trajectories";
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS, exportChunks, exportFileName, toByteStream } from "@/lib/toolemu/export";
import { bytesToStream, evaluationsZipChunks, evaluationsZipName } from "@/lib/toolemu/export-evaluations";

const exportInput = z.looseObject({
  format: z.enum(EXPORT_FORMATS, { message: "format must be jsonl or csv" }),
  evaluations: z.enum(["0", "1"], { message: "evaluations must be 0 or 1" }).optional(),
});

const prepareExport = withPermission("trajectory:read", exportInput, async (input) => ({
  format: input.format,
  withEvaluations: input.format === "jsonl" && input.evaluations === "1",
  // Filter params are parsed leniently, exactly as the list page reads them.
  filter: parseTrajectoryFilter(input as Record<string, string>),
}));

export async function GET(request: Request) {
  const result = await prepareExport(Object.fromEntries(new URL(request.url).searchParams) as z.input<typeof exportInput>);
  if (!result.ok) return toResponse(result);
  const { format, filter, withEvaluations } = result.data;
  if (withEvaluations) {
    const now = new Date();
    return new Response(bytesToStream(evaluationsZipChunks(db(), filter, now), (e) => console.error("[trajectory export]", e)), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${evaluationsZipName(now)}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  }
  const pairs = format === "jsonl" ? await modelPairs(db(), filter) : [];
  const body = toByteStream(exportChunks(db(), filter, format), (e) => console.error("[trajectory export]", e));
  return new Response(body, {
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="${exportFileName(format, new Date(), pairs.length === 1 ? pairs[0] : undefined)}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
