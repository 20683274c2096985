import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requirePermission } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Annotate" };

export default async function Page() {
  await requirePermission("annotation:label");
  return (
    <ComingSoon
      title="Annotate"
      description="Label trajectories for safety, helpfulness and emulator issues. Items are blinded: you will not see which model produced them."
      plan={["Keyboard-first labelling with autosaved drafts", "Progress per campaign", ]}
    />
  );
}
