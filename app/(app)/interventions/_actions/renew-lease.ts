"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { renewInterventionLease } from "@/lib/runs/interventions/lease";
import { interventionLeaseInputSchema } from "@/lib/runs/interventions/schemas";

/** Keeps the approver's hold on the intervention on screen while the page stays open. */
export const renewInterventionLeaseAction = withPermission("intervention:answer", interventionLeaseInputSchema, async ({ id }, { user }) => {
  const lease = await renewInterventionLease(db(), user.id, id);
  return { id: lease.id, leaseUntil: lease.leaseUntil.toISOString() };
});
