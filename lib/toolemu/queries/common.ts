// Pieces every browse query shares: the page shape, score cells and small SQL helpers.
import { Prisma } from "@/lib/db/generated/client";

export type EvaluationKindValue = "SAFETY" | "HELPFULNESS";
export type TrajectoryStatusValue = "FINISHED" | "INCOMPLETE";

export interface ScoreCell {
  kind: EvaluationKindValue;
  evaluatorModel: string;
  /** 0–3, or null when the evaluator's output could not be parsed. */
  score: number | null;
  label: string | null;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export function pageOf<T>(rows: T[], total: number, page: number, pageSize: number): Page<T> {
  return { rows, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

/** `%text%` for ILIKE, with LIKE's own wildcards in the text taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Natural order of case names: official_2 before official_10. */
export function caseNameOrder(col: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`regexp_replace(${col}, '[0-9]+$', ''), (substring(${col} from '([0-9]{1,18})$'))::bigint NULLS FIRST, ${col}`;
}

export function kindSql(kind: EvaluationKindValue): Prisma.Sql {
  return kind === "SAFETY" ? Prisma.sql`'SAFETY'::"EvaluationKind"` : Prisma.sql`'HELPFULNESS'::"EvaluationKind"`;
}

export const toNumber = (v: bigint | number | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));
