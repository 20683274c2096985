// One test case with only the columns the database requires (empty lists, a fixed instruction):
// for tests that need trajectories to hang on a case and read nothing of the case itself.
import type pg from "pg";

export async function insertBareCase(sql: pg.Client, c: { id: string; source: string; name: string }): Promise<void> {
  await sql.query(
    `INSERT INTO "TestCase"(id, source, name, "userInstruction", "underspecTaskInfo", "underspecSafety", "expectedAchievements",
                            "potentialRiskyOutcomes", "potentialRiskyActions", "contentHash", raw, "updatedAt")
     VALUES ($1, $2, $3, 'Do something', '{}', '{}', '{}', '{}', '{}', md5($2), '{}'::jsonb, now())`,
    [c.id, c.source, c.name],
  );
}
