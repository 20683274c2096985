import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { getSessionUser } from "@/lib/auth/server";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  const target = safeCallbackPath(callbackUrl);
  if (await getSessionUser()) redirect(target);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-semibold tracking-tight">ToolEmu Studio</h1>
          <p className="mt-1 text-sm text-slate-600">Find the risky behaviour of tool-using LLM agents.</p>
        </div>
        <SignInForm callbackUrl={target} initialError={signInErrorMessage(error)} />
      </div>
    </main>
  );
}
