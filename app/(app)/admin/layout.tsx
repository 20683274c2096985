import { AdminTabs } from "@/components/admin/admin-tabs";
import { requireUser } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";

// The admin section: one tab per area the signed-in admin may manage.
const TABS = [
  { href: "/admin/users", label: "Users", permission: "user:manage" },
  { href: "/admin/endpoints", label: "Endpoints", permission: "endpoint:manage" },
] as const;

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const tabs = TABS.filter((t) => can(user.role, t.permission)).map(({ href, label }) => ({ href, label }));
  return (
    <>
      {tabs.length > 1 && <AdminTabs tabs={tabs} />}
      {children}
    </>
  );
}
