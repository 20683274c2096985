// The per-request Content-Security-Policy that proxy.ts sets, and the body size it accepts. The
// static security headers (nosniff, Referrer-Policy, X-Frame-Options) are in next.config.js.

/** The most of a request body Next buffers for the proxy: experimental.proxyClientMaxBodySize in next.config.js. */
export const PROXY_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Next's body limit for server actions (serverActions.bodySizeLimit, default 1 MB, not changed
 * in next.config.js). Next refuses a larger one with a 500; the proxy answers 413 first.
 */
export const SERVER_ACTION_BODY_LIMIT = 1024 * 1024;

export function contentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    // 'unsafe-eval' only for `next dev` (React's dev tooling); never in a build.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Inline style attributes (charts, progress bars) are data-driven React props, not markup.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
