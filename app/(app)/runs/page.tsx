import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requirePermission } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Runs" };

export default async function Page() {
  await requirePermission("run:read");
  return (
    <ComingSoon
      title="Runs"
      description="Run agents against standard and adversarial LM emulators."
      plan={["Configure model endpoints (any OpenAI-compatible URL)", "Start runs from the UI, executed by background workers with live progress", ]}
    />
  );
}
