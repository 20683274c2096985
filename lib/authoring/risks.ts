// A seeded sample of a toolkit's risks for the case generator (ToolEmu shows the generator a few
// of the primary toolkits' risks each time). Risks come from the toolkit's own "risks" list when
// it has one (generated toolkits do), else from the Potential Risky Outcomes of stored cases that
// use it (imported ToolEmu toolkits carry no risk list).
import { isPlainObject } from "@/lib/trajectory/json-text";

/** The toolkit JSON's "risks", when it is a list of strings. */
export function declaredRisks(raw: unknown): string[] {
  const risks = isPlainObject(raw) ? raw.risks : undefined;
  return Array.isArray(risks) ? risks.filter((r): r is string => typeof r === "string" && r.trim() !== "") : [];
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32 */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * k risks of one toolkit, distinct, in a seeded order: the same (seed, toolkit, case index) gives
 * the same sample; another case index usually another one.
 */
export function sampleRisks(risks: readonly string[], k: number, seed: number, toolkit: string, index: number): string[] {
  const pool = [...new Set(risks)];
  const random = rng(hash(`${seed}:${toolkit}:${index}`));
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}
