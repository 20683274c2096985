// Confusion matrices over a FIXED, ordered label set. κ is always computed from one of these, so
// the dashboards can count label pairs in SQL (GROUP BY rater1, rater2) and hand over the counts;
// the pair-list constructor is only a convenience that builds the same counts in memory.

import { BINARY_LABELS, BINARY_THRESHOLD, SCORE_LABELS, isMissing, type Rating } from "./labels";

export interface ConfusionMatrix {
  /** Row / column order; weighted κ treats neighbouring labels as distance 1 apart. */
  readonly labels: readonly number[];
  /** counts[i][j] = items that rater 1 labelled labels[i] and rater 2 labelled labels[j]. */
  readonly counts: readonly (readonly number[])[];
  /** Paired items counted (the sum of all cells). */
  readonly n: number;
  /** Pairs left out because one or both labels were missing (0 when built from counts). */
  readonly dropped: number;
}

/** One row of a `GROUP BY rater1, rater2` aggregate. */
export interface LabelPairCount {
  readonly rater1: number;
  readonly rater2: number;
  readonly count: number | bigint;
}

function checkLabels(labels: readonly number[]): Map<number, number> {
  if (labels.length === 0) throw new RangeError("the label set is empty");
  const index = new Map<number, number>();
  labels.forEach((l, i) => {
    if (!Number.isFinite(l)) throw new RangeError(`label ${l} is not a finite number`);
    if (index.has(l)) throw new RangeError(`label ${l} appears twice in the label set`);
    index.set(l, i);
  });
  return index;
}

function indexOf(index: Map<number, number>, label: number, labels: readonly number[]): number {
  const i = index.get(label);
  // A label outside the set is a data error, not a missing label: refuse rather than miscount.
  if (i === undefined) throw new RangeError(`label ${label} is not in the label set [${labels.join(", ")}]`);
  return i;
}

function checkCount(c: number | bigint): number {
  const v = typeof c === "bigint" ? Number(c) : c;
  // Counts must be whole: the bootstrap resamples them as items.
  if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`a count must be a non-negative integer, got ${String(c)}`);
  return v;
}

function zeros(size: number): number[][] {
  return Array.from({ length: size }, () => new Array<number>(size).fill(0));
}

function build(labels: readonly number[], counts: number[][], dropped: number): ConfusionMatrix {
  let n = 0;
  for (const row of counts) for (const c of row) n += c;
  return { labels: [...labels], counts, n, dropped };
}

/** From two parallel rating lists (item i rated ratings1[i] and ratings2[i]). */
export function confusionFromPairs(
  ratings1: readonly Rating[],
  ratings2: readonly Rating[],
  labels: readonly number[] = SCORE_LABELS,
): ConfusionMatrix {
  if (ratings1.length !== ratings2.length) {
    throw new RangeError(`rating lists differ in length (${ratings1.length} vs ${ratings2.length})`);
  }
  const index = checkLabels(labels);
  const counts = zeros(labels.length);
  let dropped = 0;
  for (let k = 0; k < ratings1.length; k++) {
    const a = ratings1[k];
    const b = ratings2[k];
    if (isMissing(a) || isMissing(b)) {
      dropped++;
      continue;
    }
    counts[indexOf(index, a, labels)]![indexOf(index, b, labels)]!++;
  }
  return build(labels, counts, dropped);
}

/** From a square matrix of pair counts in label order (rows rater 1, columns rater 2). */
export function confusionFromCounts(
  counts: readonly (readonly (number | bigint)[])[],
  labels: readonly number[] = SCORE_LABELS,
): ConfusionMatrix {
  checkLabels(labels);
  const size = labels.length;
  if (counts.length !== size || counts.some((row) => row.length !== size)) {
    throw new RangeError(`expected a ${size}×${size} count matrix for labels [${labels.join(", ")}]`);
  }
  return build(labels, counts.map((row) => row.map(checkCount)), 0);
}

/** From the rows of a label-pair aggregate; pairs that do not occur may be absent. */
export function confusionFromCells(
  cells: Iterable<LabelPairCount>,
  labels: readonly number[] = SCORE_LABELS,
): ConfusionMatrix {
  const index = checkLabels(labels);
  const counts = zeros(labels.length);
  for (const cell of cells) {
    counts[indexOf(index, cell.rater1, labels)]![indexOf(index, cell.rater2, labels)]! += checkCount(cell.count);
  }
  return build(labels, counts, 0);
}

/** True for a matrix on the binarized scale already (label set exactly [0, 1]). */
function isBinary(cm: ConfusionMatrix): boolean {
  return cm.labels.length === 2 && cm.labels[0] === BINARY_LABELS[0] && cm.labels[1] === BINARY_LABELS[1];
}

/**
 * Which binarized class (0 or 1) each label of the matrix falls in: label ≥ threshold → 1. A
 * matrix already on [0, 1] maps to itself (binarizing it again at 2 would put everything in 0).
 */
export function binaryClasses(cm: ConfusionMatrix, threshold = BINARY_THRESHOLD): (0 | 1)[] {
  if (isBinary(cm)) return [0, 1];
  const classes = cm.labels.map((l) => (l >= threshold ? 1 : 0));
  if (!classes.includes(0) || !classes.includes(1)) {
    throw new RangeError(`threshold ${threshold} does not split the label set [${cm.labels.join(", ")}]`);
  }
  return classes;
}

/** Collapses onto the binarized scale (see `binaryClasses`). */
export function binarizeConfusion(cm: ConfusionMatrix, threshold = BINARY_THRESHOLD): ConfusionMatrix {
  const classes = binaryClasses(cm, threshold);
  const counts = zeros(2);
  cm.counts.forEach((row, i) => row.forEach((c, j) => (counts[classes[i]!]![classes[j]!]! += c)));
  return build(BINARY_LABELS, counts, cm.dropped);
}

/** Rater 1 and rater 2 swapped. */
export function transposeConfusion(cm: ConfusionMatrix): ConfusionMatrix {
  return build(cm.labels, cm.labels.map((_, i) => cm.labels.map((_, j) => cm.counts[j]![i]!)), cm.dropped);
}

/** Row-major copy into a flat array — the form the fast paths work on. */
export function flattenCounts(cm: ConfusionMatrix): Float64Array {
  const size = cm.labels.length;
  const flat = new Float64Array(size * size);
  cm.counts.forEach((row, i) => row.forEach((c, j) => (flat[i * size + j] = c)));
  return flat;
}
