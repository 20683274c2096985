// Connection checks that turn a driver error into one line a person can act on.
import pg from "pg";

export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

function explainConnectError(url: string, e: unknown): string {
  const err = e as NodeJS.ErrnoException & { code?: string };
  const where = describeUrl(url);
  const cause =
    err.code === "ECONNREFUSED" ? "connection refused (is PostgreSQL running there?)"
    : err.code === "ENOTFOUND" || err.code === "EAI_AGAIN" ? "host not found"
    : err.code === "ETIMEDOUT" ? "connection timed out"
    : err.code === "28P01" || err.code === "28000" ? "authentication failed (check user and password)"
    : err.code === "3D000" ? "database does not exist (create it first)"
    : (err.message || String(e)).split("\n")[0];
  return `Cannot connect to PostgreSQL at ${where}: ${cause}`;
}

class DatabaseUnreachableError extends Error {}

/** Opens a client or throws DatabaseUnreachableError with a one-line explanation. */
export async function connectClient(url: string, timeoutMs = 8000): Promise<pg.Client> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new DatabaseUnreachableError(
      `DATABASE_URL must start with postgresql:// (got "${url.slice(0, 30)}")`,
    );
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return client;
  } catch (e) {
    await client.end().catch(() => {});
    throw new DatabaseUnreachableError(explainConnectError(url, e));
  }
}
