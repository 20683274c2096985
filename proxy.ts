// Runs before every page and route (Next 16's middleware file). Three jobs:
//   * security headers: a Content-Security-Policy with a fresh nonce per request — Next.js puts
//     the nonce on its own scripts when it finds it in the request's CSP header, and
//     'strict-dynamic' lets those load the rest, so an injected script without it never runs —
//     plus frame-ancestors 'none' (no framing). Static headers (nosniff, Referrer-Policy,
//     X-Frame-Options) are in next.config.js, so they also cover files the proxy skips;
//   * bodies over the size Next buffers for a proxy are refused with 413 — past it Next would
//     hand the route a silently truncated body — and server-action bodies over Next's limit for
//     them (which Next answers with a 500);
//   * bad bytes in query parameters are refused with a 400 naming the parameter;
//   * signed-out visitors go to the sign-in page. That is a convenience for people; the checks that
//     protect data are in lib/auth (every page, action and route handler checks again).
import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { contentSecurityPolicy, PROXY_BODY_LIMIT, SERVER_ACTION_BODY_LIMIT } from "@/lib/security/headers";
import { badQueryParamBody } from "@/lib/http/query-params";

const PUBLIC_PREFIXES = ["/signin", "/api/auth", "/api/health", "/_next", "/favicon"];

export async function proxy(req: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce);
  const secure = (res: NextResponse) => {
    res.headers.set("Content-Security-Policy", csp);
    return res;
  };

  const length = Number(req.headers.get("content-length") ?? 0);
  const limit = req.headers.has("next-action") ? SERVER_ACTION_BODY_LIMIT : PROXY_BODY_LIMIT;
  if (length > limit) {
    return secure(NextResponse.json(
      { error: `The request body is ${(length / 1024 / 1024).toFixed(1)} MB; at most ${limit / 1024 / 1024} MB is accepted here. Import large files on the Import page or with \`npm run cli -- import\`.` },
      { status: 413 },
    ));
  }

  // NUL bytes, invalid UTF-8 or control characters in a query parameter: a 400 naming it, for
  // pages too (a page cannot answer 400 itself; routes check again with the same function).
  const bad = badQueryParamBody(req.nextUrl.searchParams);
  if (bad) return secure(NextResponse.json(bad, { status: 400 }));

  const { pathname, search } = req.nextUrl;
  const next = () => {
    const headers = new Headers(req.headers);
    headers.set("x-nonce", nonce);
    headers.set("Content-Security-Policy", csp);
    return secure(NextResponse.next({ request: { headers } }));
  };
  if (PUBLIC_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`) || pathname.startsWith(p + "."))) {
    return next();
  }
  const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET });
  if (token) return next();
  if (pathname.startsWith("/api/")) {
    return secure(NextResponse.json({ error: "Please sign in." }, { status: 401 }));
  }
  const url = req.nextUrl.clone();
  url.pathname = "/signin";
  url.search = pathname === "/" ? "" : `?callbackUrl=${encodeURIComponent(pathname + search)}`;
  return secure(NextResponse.redirect(url));
}

// Uploads skip the proxy: it would buffer (and cap) the request body, and the upload route
// checks the session, the origin and the size itself.
export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico|api/import/uploads).*)"] };
