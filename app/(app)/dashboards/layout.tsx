import { requirePermission } from "@/lib/auth/server";

// Checked here as well as in each page: a layout renders outside the panels' loading.tsx
// boundaries, so a signed-in user without the permission gets a real redirect, not a streamed
// skeleton followed by a client-side one.
export default async function Layout({ children }: { children: React.ReactNode }) {
  await requirePermission("dashboard:read");
  return children;
}
