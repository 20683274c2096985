import { requirePermission } from "@/lib/auth/server";

// Checked here as well as in each page (a real redirect for annotators, who never see SAGE's
// hidden fields).
export default async function Layout({ children }: { children: React.ReactNode }) {
  await requirePermission("sage:read");
  return children;
}
