import type { z } from "zod";
import type { ActionResult } from "@/lib/auth/guard";
import type { startEpisodeSchema } from "@/lib/engine/schemas";

/** The server action that starts a playground episode; the page passes it in (components never import app/). */
export type StartEpisodeAction = (input: z.input<typeof startEpisodeSchema>) => Promise<ActionResult<{ trajectoryId: string }>>;
