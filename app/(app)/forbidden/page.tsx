import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/server";
import { ROLE_LABELS } from "@/lib/auth/permissions";

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const user = await requireUser();
  const { need } = await searchParams;
  return (
    <div className="mx-auto max-w-lg" role="alert">
      <PageHeader title="Not allowed" />
      <div className="rounded-xl border border-amber-200 bg-amber-50 p-6">
        <p className="text-sm text-amber-900">
          Your role ({ROLE_LABELS[user.role]}) cannot open that page{need ? <> (it needs <code className="font-mono">{need}</code>)</> : null}.
          Ask an admin if you need access.
        </p>
        <Link href="/" className="mt-4 inline-block text-sm font-medium text-amber-900 underline">Back to the start page</Link>
      </div>
    </div>
  );
}
