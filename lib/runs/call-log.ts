// Where a worker's model clients write their LlmCall rows: one per call, as the client does, but
// the rows of calls that end together go to the database in one multi-row INSERT (group commit).
// A worker with dozens of episodes in flight ends a model call every few milliseconds; one
// statement per row is most of its database round trips, and on the embedded database (one
// session, one statement at a time) every round trip waits behind all the others.
//
// Nothing is deferred: a row's create() resolves once the INSERT holding it has committed, as
// before. While one INSERT is in flight the next rows wait and then go together; with nothing
// in flight a row goes at once (no timer). If a batch fails (e.g. one row's trajectory was just
// deleted by a reclaim), its rows are written one by one, so only the bad row's call fails.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

type Row = Prisma.LlmCallCreateManyInput;

/** The part of a Db the model client uses (ModelClientOptions.db), with LlmCall rows batched. */
export type CallLogDb = Pick<Db, "llmCall" | "llmCacheEntry">;

const MAX_BATCH = 200;

export function batchedCallLog(db: Db): CallLogDb {
  let pending: { row: Row; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let flushing = false;

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      while (pending.length) {
        const batch = pending.slice(0, MAX_BATCH);
        pending = pending.slice(batch.length);
        try {
          if (batch.length === 1) await db.llmCall.create({ data: batch[0]!.row, select: { id: true } });
          else await db.llmCall.createMany({ data: batch.map((b) => b.row) });
          for (const b of batch) b.resolve();
        } catch (e) {
          if (batch.length === 1) {
            batch[0]!.reject(e);
            continue;
          }
          await Promise.all(
            batch.map((b) =>
              db.llmCall.create({ data: b.row, select: { id: true } }).then(
                () => b.resolve(),
                (e1: unknown) => b.reject(e1),
              ),
            ),
          );
        }
      }
    } finally {
      flushing = false;
    }
  }

  const llmCall = {
    create(args: { data: Row }) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ row: args.data, resolve, reject });
        void flush();
      });
    },
  };
  return { llmCall: llmCall as unknown as Db["llmCall"], llmCacheEntry: db.llmCacheEntry };
}
