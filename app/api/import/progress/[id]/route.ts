import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { sessionClaims, withPermission } from "@/lib/auth/server";
import type { SessionClaims } from "@/lib/auth/sessions";
import { runningEmbedded } from "@/lib/db/embedded";
import { getProgress, type ProgressEntry } from "@/lib/toolemu/progress-store";

export const dynamic = "force-dynamic";

const ownedBy = (e: ProgressEntry | null, c: SessionClaims | null) =>
  !!e && !!c && e.owner.sub === c.sub && e.owner.sid === c.sid && e.owner.sv === c.sv;

// Whether this process talks to the embedded database (the one `npm start` serves from the data folder).
let embedded: boolean | undefined;
const onEmbedded = () => (embedded ??= !!process.env.DATABASE_URL && runningEmbedded()?.url === process.env.DATABASE_URL);

const view = ({ owner: _owner, ...p }: ProgressEntry) => p;

// The ordinary guard: the user row is read, so a demoted, disabled or signed-out user is refused.
const progress = withPermission("data:import", z.uuid(), async (id, { user }) => {
  const e = getProgress(id);
  return { progress: e && e.owner.sub === user.id ? view(e) : null };
});

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const entry = getProgress(id);
  const claims = await sessionClaims();
  // One exception, on the embedded database only: while the import writes, its transaction holds
  // that database (it runs one transaction at a time), so a user read would wait until the import
  // ends. The owner's session was checked by the guard when the import started and no other write
  // can commit there before it ends, so the check still holds; the same session sees its numbers.
  // (On PostgreSQL the ordinary read never waits for the import.)
  if (entry?.phase === "writing" && ownedBy(entry, claims) && onEmbedded()) return Response.json({ progress: view(entry) });
  return toResponse(await progress(id));
}
