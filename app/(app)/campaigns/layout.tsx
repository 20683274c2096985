import { requirePermission } from "@/lib/auth/server";

// Checked here as well as in each page: a layout renders outside the section's loading.tsx
// boundary, so a signed-in user without the permission gets a real redirect (307), not a
// streamed skeleton followed by a client-side one.
export default async function Layout({ children }: { children: React.ReactNode }) {
  await requirePermission("campaign:manage");
  return children;
}
