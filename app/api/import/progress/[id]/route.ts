import { z } from "zod";
import { toResponse, UserNotVerified } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import type { SessionClaims } from "@/lib/auth/sessions";
import { runningEmbedded } from "@/lib/db/embedded";
import { getProgress, type ProgressEntry } from "@/lib/toolemu/progress-store";

export const dynamic = "force-dynamic";

const ownedBy = (e: ProgressEntry | null, c: SessionClaims) => !!e && e.owner.sub === c.sub && e.owner.sid === c.sid && e.owner.sv === c.sv;

// Whether this process talks to the embedded database (the one `npm start` serves from the data folder).
let embedded: boolean | undefined;
const onEmbedded = () => (embedded ??= !!process.env.DATABASE_URL && runningEmbedded()?.url === process.env.DATABASE_URL);

const view = ({ owner: _owner, ...p }: ProgressEntry) => p;

// The guard's deferred check, for one case, on the embedded database only: while the import
// writes, its transaction holds that database (it runs one transaction at a time), so a user read
// would wait until the import ends. The owner's session was checked by the guard when the import
// started and no other write can commit there before it ends, so that check still holds; the same
// session sees its numbers. Otherwise (and always on PostgreSQL, where the ordinary read never
// waits for the import) the guard reads the user row: a demoted, disabled or signed-out user is refused.
const progress = withPermission(
  "data:import",
  z.uuid(),
  async (id, { caller }) => {
    const e = getProgress(id);
    if (caller.deferredCheck) {
      if (e?.phase === "writing" && ownedBy(e, caller.session) && onEmbedded()) return { progress: view(e) };
      throw new UserNotVerified();
    }
    return { progress: e && e.owner.sub === caller.id ? view(e) : null };
  },
  { userCheck: "deferred" },
);

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return toResponse(await progress((await params).id));
}
