// Sends signed-out visitors to the sign-in page. This is a convenience for people; the checks
// that protect data are in lib/auth (every page, action and route handler checks again).
import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";

const PUBLIC_PREFIXES = ["/signin", "/api/auth", "/api/health", "/_next", "/favicon"];

export async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  if (PUBLIC_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`) || pathname.startsWith(p + "."))) {
    return NextResponse.next();
  }
  const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET });
  if (token) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: "Please sign in." }, { status: 401 });
  }
  const url = req.nextUrl.clone();
  url.pathname = "/signin";
  url.search = pathname === "/" ? "" : `?callbackUrl=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

// Uploads skip the proxy: it would buffer (and cap) the request body, and the upload route
// checks the session itself through withPermission.
export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico|api/import/uploads).*)"] };
