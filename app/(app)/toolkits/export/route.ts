// GET /toolkits/export — every toolkit as ToolEmu's all_toolkits.json, curated tool risk under the
// extra key "x_toolemu_studio" that ToolEmu ignores (lib/toolemu/studio-extension.ts).
import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { exportToolkits, specsJson, TOOLKITS_FILE_NAME } from "@/lib/toolemu/export-specs";

const prepare = withPermission("toolkit:read", z.object({}), async () => specsJson(await exportToolkits(db())));

export async function GET() {
  const result = await prepare({});
  if (!result.ok) return toResponse(result);
  return new Response(result.data, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${TOOLKITS_FILE_NAME}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
