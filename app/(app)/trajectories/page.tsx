import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requirePermission } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Trajectories" };

export default async function Page() {
  await requirePermission("trajectory:read");
  return (
    <ComingSoon
      title="Trajectories"
      description="Agent trajectories step by step, with their safety and helpfulness evaluations."
      plan={["Import real ToolEmu trajectories with both judges' evaluations", "Filter, sort and page on the server; read each step; export JSONL and CSV", ]}
    />
  );
}
