// Every annotation API call passes these checks before the guard: same origin, JSON body.
import "server-only";
import { crossOriginRefusal, jsonRefusal } from "@/lib/auth/request-checks";

/** The parsed JSON body (null when absent or unparsable: the schema then answers 400), or a refusal. */
export async function readJsonRequest(req: Request, opts: { bodyOptional?: boolean } = {}): Promise<{ body: object | null } | { refused: Response }> {
  const refusal = crossOriginRefusal(req) ?? jsonRefusal(req, opts);
  if (refusal) return { refused: Response.json({ error: refusal.error }, { status: refusal.status }) };
  if (opts.bodyOptional && !req.headers.get("content-type")) return { body: null };
  return { body: (await req.json().catch(() => null)) as object | null };
}
