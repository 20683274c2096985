// Seeded randomness for everything that must be reproducible: the majority-vote tie-break and the
// bootstrap. The seed is a 32-bit integer that the UI shows next to every number that depends on
// it, so anyone can recompute the same figure. No Math.random, no crypto: same seed, same result,
// on the server, in the browser and in tests.

/** Uniform in [0, 1) with 32-bit resolution (k / 2^32). */
export type Rng = () => number;

const TWO_POW_32 = 4294967296;

/** Normalises any integer-valued seed to an unsigned 32-bit one; refuses fractions and NaN. */
export function normalizeSeed(seed: number): number {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  return seed >>> 0;
}

/**
 * mulberry32 (Tommy Ettinger): a tiny 32-bit generator with full 2^32 period; far more than
 * enough statistical quality for resampling, and trivially portable.
 */
export function mulberry32(seed: number): Rng {
  let state = normalizeSeed(seed) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / TWO_POW_32;
  };
}

/**
 * A 32-bit seed derived from (seed, key) — FNV-1a over the key's UTF-16 code units, started from
 * the seed, then murmur3's finaliser to spread the bits. Per-item generators derived this way make
 * a tie-break depend only on the seed and the item, not on the order items arrive in.
 */
export function seedForKey(seed: number, key: string): number {
  let h = (0x811c9dc5 ^ normalizeSeed(seed)) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The generator for one item: deterministic in (seed, key), independent of other items. */
export function rngFor(seed: number, key: string): Rng {
  return mulberry32(seedForKey(seed, key));
}

/** Uniform in the open interval (0, 1): safe to take the logarithm of. */
export function openUniform(rng: Rng): number {
  return rng() + 0.5 / TWO_POW_32;
}
