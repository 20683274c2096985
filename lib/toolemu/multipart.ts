// A streaming multipart/form-data reader for uploads: each file part is handed to a sink chunk by
// chunk as the bytes arrive (with backpressure), so a large upload never sits in memory, and the
// caller can stop at any byte (size caps). Request.formData() buffers the whole body instead.
import { AppError } from "@/lib/errors";

export interface PartInfo {
  /** The form field name. */
  name: string;
  /** The file name as the browser sent it (folder uploads: a relative path), or null for plain fields. */
  filename: string | null;
}

export interface PartSink {
  write(chunk: Uint8Array): Promise<void>;
  end(): Promise<void>;
}

/** Headers of one part may not exceed this (a real browser sends a few hundred bytes). */
const MAX_HEADER_BYTES = 16 * 1024;

export function boundaryOf(contentType: string | null): string {
  const m = /^multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? "");
  const b = m?.[1] ?? m?.[2];
  if (!b) throw new AppError("Send the files as multipart form data (Content-Type: multipart/form-data; boundary=…).", 400);
  return b;
}

/**
 * Reads `body` and calls `onPart` for each part; parts whose sink is null are skipped. A sink's
 * `write` may throw (e.g. a size cap) to stop everything; the error is passed on as it is.
 */
export async function readMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  onPart: (part: PartInfo) => PartSink | null | Promise<PartSink | null>,
): Promise<void> {
  // Every delimiter is CRLF--boundary; the first one has no CRLF before it, so pretend it had.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buf: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  let sink: PartSink | null = null;

  const malformed = (why: string) => new AppError(`The upload is not valid multipart form data: ${why}.`, 400);

  for await (const chunk of body) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk);
    for (;;) {
      if (state === "preamble") {
        const i = buf.indexOf(delimiter);
        if (i < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw malformed("no opening boundary");
          break;
        }
        buf = buf.subarray(i + delimiter.length);
        state = "after-delimiter";
      } else if (state === "after-delimiter") {
        if (buf.length < 2) break;
        const two = buf.subarray(0, 2).toString("latin1");
        if (two === "--") {
          state = "done";
        } else if (two === "\r\n") {
          buf = buf.subarray(2);
          state = "headers";
        } else {
          throw malformed("a boundary followed by neither a line break nor --");
        }
      } else if (state === "headers") {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw malformed("part headers are too long");
          break;
        }
        const info = parsePartHeaders(buf.subarray(0, end).toString("utf8"));
        if (!info) throw malformed("a part without a Content-Disposition form-data name");
        buf = buf.subarray(end + 4);
        sink = await onPart(info);
        state = "body";
      } else if (state === "body") {
        const i = buf.indexOf(delimiter);
        if (i >= 0) {
          if (sink) {
            if (i > 0) await sink.write(buf.subarray(0, i));
            await sink.end();
          }
          sink = null;
          buf = buf.subarray(i + delimiter.length);
          state = "after-delimiter";
        } else {
          // Keep a tail that may be the start of a delimiter split across chunks.
          const safe = buf.length - (delimiter.length - 1);
          if (safe > 0) {
            if (sink) await sink.write(buf.subarray(0, safe));
            buf = buf.subarray(safe);
          }
          break;
        }
      } else {
        break;
      }
    }
    if (state === "done") break;
    // Detach from the chunk we sliced so its memory can go.
    buf = Buffer.from(buf);
  }
  if (state !== "done") throw malformed("the body ended before the closing boundary (was the upload interrupted?)");
}

/** name and filename from a part's Content-Disposition (browsers percent-encode `"` and line breaks). */
export function parsePartHeaders(headers: string): PartInfo | null {
  const line = headers.split("\r\n").find((l) => /^content-disposition\s*:/i.test(l));
  if (!line || !/:\s*form-data\b/i.test(line)) return null;
  const param = (key: string) => {
    const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(line) ?? new RegExp(`;\\s*${key}=([^;\\s]+)`, "i").exec(line);
    return m ? m[1]!.replace(/\\(.)/g, "$1").replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n") : null;
  };
  const name = param("name");
  if (name === null) return null;
  return { name, filename: param("filename") };
}
