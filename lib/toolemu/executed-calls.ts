// "Executed tool call", the one definition the trajectory filter (calls=none|some) and the
// dashboards' no-executed-call cohort share (server only).
//
// A step executed a tool call when it names an action that reached the tool: imported ToolEmu
// steps always did (ToolEmu records a step only for a call its emulator answered); an emulated
// step did unless our input checks refused it (inputInvalid) or the agent's output could not be
// parsed (parseError). A call the emulator then failed to answer still counts: the agent ran it.
// An agent that writes "Action: …" lines inside its final answer executes nothing — the
// trajectories this exists to find (in the shared Qwen2.5-7B data, 43 of 144).
// Index used: Step(trajectoryId, index) unique.
import "server-only";
import { Prisma } from "@/lib/db/generated/client";

/** `EXISTS (…)`: the trajectory aliased `alias` has at least one executed tool call. */
export function hasExecutedCallSql(alias = "t"): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new RangeError(`bad SQL alias ${alias}`);
  const t = Prisma.raw(alias);
  return Prisma.sql`EXISTS (SELECT 1 FROM "Step" xs WHERE xs."trajectoryId" = ${t}.id AND xs.action IS NOT NULL AND NOT xs."inputInvalid" AND xs."parseError" IS NULL)`;
}
