// Limits on what an upload may cost the server, from the environment (README: Configuration).
// Sizes accept plain bytes or a unit: 500MB, 2GB, 1.5GiB.
export interface UploadLimits {
  /** Largest request body of one upload (UPLOAD_MAX_BYTES, default 2 GB). */
  maxBytes: number;
  /** Uploads one user may have in progress at once (UPLOAD_MAX_CONCURRENT, default 2). */
  maxConcurrentPerUser: number;
  /** Most bytes the zip archives of one upload or import may unpack to (ZIP_MAX_UNPACKED_BYTES, default 8 GB). */
  zipMaxBytes: number;
  /** Most an archive may expand: unpacked ÷ archive size (ZIP_MAX_RATIO, default 100). */
  zipMaxRatio: number;
}

const UNITS: Record<string, number> = { "": 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

export function parseSize(name: string, raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined || Number(m[1]) <= 0) {
    throw new Error(`${name}=${raw} is not a size; use bytes or a unit, e.g. ${name}=500MB or ${name}=2GB.`);
  }
  return Math.floor(Number(m[1]) * unit);
}

function positiveNumber(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} must be a positive number.`);
  return n;
}

export function uploadLimits(env: Record<string, string | undefined> = process.env): UploadLimits {
  const size = (name: string, fallback: number) => (env[name] ? parseSize(name, env[name]!) : fallback);
  const num = (name: string, fallback: number) => (env[name] ? positiveNumber(name, env[name]!) : fallback);
  return {
    maxBytes: size("UPLOAD_MAX_BYTES", 2e9),
    maxConcurrentPerUser: Math.floor(num("UPLOAD_MAX_CONCURRENT", 2)),
    zipMaxBytes: size("ZIP_MAX_UNPACKED_BYTES", 8e9),
    zipMaxRatio: num("ZIP_MAX_RATIO", 100),
  };
}

/** 2 GB, 350 MB, 12 kB: for messages. */
export function formatSize(bytes: number): string {
  for (const [unit, n] of [["GB", 1e9], ["MB", 1e6], ["kB", 1e3]] as const) {
    if (bytes >= n) return `${Number((bytes / n).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
