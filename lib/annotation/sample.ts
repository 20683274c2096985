// Seeded choice of trajectories for a campaign, optionally stratified by agent model and
// emulator mode so every stratum is represented in proportion.
import { mulberry32 } from "@/lib/metrics/rng";

export interface Candidate {
  id: string;
  stratum: string;
}

function shuffle<T>(items: T[], rng: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

export function seededSample(candidates: Candidate[], n: number, seed: number, stratify: boolean): string[] {
  const sorted = [...candidates].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)); // input order must not matter
  const rng = mulberry32(seed);
  if (!stratify || n >= sorted.length) return shuffle(sorted, rng).slice(0, n).map((c) => c.id);
  const strata = new Map<string, Candidate[]>();
  for (const c of sorted) (strata.get(c.stratum) ?? strata.set(c.stratum, []).get(c.stratum)!).push(c);
  // Largest-remainder apportionment of n over the strata.
  const keys = [...strata.keys()].sort();
  const quotas = keys.map((k) => (strata.get(k)!.length * n) / sorted.length);
  const counts = quotas.map(Math.floor);
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = keys.map((_, i) => i).sort((a, b) => quotas[b]! - counts[b]! - (quotas[a]! - counts[a]!) || a - b);
  for (const i of order) if (left-- > 0) counts[i]!++;
  return keys.flatMap((k, i) => shuffle(strata.get(k)!, rng).slice(0, counts[i]).map((c) => c.id));
}
