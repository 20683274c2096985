// Checks on state-changing requests to our JSON routes, against cross-site request forgery: a
// page on another origin (even a same-site one: another port or subdomain, which gets our
// cookies) may send a "simple" POST — text/plain, a form — without asking. We refuse:
//   * a browser request from another origin: Sec-Fetch-Site other than same-origin, or an
//     Origin header that is not ours (the public URL, or the Host the request came to);
//   * a body that is not JSON — a cross-origin page cannot send application/json without a
//     CORS preflight, which we never answer.
// Requests without Origin and Sec-Fetch-Site (scripts, the CLI, benchmarks) pass: forgery needs
// a browser, and browsers send at least one of them on every POST.
export interface Refusal {
  status: 403 | 415;
  error: string;
}

export function crossOriginRefusal(req: Request, publicUrl: string | undefined = process.env.NEXTAUTH_URL): Refusal | null {
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") {
    return { status: 403, error: `Refused: this request came from another site (Sec-Fetch-Site: ${site}).` };
  }
  const origin = req.headers.get("origin");
  if (origin !== null) {
    const ours = new Set<string>();
    if (publicUrl) ours.add(safeOrigin(publicUrl));
    const host = req.headers.get("host");
    if (host) ours.add(`${new URL(req.url).protocol}//${host}`);
    if (!ours.has(origin)) return { status: 403, error: `Refused: this request came from another origin (${origin.slice(0, 100)}).` };
  }
  return null;
}

/** With `bodyOptional`, a request without a body needs no Content-Type. */
export function jsonRefusal(req: Request, opts: { bodyOptional?: boolean } = {}): Refusal | null {
  const type = req.headers.get("content-type");
  const hasBody = (req.headers.get("content-length") ?? "0") !== "0" || req.headers.has("transfer-encoding");
  if (type === null && opts.bodyOptional && !hasBody) return null;
  const media = type?.split(";")[0]!.trim().toLowerCase();
  if (media === "application/json") return null;
  return { status: 415, error: `Send the body as JSON (Content-Type: application/json${type ? `, not ${type.slice(0, 100)}` : ""}).` };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}
