// GET /cases/export — the ToolEmu test cases as ToolEmu's all_cases.json, a case's own critical
// tools under the extra key "x_toolemu_studio" that ToolEmu ignores (lib/toolemu/studio-extension.ts).
import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { CASES_FILE_NAME, exportCases, specsJson } from "@/lib/toolemu/export-specs";

const prepare = withPermission("case:read", z.object({}), async () => specsJson(await exportCases(db())));

export async function GET() {
  const result = await prepare({});
  if (!result.ok) return toResponse(result);
  return new Response(result.data, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${CASES_FILE_NAME}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
