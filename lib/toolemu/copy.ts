// COPY … FROM STDIN / TO STDOUT over an ordinary `pg` client, without a dependency: a "submittable"
// (pg's hook for custom protocol flows) that sends prepared chunks as CopyData, or collects them.
// Works the same against PostgreSQL and the embedded PGlite behind pglite-socket.
import type pg from "pg";

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(msg: string): void;
}

/**
 * Bytes per CopyData message. The embedded server (pglite-socket) gathers each message by
 * appending every piece the socket delivers to what it holds so far, so its cost grows with the
 * square of a message's size: a 2 MB message cost ~16 copies of itself, a 64 kB one ~1.
 */
const COPY_MESSAGE = 64 * 1024;

class CopySubmittable {
  callback?: (err: Error | null, res?: unknown) => void;
  private error: Error | null = null;
  rowCount = 0;
  readonly done: Promise<number>;
  private settle!: { resolve: (n: number) => void; reject: (e: Error) => void };

  constructor(
    readonly text: string,
    private readonly chunks: Buffer[],
    private readonly onData?: (chunk: Buffer) => void,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: PgConnection) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: PgConnection) {
    for (const c of this.chunks) for (let at = 0; at < c.length; at += COPY_MESSAGE) connection.sendCopyFromChunk(c.subarray(at, at + COPY_MESSAGE));
    connection.endCopyFrom();
  }
  handleCopyData(msg: { chunk: Buffer }) {
    this.onData?.(msg.chunk);
  }
  handleCommandComplete(msg: { text?: string }) {
    const m = /(\d+)$/.exec(msg.text ?? "");
    if (m) this.rowCount = Number(m[1]);
  }
  // pg detaches the active query before handing it an error, so no ReadyForQuery follows here.
  handleError(err: Error) {
    this.error ??= err;
    this.settle.reject(this.error);
    this.callback?.(this.error);
  }
  handleReadyForQuery() {
    this.settle.resolve(this.rowCount);
    this.callback?.(null, this.rowCount);
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
}

/** Runs `COPY … FROM STDIN` with these chunks of COPY text as its data; resolves to the row count. */
export async function copyFrom(client: pg.ClientBase, sql: string, chunks: Buffer[]): Promise<number> {
  const q = new CopySubmittable(sql, chunks);
  client.query(q as unknown as pg.QueryConfig);
  return q.done;
}

/** Runs `COPY … TO STDOUT`, handing each chunk of data to `onData`; resolves to the row count. */
export async function copyTo(client: pg.ClientBase, sql: string, onData: (chunk: Buffer) => void): Promise<number> {
  const q = new CopySubmittable(sql, [], onData);
  client.query(q as unknown as pg.QueryConfig);
  return q.done;
}

/** A value in COPY's text format: \N for null, backslash escapes for the four special characters. */
export function copyText(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number") return String(v);
  return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : v;
}

/** A text[] value in COPY's text format (array literal, then COPY-escaped). */
export function copyTextArray(items: string[]): string {
  return copyText(`{${items.map((s) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`);
}
