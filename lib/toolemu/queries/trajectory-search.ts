// Full-text search over trajectories with PostgreSQL's text search (works the same on the embedded
// PGlite). Three documents, each with a GIN index on exactly the expression used here (migration
// trajectory_search — change one and the other together, and lib/db/drift.test.ts HAND_WRITTEN):
//   the case's user instruction, each step (thought, action, its input, observation), the final answer.
// The query is websearch_to_tsquery('english', q): plain words (stemmed: "deleting" finds
// "deleted"), "a phrase", `or`, and -word to exclude.
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { MATCH_END, MATCH_START } from "../snippet-text";

export const SEARCH_CONFIG = "english";

/** The tsquery of a search text (a bound parameter: never spliced into SQL). */
export function tsQuery(q: string): Prisma.Sql {
  return Prisma.sql`websearch_to_tsquery('english'::regconfig, ${q})`;
}

// The indexed expressions, written exactly as in the migration so the planner uses the indexes.
const instructionDoc = (c: string) => Prisma.raw(`to_tsvector('english'::regconfig, ${c}."userInstruction")`);
const finalDoc = (t: string) => Prisma.raw(`to_tsvector('english'::regconfig, COALESCE(${t}."finalAnswer", ''))`);
const stepText = (s: string) =>
  `COALESCE(${s}."thought", '') || ' ' || COALESCE(${s}."action", '') || ' ' || COALESCE(${s}."actionInputRaw", '') || ' ' || COALESCE(${s}."observationRaw", '')`;
const stepDoc = (s: string) => Prisma.raw(`to_tsvector('english'::regconfig, ${stepText(s)})`);

/** "The trajectory `t` matches q" — in its instruction, a step or its final answer. */
export function searchCondition(q: string): Prisma.Sql {
  const query = tsQuery(q);
  return Prisma.sql`(
    ${finalDoc("t")} @@ ${query}
    OR EXISTS (SELECT 1 FROM "Step" ss WHERE ss."trajectoryId" = t.id AND ${stepDoc("ss")} @@ ${query})
    OR t."caseId" IN (SELECT cs.id FROM "TestCase" cs WHERE ${instructionDoc("cs")} @@ ${query}))`;
}

/**
 * Relevance of `t` for q: ts_rank over one weighted document — the final answer (A) and the steps
 * (B) are this trajectory's own words and weigh more than the instruction (C), which every
 * trajectory of the case shares.
 */
export function searchRank(q: string): Prisma.Sql {
  return Prisma.sql`ts_rank(
    setweight(${finalDoc("t")}, 'A')
    || setweight(COALESCE((SELECT to_tsvector('english'::regconfig, string_agg(${Prisma.raw(stepText("sr"))}, ' ' ORDER BY sr.index)) FROM "Step" sr WHERE sr."trajectoryId" = t.id), ''::tsvector), 'B')
    || setweight(COALESCE((SELECT ${instructionDoc("cr")} FROM "TestCase" cr WHERE cr.id = t."caseId"), ''::tsvector), 'C'),
    ${tsQuery(q)})`;
}

/** False when q has no searchable word (only stop words like "the", or only punctuation). */
export async function isSearchable(db: Db, q: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ n: number }[]>`SELECT numnode(${tsQuery(q)}) AS n`;
  return Number(rows[0]?.n ?? 0) > 0;
}

const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=24, MinWords=8, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

export type SnippetPart = "instruction" | "step" | "final";

export interface SearchSnippet {
  part: SnippetPart;
  /** 0-based step index for a step snippet. */
  stepIndex: number | null;
  /** Text with matches between MATCH_START and MATCH_END. */
  text: string;
}

/** Steps with a match shown per trajectory (the first ones); the rest are counted. */
const STEP_SNIPPETS = 2;

export interface TrajectorySnippets {
  snippets: SearchSnippet[];
  /** Matching steps beyond those shown. */
  moreSteps: number;
}

/**
 * Highlighted snippets of where each trajectory matched: its first matching steps, its final
 * answer, then the instruction. Only for the ids given (one page), as ts_headline reads the text.
 */
export async function searchSnippets(db: Db, ids: string[], q: string): Promise<Map<string, TrajectorySnippets>> {
  const out = new Map<string, TrajectorySnippets>();
  if (ids.length === 0) return out;
  const query = tsQuery(q);
  const opts = Prisma.sql`${HEADLINE_OPTIONS}`;
  const rows = await db.$queryRaw<{ id: string; part: SnippetPart; stepIndex: number | null; text: string }[]>`
    SELECT t.id, 'final' AS part, NULL::int AS "stepIndex", ts_headline('english'::regconfig, t."finalAnswer", ${query}, ${opts}) AS text
      FROM "Trajectory" t WHERE t.id IN (${Prisma.join(ids)}) AND ${finalDoc("t")} @@ ${query}
    UNION ALL
    SELECT t.id, 'instruction', NULL, ts_headline('english'::regconfig, c."userInstruction", ${query}, ${opts})
      FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" WHERE t.id IN (${Prisma.join(ids)}) AND ${instructionDoc("c")} @@ ${query}
    UNION ALL
    SELECT s."trajectoryId", 'step', s.index, ts_headline('english'::regconfig, ${Prisma.raw(stepText("s"))}, ${query}, ${opts})
      FROM "Step" s WHERE s."trajectoryId" IN (${Prisma.join(ids)}) AND ${stepDoc("s")} @@ ${query}`;
  const order: Record<SnippetPart, number> = { step: 0, final: 1, instruction: 2 };
  rows.sort((a, b) => order[a.part] - order[b.part] || (a.stepIndex ?? 0) - (b.stepIndex ?? 0));
  for (const r of rows) {
    const entry = out.get(r.id) ?? { snippets: [], moreSteps: 0 };
    const stepsShown = entry.snippets.filter((s) => s.part === "step").length;
    if (r.part === "step" && stepsShown >= STEP_SNIPPETS) entry.moreSteps++;
    else entry.snippets.push({ part: r.part, stepIndex: r.stepIndex === null ? null : Number(r.stepIndex), text: r.text.replace(/\s+/g, " ").trim() });
    out.set(r.id, entry);
  }
  return out;
}
