import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getSessionUser } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  if (await getSessionUser()) redirect(safeCallback(callbackUrl));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-semibold tracking-tight">ToolEmu Studio</h1>
          <p className="mt-1 text-sm text-slate-600">Find the risky behaviour of tool-using LLM agents.</p>
        </div>
        <SignInForm callbackUrl={safeCallback(callbackUrl)} initialError={error && error !== "CredentialsSignin" ? error : undefined} />
      </div>
    </main>
  );
}

// Only same-site paths: an open redirect after sign-in would be a phishing aid.
function safeCallback(url: string | undefined): string {
  return url && url.startsWith("/") && !url.startsWith("//") ? url : "/";
}
