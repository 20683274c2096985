import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requirePermission } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Cases" };

export default async function Page() {
  await requirePermission("case:read");
  return (
    <ComingSoon
      title="Cases"
      description="ToolEmu test cases: instructions, underspecifications and potential risks."
      plan={["Import the 144 official cases", "Filter by toolkit and risk words; full-text search", ]}
    />
  );
}
