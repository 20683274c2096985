import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UserTable } from "@/components/admin/user-table";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { listUsers } from "@/lib/users/manage";
import { createUserAction } from "./_actions/create-user";
import { changeRoleAction } from "./_actions/change-role";
import { resetPasswordAction } from "./_actions/reset-password";
import { setDisabledAction } from "./_actions/set-disabled";
import { signOutUserAction } from "./_actions/sign-out-user";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await requirePermission("user:manage");
  const users = await listUsers(db());
  return (
    <>
      <PageHeader title="Users" description="Everyone who can sign in, with their role. Role changes, password resets and disabling take effect on the user's next request and end their sessions (they sign in again); End sessions signs a user out everywhere. Every change is written to the audit log." />
      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <UserTable
          users={users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() }))}
          currentUserId={me.id}
          changeRole={changeRoleAction}
          resetPassword={resetPasswordAction}
          setDisabled={setDisabledAction}
          signOutUser={signOutUserAction}
        />
        <CreateUserForm createUser={createUserAction} />
      </div>
    </>
  );
}
