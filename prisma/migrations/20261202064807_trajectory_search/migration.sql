-- Hand-written (Prisma cannot express expression indexes): full-text search over trajectories
-- (lib/toolemu/queries/trajectory-search.ts). Each index is on the exact expression the search
-- query uses, so PostgreSQL (and the embedded PGlite) answers "@@" from the GIN index; nothing
-- has to be kept in sync by the application. Listed in lib/db/drift.test.ts HAND_WRITTEN.

-- The case's user instruction.
CREATE INDEX "TestCase_search_idx" ON "TestCase" USING GIN (to_tsvector('english'::regconfig, "userInstruction"));

-- The final answer.
CREATE INDEX "Trajectory_search_idx" ON "Trajectory" USING GIN (to_tsvector('english'::regconfig, COALESCE("finalAnswer", '')));

-- Each step: the thought, the action (tool name), its input and the observation.
CREATE INDEX "Step_search_idx" ON "Step" USING GIN (to_tsvector('english'::regconfig, COALESCE("thought", '') || ' ' || COALESCE("action", '') || ' ' || COALESCE("actionInputRaw", '') || ' ' || COALESCE("observationRaw", '')));
