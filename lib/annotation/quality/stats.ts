// Per-annotator statistics for PIs (issue 18 #7), pure: the loader (stats-query.ts) hands over
// every submitted label of the campaign as answers on one field. Definitions (also on the page):
//   gold       share of the annotator's gold items answered as the gold answer;
//   majority   share of their real items where they gave the others' most frequent answer
//              (items where the others tie, or nobody else answered, are left out);
//   κ          Cohen's κ (unweighted) with each other annotator over the items both labelled,
//              averaged over the others whose κ is defined;
//   time       median seconds on an item (the browser's count of time on the form);
//   drift      the majority agreement in each tenth of their items in the order they submitted.
// The "others" are the annotators whose labels count (excluded ones are left out).
import { cohenKappa, confusionFromPairs } from "@/lib/metrics";

export interface StatLabel {
  annotatorId: string;
  itemId: string;
  /** The answer on the field (answers.ts answerOf), null when not given. */
  answer: number | null;
  timeSpentMs: number;
  submittedAt: Date;
  /** The gold answer when the item is a gold item. */
  gold: number | null | undefined;
}

export interface Ratio {
  agree: number;
  n: number;
  /** agree / n, null when n = 0. */
  value: number | null;
}

export interface AnnotatorStats {
  annotatorId: string;
  labels: number;
  gold: Ratio;
  majority: Ratio;
  /** The mean of κ with each other annotator; null with the reason when no κ is defined. */
  kappa: { value: number | null; others: number; n: number; reason?: string };
  medianSeconds: number | null;
  drift: Ratio[];
}

const ratio = (agree: number, n: number): Ratio => ({ agree, n, value: n ? agree / n : null });

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The unique most frequent answer, or null (none, or a tie). */
export function mostFrequent(answers: number[]): number | null {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
  let best: number | null = null;
  let bestCount = 0;
  let tied = false;
  for (const [a, c] of counts) {
    if (c > bestCount) [best, bestCount, tied] = [a, c, false];
    else if (c === bestCount) tied = true;
  }
  return tied ? null : best;
}

export function annotatorStats(labels: StatLabel[], labelSet: number[], counted: (annotatorId: string) => boolean, deciles = 10): AnnotatorStats[] {
  const real = labels.filter((l) => l.gold === undefined);
  const byItem = new Map<string, StatLabel[]>();
  for (const l of real) byItem.set(l.itemId, [...(byItem.get(l.itemId) ?? []), l]);
  const annotators = [...new Set(labels.map((l) => l.annotatorId))].sort();

  return annotators.map((id) => {
    const mine = labels.filter((l) => l.annotatorId === id);
    const goldRows = mine.filter((l) => l.gold !== undefined && l.gold !== null);
    const realMine = real.filter((l) => l.annotatorId === id).sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.itemId < b.itemId ? -1 : 1));

    // Agreement with the others' majority, per item in submission order (null = not counted).
    const vsMajority = realMine.map((l) => {
      const others = (byItem.get(l.itemId) ?? []).filter((o) => o.annotatorId !== id && counted(o.annotatorId) && o.answer !== null).map((o) => o.answer!);
      const m = mostFrequent(others);
      return l.answer === null || m === null ? null : l.answer === m;
    });
    const drift = Array.from({ length: deciles }, (_, d) => {
      const part = vsMajority.filter((_, i) => Math.floor((i * deciles) / vsMajority.length) === d).filter((x): x is boolean => x !== null);
      return ratio(part.filter(Boolean).length, part.length);
    });
    const counts = vsMajority.filter((x): x is boolean => x !== null);

    // κ with each counted other annotator over shared real items.
    const kappas: number[] = [];
    const undefinedReasons = new Set<string>();
    let pairs = 0;
    for (const other of annotators) {
      if (other === id || !counted(other)) continue;
      const a: number[] = [];
      const b: number[] = [];
      for (const l of realMine) {
        const o = byItem.get(l.itemId)?.find((x) => x.annotatorId === other);
        if (o && l.answer !== null && o.answer !== null) {
          a.push(l.answer);
          b.push(o.answer);
        }
      }
      if (!a.length) continue;
      pairs += a.length;
      const k = cohenKappa(confusionFromPairs(a, b, labelSet));
      if (k.value !== undefined) kappas.push(k.value);
      else if (k.reason) undefinedReasons.add(k.reason);
    }
    const kappaReason = kappas.length ? undefined : pairs === 0 ? "no item labelled by another counted annotator" : [...undefinedReasons].join("; ");

    return {
      annotatorId: id,
      labels: realMine.length,
      gold: ratio(goldRows.filter((l) => l.answer === l.gold).length, goldRows.length),
      majority: ratio(counts.filter(Boolean).length, counts.length),
      kappa: { value: kappas.length ? kappas.reduce((s, x) => s + x, 0) / kappas.length : null, others: kappas.length, n: pairs, ...(kappaReason ? { reason: kappaReason } : {}) },
      medianSeconds: median(mine.map((l) => l.timeSpentMs / 1000)),
      drift,
    };
  });
}
