// A message queue for pglite-socket that keeps each connection's extended-protocol batch
// together. PGlite is one PostgreSQL session shared by every socket connection; pglite-socket
// 0.2.17 queues single protocol messages and only keeps a connection's messages together inside
// a transaction. Outside one, connection A's Parse/Bind/Execute can interleave with B's, so the
// unnamed statement or portal of one is replaced by the other's: wrong rows or errors such as
// "unnamed prepared statement does not exist" (electric-sql/pglite issue #1046).
//
// Here a connection owns the session from its first message until the end of its batch — a Sync
// or a simple Query — and for as long as that leaves a transaction open.
import type { PGlite } from "@electric-sql/pglite";

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (e: unknown) => void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
// Frontend message types that start or continue a batch ending in Sync.
const BATCH_TYPES = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48, 0x46]); // P B D E C H F

export class BatchQueue {
  private queue: Pending[] = [];
  private processing = false;
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.processQueue();
    });
  }

  private next(): Pending | undefined {
    if (this.owner === null) return this.queue.shift();
    const i = this.queue.findIndex((p) => p.handlerId === this.owner);
    return i === -1 ? undefined : this.queue.splice(i, 1)[0];
  }

  async processQueue(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (d: Uint8Array) => {
                bytes += d.length;
                item!.onData(d);
              },
            }),
          );
        } catch (e) {
          item.reject(e);
          continue;
        }
        const type = item.message[0]!;
        const endsBatch = type === SYNC || type === QUERY || type === TERMINATE || !BATCH_TYPES.has(type);
        this.owner = endsBatch && !this.db.isInTransaction() ? null : item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((p) => {
      if (p.handlerId !== handlerId) return true;
      p.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** A connection that goes away mid-batch or mid-transaction must not keep the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    await this.processQueue();
  }
}

/** Puts the batch-aware queue into a pglite-socket server before it starts. */
export function installBatchQueue(server: object, db: PGlite): void {
  const s = server as { queryQueue?: unknown };
  if (!("queryQueue" in s)) throw new Error("pglite-socket changed: no queryQueue to replace (check lib/db/pglite-queue.ts)");
  s.queryQueue = new BatchQueue(db);
}
