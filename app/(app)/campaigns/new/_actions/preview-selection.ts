"use server";

import { z } from "zod";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { previewSelection } from "@/lib/annotation/manage-queries";

const previewSchema = z.object({ filter: z.record(z.string(), z.string().max(500)).default({}), includeOffline: z.boolean().default(false) });

/** The number of trajectories a filter matches (and its agent × mode strata, and the offline-model ones left out), for the create form. */
export const previewSelectionAction = withPermission("campaign:manage", previewSchema, async ({ filter, includeOffline }) => previewSelection(db(), filter, includeOffline));
