// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The core (lib/) runs in Node; keep its native-ish deps out of the bundle.
  serverExternalPackages: ["pg", "pg-boss", "@prisma/adapter-pg", "@electric-sql/pglite", "bcryptjs"],
  typedRoutes: false,
};

export default nextConfig;
