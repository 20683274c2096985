"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { pingEndpoint } from "@/lib/llm/endpoints";
import { endpointIdSchema } from "@/lib/llm/endpoint-schemas";

// One real request (no retries, no cache); a failure is a result with the reason, not an error.
export const pingEndpointAction = withPermission("endpoint:manage", endpointIdSchema, async ({ id }) => pingEndpoint(db(), id));
