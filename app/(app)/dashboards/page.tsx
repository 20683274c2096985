import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requirePermission } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Dashboards" };

export default async function Page() {
  await requirePermission("dashboard:read");
  return (
    <ComingSoon
      title="Dashboards"
      description="Agreement and failure metrics, each with n and a confidence interval."
      plan={["Cohen's kappa (categorical, linear, quadratic, binarized), evaluator vs human and human vs human", "Identified-failure precision, true-failure incidence, emulator quality, agent leaderboards", ]}
    />
  );
}
