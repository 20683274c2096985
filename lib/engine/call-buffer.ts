// An episode's LlmCall rows, held from the end of their call until the write that stores the
// call's result: the agent's call goes with its step's INSERT (or the trajectory's finish, for a
// final answer), the emulator's calls with the step's completion, an evaluator's call with its
// Evaluation row. The row and the result it produced are one statement, so they commit together:
// a crash never leaves a stored result without the record of the call that produced it (nor a
// record without its result). What a crash can lose is the record of a call whose result was not
// stored yet — a call in flight, or one that ended milliseconds before the crash — just as the
// result itself.
//
// Rows nobody stored with a result (a failed evaluation call, a call of an episode that was
// stopped) are written by flushCalls at the episode's end. Only the agent's, the emulator's and
// the evaluator's clients are buffered; the online gate's critic and simulated user write their
// rows as they always did (their results go to their own tables).
import type { RawSql } from "@/lib/db/fast-sql";
import type { LlmCallRecord, ModelClient } from "@/lib/llm/types";

export class CallBuffer {
  private rows: LlmCallRecord[] = [];

  push(row: LlmCallRecord): void {
    this.rows.push(row);
  }

  /** Every held row, in the order the calls ended; the buffer is empty after. */
  take(): LlmCallRecord[] {
    const out = this.rows;
    this.rows = [];
    return out;
  }

  /** Rows a failed write had taken go back (before any that arrived since). */
  putBack(rows: LlmCallRecord[]): void {
    if (rows.length) this.rows = [...rows, ...this.rows];
  }

  get size(): number {
    return this.rows.length;
  }
}

/** The client with its calls' rows held in `buffer` (when the client records calls at all). */
export function bufferedClient(client: ModelClient, buffer: CallBuffer): ModelClient {
  return { endpoint: client.endpoint, chat: (request) => client.chat({ ...request, record: (row) => buffer.push(row) }) };
}

/** The LlmCall columns in the order LLM_CALL_INSERT lists them. */
const COLUMNS = `"endpointId", role, "trajectoryId", "runId", "stepIndex", model, "inputTokens", "outputTokens", "costUsd", "latencyMs", attempts, cached, "retryReasons", error, "createdAt"`;

/**
 * An INSERT of the rows given as one jsonb parameter (`$n`), in their order (ids ascending as the
 * calls ended), for a data-modifying WITH of the statement that stores their result.
 */
export function llmCallInsert(param: string): string {
  return `INSERT INTO "LlmCall" (${COLUMNS})
    SELECT x."endpointId", x.role, x."trajectoryId", x."runId", x."stepIndex", x.model, x."inputTokens", x."outputTokens", x."costUsd", x."latencyMs", x.attempts, x.cached, x."retryReasons", x.error, x."createdAt"
    FROM ROWS FROM (jsonb_to_recordset(${param}::jsonb) AS ("endpointId" text, role text, "trajectoryId" text, "runId" text, "stepIndex" int, model text, "inputTokens" int, "outputTokens" int,
         "costUsd" float8, "latencyMs" int, attempts int, cached boolean, "retryReasons" text[], error text, "createdAt" timestamp(3)))
      WITH ORDINALITY AS x(${COLUMNS}, ord)
    ORDER BY x.ord`;
}

/** The rows as the jsonb parameter of llmCallInsert (createdAt as UTC, as Prisma stores DateTime). */
export function llmCallRowsJson(rows: readonly LlmCallRecord[]): string {
  return JSON.stringify(rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString().replace("Z", "") })));
}

/**
 * A write of the episode (`sql` with its parameters) together with the buffer's rows, in one
 * statement: `WITH w AS (<sql>), c AS (<insert of the rows>) SELECT * FROM w`. `sql` must end in a
 * RETURNING clause. Rows of a write that fails go back to the buffer.
 */
export async function writeWithCalls<T>(db: Pick<RawSql, "$queryRawUnsafe">, buffer: CallBuffer | null, sql: string, params: unknown[]): Promise<T[]> {
  const rows = buffer?.take() ?? [];
  if (!rows.length) return db.$queryRawUnsafe<T[]>(sql, ...params);
  const n = params.length + 1;
  try {
    return await db.$queryRawUnsafe<T[]>(`WITH w AS (${sql}), c AS (${llmCallInsert(`$${n}`)}) SELECT * FROM w`, ...params, llmCallRowsJson(rows));
  } catch (e) {
    buffer!.putBack(rows);
    throw e;
  }
}

/** Writes the rows still held (no result of theirs was stored): one INSERT. */
export async function flushCalls(db: Pick<RawSql, "$executeRawUnsafe">, buffer: CallBuffer): Promise<void> {
  const rows = buffer.take();
  if (!rows.length) return;
  try {
    await db.$executeRawUnsafe(llmCallInsert("$1"), llmCallRowsJson(rows));
  } catch (e) {
    buffer.putBack(rows);
    throw e;
  }
}
