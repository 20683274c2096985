// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The core (lib/) runs in Node; keep its native-ish deps out of the bundle.
  serverExternalPackages: ["pg", "pg-boss", "@prisma/adapter-pg", "@electric-sql/pglite", "bcryptjs"],
  typedRoutes: false,
  // proxy.ts answers larger bodies with 413 (lib/security/headers.ts PROXY_BODY_LIMIT, keep equal):
  // past this Next would pass the route a silently truncated body.
  experimental: { proxyClientMaxBodySize: 10 * 1024 * 1024 },
  // On every response, also files the proxy skips; the CSP with its nonce is set by proxy.ts.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          // Our URLs carry filters and ids; other sites need not see them.
          { key: "Referrer-Policy", value: "same-origin" },
          // Framing refused also where the CSP (frame-ancestors 'none') is absent.
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
