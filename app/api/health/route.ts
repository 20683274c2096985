import { getSessionUser, sessionClaims } from "@/lib/auth/server";
import { checkHealth, publicHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

// Public on purpose: load balancers and the start script poll it without a session. They get
// the status alone; the version, commit, database error and migration names only go to
// signed-in users (no user read at all without a session cookie).
export async function GET() {
  const health = await checkHealth();
  const signedIn = (await sessionClaims()) !== null && (await getSessionUser()) !== null;
  return Response.json(signedIn ? health : publicHealth(health), { status: health.ok ? 200 : 503 });
}
