import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withTokenPermission } from "@/lib/auth/server";
import { getProgress } from "@/lib/toolemu/progress-store";

export const dynamic = "force-dynamic";

// Token-only session check: this must answer while the import holds the embedded database.
const progress = withTokenPermission("data:import", z.uuid(), async (id) => ({ progress: getProgress(id) }));

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return toResponse(await progress((await params).id));
}
