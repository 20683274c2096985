// Where gold items fall in an annotator's sequence of items (issue 18 #7). Deterministic by the
// campaign seed and the annotator, so a rerun (or a test) gives the same places, and spread in
// blocks so the rate holds exactly over every block yet the place in a block is unpredictable:
// with rate r the sequence is cut into blocks of B = round(1/r) items, and one seeded position in
// each block is a gold slot.
import { mulberry32 } from "@/lib/metrics/rng";

/** The largest rate a campaign may set: at most every other item is gold. */
export const MAX_GOLD_RATE = 0.5;

/** Block length for a rate (0 = no gold). */
export function goldBlock(rate: number): number {
  if (!(rate > 0)) return 0;
  return Math.max(2, Math.round(1 / Math.min(rate, MAX_GOLD_RATE)));
}

/** A 32-bit seed from the campaign seed, the annotator and the block index (FNV-1a). */
function blockSeed(seed: number, annotatorId: string, block: number): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of `${annotatorId}:${block}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

/** Whether slot `slot` (0-based, counting the annotator's non-qualification items) is a gold slot. */
export function isGoldSlot(seed: number, annotatorId: string, slot: number, rate: number): boolean {
  const b = goldBlock(rate);
  if (!b || slot < 0) return false;
  const block = Math.floor(slot / b);
  const pos = Math.floor(mulberry32(blockSeed(seed, annotatorId, block))() * b);
  return slot % b === pos;
}

/** The first `count` slots, as booleans (tests and the settings preview). */
export function goldSlots(seed: number, annotatorId: string, count: number, rate: number): boolean[] {
  return Array.from({ length: count }, (_, i) => isGoldSlot(seed, annotatorId, i, rate));
}
