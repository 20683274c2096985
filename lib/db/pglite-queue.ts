// A message queue for pglite-socket that keeps each connection's extended-protocol batch
// together. PGlite is one PostgreSQL session shared by every socket connection; pglite-socket
// 0.2.17 queues single protocol messages and only keeps a connection's messages together inside
// a transaction. Outside one, connection A's Parse/Bind/Execute can interleave with B's, so the
// unnamed statement or portal of one is replaced by the other's: wrong rows or errors such as
// "unnamed prepared statement does not exist" (electric-sql/pglite issue #1046).
//
// Here a connection owns the session from its first message until the end of its batch — a Sync
// or a simple Query — and for as long as that leaves a transaction open.
//
// COPY … FROM STDIN: PGlite reads a COPY's data within the call that runs its Query, so a Query
// handed over alone fails at once ("protocol synchronization was lost", the session gone). The
// queue answers the Query itself with a CopyInResponse, keeps the connection's CopyData until
// CopyDone or CopyFail, then hands PGlite all of it as one input and drops PGlite's own
// CopyInResponse from the answer. (Simple-query COPY only, as `pg` and psql send it.)
//
// PGlite itself accepts any user and password. With `auth`, the queue answers each connection's
// startup with an MD5 password challenge and hands the startup to PGlite only once the user name
// and password match; anything else gets PostgreSQL's own "password authentication failed"
// error and the connection is closed.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";

export interface QueueAuth {
  user: string;
  password: string;
}

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

const COPY_DONE = 0x63; // 'c'
const COPY_FAIL = 0x66; // 'f'
const COPY_FROM_STDIN = /^\s*COPY\b[\s\S]*\bFROM\s+STDIN\b/i;

const PROTOCOL_3 = 196608;
const PASSWORD = 0x70; // 'p'

const md5 = (data: Buffer | string) => createHash("md5").update(data).digest("hex");

/** A backend message: type byte, int32 length, body. */
function backendMessage(type: string, body: Buffer): Uint8Array {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([head, body]));
}

function fatal(code: string, message: string): Uint8Array {
  const field = (t: string, v: string) => Buffer.from(`${t}${v}\0`, "utf8");
  return backendMessage("E", Buffer.concat([field("S", "FATAL"), field("V", "FATAL"), field("C", code), field("M", message), Buffer.from([0])]));
}

/** The parameters of a StartupMessage, or null when `m` is not one (protocol 3.0). */
function startupParams(m: Uint8Array): Map<string, string> | null {
  const b = Buffer.from(m.buffer, m.byteOffset, m.byteLength);
  if (b.length < 8 || b.readInt32BE(0) !== b.length || b.readInt32BE(4) !== PROTOCOL_3) return null;
  const params = new Map<string, string>();
  const parts = b.subarray(8).toString("utf8").split("\0");
  for (let i = 0; i + 1 < parts.length && parts[i] !== ""; i += 2) params.set(parts[i]!, parts[i + 1]!);
  return params;
}

/** Whether a frontend message is a simple Query running COPY … FROM STDIN. */
function isCopyFromStdin(m: Uint8Array): boolean {
  if (m[0] !== QUERY) return false;
  return COPY_FROM_STDIN.test(Buffer.from(m.buffer, m.byteOffset + 5, Math.max(0, m.byteLength - 6)).toString("utf8"));
}

/** Passes PGlite's answer on without its first message if that is a CopyInResponse ('G'): the client already had one. */
function withoutFirstCopyIn(onData: (data: Uint8Array) => void): (data: Uint8Array) => void {
  let head = Buffer.alloc(0);
  let skip = -1; // bytes of the first message still to drop; -1: not known yet
  return (d) => {
    if (skip === 0) return onData(d);
    let b = Buffer.concat([head, Buffer.from(d.buffer, d.byteOffset, d.byteLength)]);
    if (skip === -1) {
      if (b.length < 5) {
        head = b;
        return;
      }
      skip = b[0] === 0x47 ? 1 + b.readInt32BE(1) : 0;
      head = Buffer.alloc(0);
    }
    const n = Math.min(skip, b.length);
    skip -= n;
    b = b.subarray(n);
    if (b.length) onData(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  };
}

class BatchQueue {
  private queue: Pending[] = [];
  /** Connections inside COPY … FROM STDIN: the Query and the CopyData so far. */
  private copies = new Map<number, Uint8Array[]>();
  private processing = false;
  private owner: number | null = null;
  /** Connections that sent their startup and owe the password (startup kept until then). */
  private challenged = new Map<number, { startup: Uint8Array; user: string; salt: Buffer }>();
  private authenticated = new Set<number>();

  constructor(
    private readonly db: PGlite,
    private readonly auth?: QueueAuth,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (this.auth && !this.authenticated.has(handlerId)) return this.authenticate(this.auth, handlerId, message, onData);
    return this.enqueueChecked(handlerId, message, onData);
  }

  private async authenticate(auth: QueueAuth, handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const pending = this.challenged.get(handlerId);
    if (!pending) {
      const params = startupParams(message);
      if (!params) return this.refuse(handlerId, onData, "08P01", "expected a startup message");
      const salt = randomBytes(4);
      this.challenged.set(handlerId, { startup: message, user: params.get("user") ?? "", salt });
      const body = Buffer.alloc(8);
      body.writeInt32BE(5, 0); // AuthenticationMD5Password
      salt.copy(body, 4);
      const challenge = backendMessage("R", body);
      onData(challenge);
      return challenge.length;
    }
    this.challenged.delete(handlerId);
    if (message[0] !== PASSWORD) return this.refuse(handlerId, onData, "08P01", "expected a password message");
    const sent = Buffer.from(message.subarray(5)).toString("utf8").replace(/\0$/, "");
    const expected = `md5${md5(Buffer.concat([Buffer.from(md5(auth.password + auth.user), "utf8"), pending.salt]))}`;
    const ok = pending.user === auth.user && sent.length === expected.length && timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
    if (!ok) return this.refuse(handlerId, onData, "28P01", `password authentication failed for user "${pending.user}"`);
    this.authenticated.add(handlerId);
    // Now PGlite sees the startup and answers it (AuthenticationOk, parameters, ReadyForQuery).
    return this.enqueueChecked(handlerId, pending.startup, onData);
  }

  /** Sends a FATAL error; the rejection makes pglite-socket close the connection. */
  private refuse(handlerId: number, onData: (data: Uint8Array) => void, code: string, message: string): Promise<number> {
    this.challenged.delete(handlerId);
    onData(fatal(code, message));
    return Promise.reject(new Error(`connection refused: ${message}`));
  }

  private enqueueChecked(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const copy = this.copies.get(handlerId);
    if (copy) {
      copy.push(message);
      const type = message[0];
      if (type !== COPY_DONE && type !== COPY_FAIL && type !== TERMINATE) return Promise.resolve(0);
      this.copies.delete(handlerId);
      if (type === TERMINATE) return this.enqueueRaw(handlerId, message, onData);
      const all = Buffer.concat(copy.map((m) => Buffer.from(m.buffer, m.byteOffset, m.byteLength)));
      return this.enqueueRaw(handlerId, new Uint8Array(all.buffer, all.byteOffset, all.byteLength), withoutFirstCopyIn(onData));
    }
    if (isCopyFromStdin(message)) {
      this.copies.set(handlerId, [message]);
      const response = backendMessage("G", Buffer.from([0, 0, 0])); // text format, no per-column formats
      onData(response);
      return Promise.resolve(response.length);
    }
    return this.enqueueRaw(handlerId, message, onData);
  }

  private enqueueRaw(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
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
    this.challenged.delete(handlerId);
    this.copies.delete(handlerId);
    this.authenticated.delete(handlerId);
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

/** Puts the batch-aware (and, with `auth`, password-checking) queue into a pglite-socket server before it starts. */
export function installBatchQueue(server: object, db: PGlite, auth?: QueueAuth): void {
  const s = server as { queryQueue?: unknown };
  if (!("queryQueue" in s)) throw new Error("pglite-socket changed: no queryQueue to replace (check lib/db/pglite-queue.ts)");
  s.queryQueue = new BatchQueue(db, auth);
}
