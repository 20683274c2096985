// Fault mode of the offline model: which requests fail, and how. Decided by a seeded RNG per
// request so a run with the same seed and the same request order fails the same way each time.
import { mulberry32 } from "@/lib/metrics/rng";

export interface FaultConfig {
  /** Share of requests answered 429 with a Retry-After header. */
  rate429: number;
  /** Share answered 500. */
  rate500: number;
  /** Share that hang for hangMs before answering (past a client's timeout). */
  rateHang: number;
  /** Share answered 200 with a malformed body (half without `choices`, half invalid JSON). */
  rateMalformed: number;
  /** Retry-After value sent with the 429s, in seconds. */
  retryAfterSeconds: number;
  /** How long a hanging request waits before it answers normally. */
  hangMs: number;
}

export type FaultKind = "ok" | "429" | "500" | "hang" | "malformed" | "invalid-json";

export const FAULT_KINDS: readonly FaultKind[] = ["ok", "429", "500", "hang", "malformed", "invalid-json"];

export const NO_FAULTS: FaultConfig = {
  rate429: 0,
  rate500: 0,
  rateHang: 0,
  rateMalformed: 0,
  retryAfterSeconds: 1,
  hangMs: 90_000,
};

const KEYS: Record<string, keyof FaultConfig> = {
  "429": "rate429",
  "500": "rate500",
  hang: "rateHang",
  malformed: "rateMalformed",
  retryafter: "retryAfterSeconds",
  "retry-after": "retryAfterSeconds",
  hangms: "hangMs",
};

/**
 * Parses "429=0.05,500=0.05,hang=0.05,malformed=0.05,retryAfter=2,hangMs=5000" (the
 * OFFLINE_LLM_FAULTS and `x-offline-faults` syntax). A bare kind ("500") means a rate of 1.
 * Throws on an unknown key or a value out of range, naming it.
 */
export function parseFaults(spec: string, base: FaultConfig = NO_FAULTS): FaultConfig {
  const out = { ...base };
  for (const raw of spec.split(/[,;]/)) {
    const part = raw.trim();
    if (!part) continue;
    const eq = part.indexOf("=");
    const k = eq >= 0 ? part.slice(0, eq).trim() : part;
    const v = eq >= 0 ? part.slice(eq + 1).trim() : "1";
    const key = KEYS[k.toLowerCase()];
    if (!key) throw new Error(`Unknown fault "${k}" (use 429, 500, hang, malformed, retryAfter, hangMs).`);
    const n = Number(v);
    const isRate = key.startsWith("rate");
    if (!Number.isFinite(n) || n < 0 || (isRate && n > 1)) {
      throw new Error(`Fault ${k}=${v}: ${isRate ? "a rate between 0 and 1" : "a number ≥ 0"} expected.`);
    }
    out[key] = n;
  }
  const total = out.rate429 + out.rate500 + out.rateHang + out.rateMalformed;
  if (total > 1 + 1e-9) throw new Error(`Fault rates add up to ${total.toFixed(3)}; at most 1.`);
  return out;
}

export function describeFaults(f: FaultConfig): string {
  const parts: string[] = [];
  if (f.rate429) parts.push(`429 ${pct(f.rate429)} (Retry-After ${f.retryAfterSeconds}s)`);
  if (f.rate500) parts.push(`500 ${pct(f.rate500)}`);
  if (f.rateHang) parts.push(`hang ${pct(f.rateHang)} (${f.hangMs} ms)`);
  if (f.rateMalformed) parts.push(`malformed ${pct(f.rateMalformed)}`);
  return parts.length ? parts.join(", ") : "none";
}

const pct = (r: number) => `${+(r * 100).toFixed(2)}%`;

/** Picks the fault for one request from one uniform draw u in [0, 1) and a second one for the malformed variant. */
export function pickFault(f: FaultConfig, u: number, u2: number): FaultKind {
  let edge = f.rate429;
  if (u < edge) return "429";
  if (u < (edge += f.rate500)) return "500";
  if (u < (edge += f.rateHang)) return "hang";
  if (u < (edge += f.rateMalformed)) return u2 < 0.5 ? "malformed" : "invalid-json";
  return "ok";
}

/** The fault draw's seeded generator (lib/metrics' mulberry32; fractional seeds truncated as before). */
export function seededRandom(seed: number): () => number {
  return mulberry32(Math.trunc(seed));
}
