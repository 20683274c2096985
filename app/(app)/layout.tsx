import { AppHeader } from "@/components/shell/app-header";
import { requireUser } from "@/lib/auth/server";
import { signOutEverywhereAction } from "./_actions/sign-out-everywhere";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <>
      <AppHeader user={user} signOutEverywhere={signOutEverywhereAction} />
      <main className="mx-auto max-w-7xl px-4 py-8">{children}</main>
    </>
  );
}
