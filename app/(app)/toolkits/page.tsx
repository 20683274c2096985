import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requirePermission } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Toolkits" };

export default async function Page() {
  await requirePermission("toolkit:read");
  return (
    <ComingSoon
      title="Toolkits"
      description="The tool specifications that the emulators play."
      plan={["Import ToolEmu's 38 toolkits and 330 tools", "Search toolkits; read every tool's parameters, returns and exceptions", ]}
    />
  );
}
