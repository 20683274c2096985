import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

// Public on purpose: load balancers and the start script poll it without a session.
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, { status: health.ok ? 200 : 503 });
}
