// Aligns the steps of two trajectories for a side-by-side compare: a longest common subsequence
// over the tool each step called, so the same calls line up and a call only one agent made sits
// beside a gap. Ties prefer keeping steps in their own order. O(n·m) on step counts (tens).

export type AlignedPair = { a: number | null; b: number | null };

export function alignSteps(a: readonly (string | null)[], b: readonly (string | null)[]): AlignedPair[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] !== null && a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] !== null && a[i] === b[j]) out.push({ a: i++, b: j++ });
    // Different calls at the same place, when pairing them loses no match: side by side.
    else if (i < n && j < m && lcs[i + 1]![j + 1] === lcs[i]![j]) out.push({ a: i++, b: j++ });
    else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push({ a: i++, b: null });
    else out.push({ a: null, b: j++ });
  }
  return out;
}
